#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport
import Dispatch
import LoopbackHTTP

/// fbauth's own production-like stand-in for Identity Toolkit, securetoken and OAuth providers,
/// served on loopback from a background thread. Used by `fbauth demo`, `fbauth emulator` and
/// the tests, which can also inspect what it received, inject faults and change its state.
package final class StandIn: @unchecked Sendable {
    // All state is behind `lock`; `server` is touched only by the serving thread after `start`.
    private let lock = Lock()
    /// The default project's state: the client API (an API key names no project) and the
    /// tests' inspection use it.
    private let backend: Backend
    /// Every other project a request names (`projects/P/…`), each with state of its own, as
    /// Google's Auth emulator keeps them.
    private var otherProjects = OtherProjects()
    private let server: LoopbackServer
    private let wakePipe: WakePipe
    private let finished = DispatchSemaphore(value: 0)
    private var running = false
    private var holdHook: (@Sendable (String) -> Void)?

    package let port: UInt16
    /// `127.0.0.1:PORT`, the value for `FIREBASE_AUTH_EMULATOR_HOST`.
    package var hostAndPort: String { "127.0.0.1:\(port)" }
    package var baseURL: String { "http://\(hostAndPort)" }

    package init(configuration: StandInConfiguration = StandInConfiguration(), port: UInt16 = 0) throws(LoopbackListenError) {
        server = try LoopbackServer(
            port: port,
            options: .init(limits: HTTPLimits(maxHeaderBytes: 16 * 1024, maxBodyBytes: 4 << 20)))
        guard let wakePipe = WakePipe() else { throw .failed(SocketError(operation: "pipe", code: 24)) }
        self.wakePipe = wakePipe
        self.port = server.port
        backend = Backend(configuration: configuration)
        backend.baseURL = "http://127.0.0.1:\(server.port)"
        backend.outsideLock = { [lock] body in lock.withoutLock(body) }
    }

    deinit { stop() }

    /// Hands each mail and SMS "sent" to `deliver` (from the serving thread), as Google's Auth
    /// emulator logs them: nothing leaves the machine, and a developer needs the links and codes.
    package func deliverMessages(to deliver: @escaping @Sendable (String) -> Void) {
        withBackend { backend in
            backend.outbox = deliver
            for other in otherProjects.all { other.outbox = deliver }
        }
    }

    /// Calls `hook` on the serving thread with each request's endpoint (`token`,
    /// `accounts:lookup`) before answering it: a test holds a request there, as a slow server
    /// would, while it breaks something else. Nil: answer at once.
    package func beforeAnswering(_ hook: (@Sendable (String) -> Void)?) {
        lock.withLock { holdHook = hook }
    }

    /// Starts serving on a background thread.
    package func start() {
        lock.withLock { running = true }
        BackgroundThread.start { [self] in
            while true {
                let event = server.next(until: nil, watching: [wakePipe.readDescriptor]) { request in
                    let endpoint = request.path.split(separator: "/").last.map(String.init) ?? request.path
                    self.lock.withLock { self.holdHook }?(endpoint)
                    return self.lock.withLock {
                        if UsersPage.isFor(request) {
                            return .respond(UsersPage.answer(request, port: port) { self.projectsHoldingSomething })
                        }
                        guard let backend = self.backend(for: request) else { return .respond(Self.tooManyProjects) }
                        // A request that may call a blocking function is answered on a thread of
                        // its own, so that a slow function holds up no other client.
                        if backend.hasBlockingFunctions, request.method == "POST" {
                            guard self.requestsAside < Self.mostRequestsAside else { return .respond(Self.tooManyRequestsAside) }
                            self.requestsAside += 1
                            return .hold
                        }
                        return backend.route(request)
                    }
                }
                if case .held(let held) = event { answerAside(held) }
                if case .readable = event { break }
            }
            server.close()
            finished.signal()
        }
    }

    /// Requests being answered aside, and how many may be: each is a thread that may wait out a
    /// function's deadline, so a function that hangs costs at most this many threads, and
    /// later requests are answered at once (503) rather than queued behind it.
    private var requestsAside = 0
    private static let mostRequestsAside = 64
    private static let tooManyRequestsAside = APIError(
        httpStatus: 503, message: "UNAVAILABLE : ((\(mostRequestsAside) requests are already waiting for blocking functions; try again.))",
        status: "UNAVAILABLE", reason: "backendError").response

    /// Answers `held` on a thread of its own; the lock is released while a blocking function runs.
    private func answerAside(_ held: HeldRequest) {
        let held = UncheckedSendable(held)
        BackgroundThread.start { [self] in
            let disposition: Disposition = lock.withLock {
                defer { requestsAside -= 1 }
                guard let backend = self.backend(for: held.value.request) else { return .respond(Self.tooManyProjects) }
                return backend.route(held.value.request)
            }
            switch disposition {
            case .respond(let response), .respondAfter(_, let response): held.value.respond(response)
            case .drop, .hold: held.value.respond(APIError.internalError("INTERNAL").response)
            }
        }
    }

    /// Stops serving and frees the port.
    package func stop() {
        let wasRunning = lock.withLock {
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        wakePipe.wake()
        finished.wait()
    }

    /// The state of the project `request` names in its path; the default project's otherwise;
    /// nil when no more projects are kept (`OtherProjects`).
    private func backend(for request: HTTPRequest) -> Backend? {
        guard let project = Backend.projectNamed(in: request.path) ?? Backend.targetProject(of: request),
              project != backend.configuration.projectId else { return backend }
        return otherProjects.state(of: project) {
            var configuration = backend.configuration
            configuration.projectId = project
            let made = Backend(configuration: configuration)
            made.baseURL = backend.baseURL
            made.outbox = backend.outbox
            made.outsideLock = backend.outsideLock
            return made
        }
    }

    /// The emulator's own project, then every other one that holds users or settings, for the
    /// users page's project list.
    private var projectsHoldingSomething: [String] {
        [backend.configuration.projectId] + otherProjects.all.filter { !$0.holdsNothing }.map(\.configuration.projectId).sorted()
    }

    private static let tooManyProjects = APIError(
        httpStatus: 429, message: "RESOURCE_EXHAUSTED : ((This emulator keeps at most \(OtherProjects.limit) projects besides its own, and each holds users or settings; restart it to start over.))",
        status: "RESOURCE_EXHAUSTED").response

    private func withBackend<T>(_ body: (Backend) throws -> T) rethrows -> T {
        try lock.withLock { try body(backend) }
    }

    /// Runs `body` on the state under the lock, for `AuthExport`, keeping its error's type.
    func withBackendForExport(_ body: (Backend) throws(AuthExport.Problem) -> Void) throws(AuthExport.Problem) {
        var failure: AuthExport.Problem?
        lock.withLock {
            do throws(AuthExport.Problem) { try body(backend) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    // MARK: - Inspection

    package var configuration: StandInConfiguration {
        get { withBackend { $0.configuration } }
        set { withBackend { $0.configuration = newValue } }
    }

    /// Every request received, in order.
    package var requests: [RecordedRequest] { withBackend { $0.requests } }

    /// Requests whose last path segment is `endpoint` (`accounts:lookup`, `token`, …).
    package func requests(to endpoint: String) -> [RecordedRequest] {
        requests.filter { $0.endpoint == endpoint }
    }

    /// Every secret the stand-in has handed out: Firebase ID and refresh tokens, authorization
    /// codes and verifiers, providers' tokens and secrets, pending tokens. For leak tests.
    package var issuedSecrets: Set<String> {
        withBackend { backend in
            var secrets = Set(backend.idTokens.keys).union(backend.refreshTokens.keys).union(backend.grants.keys)
                .union(backend.pendingCredentials.keys).union(backend.adminAccessTokens.keys)
            let identities = backend.grants.values.map(\.identity) + Array(backend.pendingCredentials.values)
            for identity in identities {
                secrets.insert(identity.accessToken)
                if let idToken = identity.idToken { secrets.insert(idToken) }
                if let secret = identity.tokenSecret { secrets.insert(secret) }
            }
            return secrets
        }
    }

    /// Visits to the fake providers' authorization endpoints.
    package var authorizations: [RecordedAuthorization] { withBackend { $0.authorizations } }

    /// Users, for assertions.
    package var users: [StandInUser] {
        withBackend { backend in
            backend.accounts.values.sorted { $0.createdAt < $1.createdAt }.map { account in
                StandInUser(uid: account.localId, email: account.email, providerIds: account.links.map(\.providerId),
                            hasPassword: account.hasPassword, disabled: account.disabled, emailVerified: account.emailVerified,
                            displayName: account.displayName, photoUrl: account.photoUrl, emailLinkSignIn: account.emailLinkSignIn)
            }
        }
    }

    // MARK: - Control

    package func inject(_ fault: Fault) { withBackend { $0.faults.append(fault) } }

    /// Removes every injected fault, used or not.
    package func clearFaults() { withBackend { $0.faults.removeAll() } }

    /// Moves the stand-in's clock (token expiry, revocation) forward.
    package func advanceClock(by seconds: TimeInterval) { withBackend { $0.clockOffset += seconds } }

    /// Revokes every token issued so far to the user (as the Admin SDK's revokeRefreshTokens).
    package func revokeTokens(uid: String) {
        withBackend { backend in backend.accounts[backend.key(ofUID: uid)]?.validSince = backend.now() }
    }

    package func disableUser(uid: String) { withBackend { $0.accounts[$0.key(ofUID: uid)]?.disabled = true } }

    /// Links a provider account to a user directly on the server (as another device would).
    package func linkProvider(uid: String, providerId: String, email: String) {
        withBackend { backend in
            let identity = ProviderIdentity.make(providerId: providerId, email: email, tenant: nil, mintToken: { RandomToken.make() })
            backend.accounts[backend.key(ofUID: uid)]?.links.append(ProviderLink(
                providerId: providerId, rawId: identity.rawId, federatedId: identity.federatedId, email: email,
                displayName: identity.displayName, photoUrl: identity.photoUrl, screenName: identity.screenName))
        }
    }

    package func deleteUser(uid: String) { withBackend { $0.accounts[$0.key(ofUID: uid)] = nil } }

    /// Creates an email/password user (as the console or Admin SDK would) and returns its uid.
    @discardableResult
    package func createPasswordUser(email: String, password: String, tenantId: String? = nil) -> String {
        precondition(tenantId.map(TenantID.isValid) ?? true, "not a tenant id")
        return withBackend { backend in
            var account = backend.createAccount(tenantId: tenantId)
            account.email = email.lowercased()
            account.password = password
            backend.accounts[account.key] = account
            return account.localId
        }
    }

    /// Marks the user's email as verified (as the link Firebase emails would).
    package func verifyEmail(uid: String) { withBackend { $0.accounts[$0.key(ofUID: uid)]?.emailVerified = true } }

    /// Enrols a TOTP second factor directly (as the user did on another device); returns its
    /// enrollment id and base32 secret.
    @discardableResult
    package func enrollTOTP(uid: String, displayName: String? = nil) -> (enrollmentId: String, secret: String) {
        var generator = SystemRandomNumberGenerator()
        let secret = Base32.encode((0..<20).map { _ in UInt8.random(in: 0...255, using: &generator) })
        return (enroll(uid: uid, displayName: displayName, kind: .totp(secret: secret)), secret)
    }

    /// Enrols an SMS second factor directly; returns its enrollment id.
    @discardableResult
    package func enrollPhone(uid: String, phoneNumber: String, displayName: String? = nil) -> String {
        enroll(uid: uid, displayName: displayName, kind: .phone(phoneNumber))
    }

    private func enroll(uid: String, displayName: String?, kind: MfaEnrollment.Kind) -> String {
        withBackend { backend in
            let enrollment = MfaEnrollment(id: RandomToken.localId(), displayName: displayName, enrolledAt: backend.now(), kind: kind)
            backend.accounts[backend.key(ofUID: uid)]?.mfaEnrollments.append(enrollment)
            return enrollment.id
        }
    }

    /// The second factors of a user: enrollment id, `phone` or `totp`, display name.
    package func secondFactors(uid: String) -> [(enrollmentId: String, factorId: String, displayName: String?)] {
        withBackend { backend in
            (backend.accounts[backend.key(ofUID: uid)]?.mfaEnrollments ?? []).map { ($0.id, $0.factorId, $0.displayName) }
        }
    }

    /// The newest SMS code "sent" to `phoneNumber`.
    package func latestCode(sentTo phoneNumber: String) -> String? {
        withBackend { backend in
            backend.phoneVerifications.values.filter { $0.phoneNumber == phoneNumber }.max { $0.expiresAt < $1.expiresAt }?.code
        }
    }

    /// The newest link "mailed" to `email` (of `requestType`, e.g. `PASSWORD_RESET`, when given).
    package func latestOobLink(sentTo email: String, requestType: String? = nil) -> String? {
        withBackend { backend in
            backend.oobCodes.values.filter { $0.email == email.lowercased() && (requestType == nil || $0.requestType == requestType) }
                .max { $0.expiresAt < $1.expiresAt }?.link
        }
    }

    /// The password of a user, for assertions (the stand-in keeps them in the clear).
    package func password(uid: String) -> String? { withBackend { $0.accounts[$0.key(ofUID: uid)]?.password } }

    /// Custom claims in the user's ID tokens (as the Admin SDK's setCustomUserClaims).
    package func setCustomClaims(uid: String, _ claims: [String: any Sendable]) {
        withBackend { $0.accounts[$0.key(ofUID: uid)]?.customClaims = claims.mapValues { $0 as Any } }
    }

    /// A provider token as an app would get it from the provider's own SDK (Google Sign-In,
    /// Sign in with Apple, a CI's OpenID Connect issuer): the stand-in then accepts it in a
    /// credential sign-in. `audience` defaults to the fake provider's client id; `nonce` is
    /// the raw nonce whose SHA-256 the ID token carries; `lifetime` is the ID token's.
    package func mintProviderCredential(providerId: String, email: String, audience: String? = nil, nonce: String? = nil,
                                       lifetime: TimeInterval = 3600) -> ProviderCredential {
        withBackend { backend in
            var identity = ProviderIdentity.make(providerId: providerId, email: email, tenant: nil, mintToken: { RandomToken.make(bytes: 24) })
            var claims: [String: Any] = [
                "iss": "https://\(providerId)", "sub": identity.rawId, "email": email, "email_verified": identity.emailVerified,
                "aud": audience ?? "fake-\(providerId)-client", "iat": Int(backend.now().timeIntervalSince1970),
                "exp": Int(backend.now().addingTimeInterval(lifetime).timeIntervalSince1970),
            ]
            if let nonce { claims["nonce"] = SHA256.hex(nonce) }
            identity.idToken = UnsignedJWT.make(claims)
            backend.rememberProviderCredential(identity)
            return ProviderCredential(idToken: identity.idToken ?? "", accessToken: identity.accessToken, tokenSecret: identity.tokenSecret)
        }
    }

    /// An App Check token for `appID`, as the debug-token exchange issues them (signed by the
    /// stand-in's published key), with `changes` applied to its claims (nil removes one) and its
    /// header (`header.alg`, `header.kid`, `header.typ`): for tests of what a verifier refuses.
    package func mintAppCheckToken(appID: String, changes: [String: (any Sendable)?] = [:]) -> String {
        withBackend { backend in
            let now = Int(backend.now().timeIntervalSince1970)
            var claims: [String: Any] = [
                "sub": appID, "aud": ["projects/\(backend.configuration.projectNumber)", "projects/\(backend.configuration.projectId)"],
                "iss": "https://firebaseappcheck.googleapis.com/\(backend.configuration.projectNumber)", "provider": "debug",
                "iat": now, "exp": now + 3600,
            ]
            var header: [String: Any] = ["alg": "RS256", "kid": AppCheckService.kid, "typ": "JWT"]
            for (name, value) in changes {
                if name.hasPrefix("header.") { header[String(name.dropFirst(7))] = value } else { claims[name] = value }
            }
            let token = UnsignedJWT.make(claims, header: header, signed: true)
            backend.appCheckTokens[token] = Date(timeIntervalSince1970: TimeInterval(claims["exp"] as? Int ?? now))
            return token
        }
    }

    /// A JWT of `claims` signed by the stand-in's securetoken key (whose certificate it
    /// publishes with `signsTokens`), or unsigned (`alg: none`, as Google's Auth emulator signs
    /// its blocking-function tokens): for tests of what a verifier takes.
    package func mintSecuretokenJWT(_ claims: [String: any Sendable], signed: Bool) -> String {
        signed ? UnsignedJWT.make(claims, signed: true) : UnsignedJWT.none(claims)
    }

    /// A custom token for `uid`, shaped like the Admin SDK's (signature not verified here).
    package func customToken(uid: String) -> String {
        let now = Int(Date().timeIntervalSince1970)
        return UnsignedJWT.make([
            "aud": Backend.customTokenAudience, "iss": "firebase-adminsdk@fbauth-stand-in.iam.gserviceaccount.com",
            "sub": "firebase-adminsdk@fbauth-stand-in.iam.gserviceaccount.com", "uid": uid, "iat": now, "exp": now + 3600,
        ])
    }
}

/// Tokens a provider's own SDK would give an app.
package struct ProviderCredential: Sendable {
    package var idToken: String
    package var accessToken: String
    /// OAuth 1.0a (X/Twitter) only.
    package var tokenSecret: String?
}

/// A user of the stand-in, as tests see it.
package struct StandInUser: Sendable, Equatable {
    package var uid: String
    package var email: String?
    package var providerIds: [String]
    package var hasPassword: Bool
    package var disabled: Bool
    package var emailVerified: Bool
    package var displayName: String?
    package var photoUrl: String?
    package var emailLinkSignIn: Bool
}

/// A value handed to another thread that alone uses it from then on (a held request's socket).
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
