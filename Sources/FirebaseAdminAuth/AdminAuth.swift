import FBAuthAdmin
import FBAuthHTTP
import FBAuthSupport
import FBAuthVerification
import Foundation

/// The server's half of Firebase Authentication, as the Firebase Admin SDKs name it: verifying
/// the ID tokens and session cookies clients send (`verifyIdToken`, `verifySessionCookie` in
/// firebase-admin-node; `VerifyIDToken` in firebase-admin-go). For Swift servers (Vapor,
/// Hummingbird, or none): no session store, no browser, nothing of a signed-in user.
///
/// ```swift
/// let auth = AdminAuth(projectID: "my-project")
/// let token = try await auth.verifyIDToken(bearer)
/// print(token.uid, token.claims["admin"] as? Bool ?? false)
/// ```
///
/// Google's public keys are fetched once and kept for as long as Google says; a verification
/// with kept keys costs some 110 µs and makes no request. With `FIREBASE_AUTH_EMULATOR_HOST`
/// set (or `emulatorHost` given), an emulator's unsigned tokens are taken, as firebase-admin
/// takes them, and signed ones are checked with the certificates the emulator publishes; as
/// firebase-admin, every emulator token's user is looked up (`Bearer owner`).
///
/// Not final, so that `TenantAwareAuth` is one, with a tenant's users; `@unchecked Sendable`
/// because of that: every stored property is a `let` of a Sendable type.
public class AdminAuth: @unchecked Sendable {
    /// The project whose tokens are taken (their audience); nil when none was found, and then
    /// every verification throws `auth/invalid-credential`, as firebase-admin's does.
    public let projectID: String?
    private let idTokens: FirebaseTokenVerifier?
    private let sessionCookies: FirebaseTokenVerifier?
    private let blockingTokens: FirebaseTokenVerifier?
    /// The Admin API's user management, for the same project and credentials.
    let users: AdminAPI?
    /// Custom tokens, signed with the service account's key (or IAM's signBlob on Google's clouds).
    let minter: CustomTokenMinter
    let clock: WallClock
    /// The one warning that an unsigned emulator token was taken.
    private let unsignedWarning: OnceLog
    /// The tenant whose users and tokens this works with (a `TenantAwareAuth`); nil: the project's.
    let scopedTenant: String?
    /// The project's own Admin API, for its tenants and configuration, even in a tenant's Auth.
    let projectAPI: AdminAPI?

    /// Writes a line to standard error: the default `log`.
    public static let standardErrorLog: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// An Auth for one project's tokens, as firebase-admin's `getAuth()` gives one.
    ///
    /// - Parameters:
    ///   - projectID: the Firebase project id; nil: `GOOGLE_CLOUD_PROJECT`, else `GCLOUD_PROJECT`,
    ///     else the service account's `project_id`, as firebase-admin finds it.
    ///   - emulatorHost: `host:port` of an Auth emulator; nil: `FIREBASE_AUTH_EMULATOR_HOST`.
    ///   - credentialsFile: the Admin API's credentials, for `checkRevoked`: a service account's
    ///     key file (or gcloud's `authorized_user` file); nil: `GOOGLE_APPLICATION_CREDENTIALS`,
    ///     else gcloud's application default credentials, else on Google's clouds (Cloud Run,
    ///     Compute Engine) their metadata server. Read when first needed. An emulator needs none.
    ///   - log: where AdminAuth says, once, that it took an unsigned token because an emulator
    ///     is configured (a server that inherited `FIREBASE_AUTH_EMULATOR_HOST` from a
    ///     development `.env` would otherwise take anyone's word for who they are); standard
    ///     error by default.
    public init(projectID: String? = nil, emulatorHost: String? = nil, credentialsFile: String? = nil,
                log: @escaping @Sendable (String) -> Void = AdminAuth.standardErrorLog) {
        unsignedWarning = OnceLog(log)
        let environment = ProcessInfo.processInfo.environment
        let credentials: AdminCredentialsSource = credentialsFile.map { .file($0) } ?? .applicationDefault(environment: environment)
        let emulator = emulatorHost ?? environment["FIREBASE_AUTH_EMULATOR_HOST"].flatMap { $0.isEmpty ? nil : $0 }
        let project = projectID.flatMap { $0.isEmpty ? nil : $0 } ?? TokenRefusal.projectFromEnvironment(environment)?.projectID
            ?? (emulator == nil ? credentials.serviceAccountProjectID : nil)
        self.projectID = project
        idTokens = project.map { FirebaseTokenVerifier(projectId: $0, kind: .idToken, emulatorHost: emulator, credentials: credentials) }
        sessionCookies = project.map { FirebaseTokenVerifier(projectId: $0, kind: .sessionCookie, emulatorHost: emulator, credentials: credentials) }
        blockingTokens = project.map { FirebaseTokenVerifier(projectId: $0, kind: .authBlockingToken, emulatorHost: emulator, credentials: credentials) }
        users = project.map { AdminAPI(projectId: $0, emulatorHost: emulator, credentials: credentials) }
        minter = CustomTokenMinter(emulator: emulator != nil, credentials: credentials)
        clock = SystemClock()
        scopedTenant = nil
        projectAPI = users
    }

    /// `base`'s project, credentials and keys, for the users and tokens of `tenant`.
    init(tenant: String, of base: AdminAuth) {
        (unsignedWarning, projectID, idTokens, sessionCookies) = (base.unsignedWarning, base.projectID, base.idTokens, base.sessionCookies)
        blockingTokens = base.blockingTokens
        (users, minter, clock) = (base.projectAPI?.forTenant(tenant), base.minter, base.clock)
        (scopedTenant, projectAPI) = (tenant, base.projectAPI)
    }

    /// For tests: ID tokens of `projectID` checked with the keys at `certificatesURL` (in
    /// Google's x509 form), fetched through `transport`, on `clock`.
    package init(projectID: String, certificatesURL: URL, transport: HTTPTransport, clock: WallClock) {
        unsignedWarning = OnceLog { _ in }
        self.projectID = projectID
        idTokens = FirebaseTokenVerifier(projectId: projectID, transport: transport, clock: clock, credentials: .applicationDefault(environment: [:]),
                                         certificatesURL: certificatesURL)
        sessionCookies = nil
        blockingTokens = FirebaseTokenVerifier(projectId: projectID, kind: .authBlockingToken, transport: transport, clock: clock,
                                               credentials: .applicationDefault(environment: [:]), certificatesURL: certificatesURL)
        users = nil
        minter = CustomTokenMinter(emulator: false, credentials: .applicationDefault(environment: [:]), transport: transport, clock: clock)
        self.clock = clock
        scopedTenant = nil
        projectAPI = nil
    }

    /// Verifies a Firebase ID token: its signature by one of Google's keys, its project, issuer,
    /// subject and times. With `checkRevoked` (and always against an emulator, as
    /// firebase-admin), its user is looked up too: a disabled user is `auth/user-disabled`, a
    /// token from before the user's tokens were revoked `auth/id-token-revoked`, a deleted
    /// user `auth/user-not-found`. Throws `AdminAuthError` with firebase-admin's code and words.
    public func verifyIDToken(_ idToken: String, checkRevoked: Bool = false) throws -> DecodedIDToken {
        try verify(idToken, with: idTokens, checkRevoked: checkRevoked)
    }

    /// The same, off the caller's thread: the first call, and one a day or so after, waits
    /// for Google's keys; one with `checkRevoked` waits for the lookup.
    public func verifyIDToken(_ idToken: String, checkRevoked: Bool = false) async throws -> DecodedIDToken {
        try await offThread { try self.verifyIDToken(idToken, checkRevoked: checkRevoked) }
    }

    /// Verifies a Firebase session cookie (made by `createSessionCookie`): issuer
    /// `https://session.firebase.google.com/PROJECT`, identitytoolkit's keys. `checkRevoked`
    /// as for ID tokens (`auth/session-cookie-revoked`).
    public func verifySessionCookie(_ sessionCookie: String, checkRevoked: Bool = false) throws -> DecodedIDToken {
        try verify(sessionCookie, with: sessionCookies, checkRevoked: checkRevoked)
    }

    /// The same, off the caller's thread.
    public func verifySessionCookie(_ sessionCookie: String, checkRevoked: Bool = false) async throws -> DecodedIDToken {
        try await offThread { try self.verifySessionCookie(sessionCookie, checkRevoked: checkRevoked) }
    }

    /// Verifies the token Identity Platform sends a blocking function (`beforeCreate`,
    /// `beforeSignIn`, `beforeSendEmail`, `beforeSendSms`), as firebase-admin's
    /// `_verifyAuthBlockingToken`: securetoken's keys and issuer, an `aud` that holds `audience`
    /// (the function's URL; nil: `PROJECT.cloudfunctions.net/`), not expired. What the
    /// firebase-functions SDKs call (`_verifyAuthBlockingToken` there, marked alpha); a server of
    /// its own handles blocking functions with it.
    public func verifyAuthBlockingToken(_ token: String, audience: String? = nil) async throws -> DecodedAuthBlockingToken {
        guard let verifier = blockingTokens else {
            throw AdminAuthError(code: "auth/invalid-credential", message: "Must initialize app with a cert credential or set your Firebase project ID as the GOOGLE_CLOUD_PROJECT environment variable to call _verifyAuthBlockingToken().",
                                 cause: .serverCredentials)
        }
        return try await offThread {
            do { return DecodedAuthBlockingToken(try verifier.verify(token, audience: audience).claims) } catch let refusal as TokenRefusal { throw AdminAuthError(refusal) }
        }
    }

    private func verify(_ token: String, with verifier: FirebaseTokenVerifier?, checkRevoked: Bool) throws -> DecodedIDToken {
        guard let verifier else {
            throw AdminAuthError(code: "auth/invalid-credential", message: "Must initialize app with a cert credential or set your Firebase project ID as the GOOGLE_CLOUD_PROJECT environment variable to call verifyIdToken().",
                                 cause: .serverCredentials)
        }
        let verified: VerifiedFirebaseToken
        do {
            verified = try verifier.verify(token, checkRevoked: checkRevoked)
        } catch {
            throw AdminAuthError(error)
        }
        if verified.acceptedUnsigned, let host = verifier.emulatorHost {
            unsignedWarning.say("FirebaseAdminAuth: an unsigned token (alg none) was accepted because an Auth emulator is configured (FIREBASE_AUTH_EMULATOR_HOST or emulatorHost: \(host)); never configure one where real users sign in")
        }
        let decoded = DecodedIDToken(verified)
        // A tenant's Auth takes only its own tenant's tokens (firebase-admin-node `TenantAwareAuth`).
        if let scopedTenant, decoded.tenantID != scopedTenant {
            throw AdminAuthError(AdminErrors.client("MISMATCHING_TENANT_ID"))
        }
        return decoded
    }
}

/// A verified Firebase ID token or session cookie, as firebase-admin's `DecodedIdToken`.
public struct DecodedIDToken: @unchecked Sendable {
    /// The user's uid (the token's `sub`).
    public let uid: String
    /// Every claim of the token, custom claims included, as `JSONSerialization` gives them
    /// (strings, numbers, booleans, arrays, dictionaries: immutable values).
    public let claims: [String: Any]

    init(_ verified: VerifiedFirebaseToken) {
        uid = verified.uid
        claims = Self.foundationObjects(verified.claims)
    }

    /// Claims as `JSONSerialization` gives them (what `claims` holds, here and in App Check's).
    static func foundationObjects(_ claims: [String: JSONValue]) -> [String: Any] {
        let data = (try? JSONEncoder().encode(JSONValue.object(claims))) ?? Data("{}".utf8)
        return ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any]) ?? [:]
    }

    /// The user's email, if the token carries one.
    public var email: String? { claims["email"] as? String }
    /// Whether that email is verified.
    public var emailVerified: Bool { claims["email_verified"] as? Bool ?? false }
    /// `password`, `google.com`, `anonymous`, `custom`, … (`firebase.sign_in_provider`).
    public var signInProvider: String? { (claims["firebase"] as? [String: Any])?["sign_in_provider"] as? String }
    /// The Identity Platform tenant (`firebase.tenant`), if any.
    public var tenantID: String? { (claims["firebase"] as? [String: Any])?["tenant"] as? String }
    /// When the user signed in (`auth_time`).
    public var authTime: Date { Self.date(claims["auth_time"]) }
    /// When the token was issued (`iat`).
    public var issuedAt: Date { Self.date(claims["iat"]) }
    /// When the token expires (`exp`).
    public var expirationTime: Date { Self.date(claims["exp"]) }

    private static func date(_ value: Any?) -> Date {
        Date(timeIntervalSince1970: (value as? NSNumber)?.doubleValue ?? 0)
    }
}

/// A refused token, with firebase-admin's code (`auth/id-token-expired`,
/// `auth/argument-error`, `auth/session-cookie-expired`, `auth/id-token-revoked`,
/// `auth/user-disabled`, `auth/user-not-found`; `auth/internal-error` when Google's keys could
/// not be had, `app/invalid-credential` or `app/network-error` when the Admin API's access
/// token could not) and message.
public struct AdminAuthError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// firebase-admin's error code, such as `auth/id-token-expired`.
    public let code: String
    /// firebase-admin's message, which names the check that failed.
    public let message: String
    /// What it means for the request being served: the token is not good (answer 401), it could
    /// not be checked now (Google's keys or the Admin API out of reach: 503), or this server's
    /// own setup is wrong (no project, refused Admin API credentials: 500).
    public let cause: Cause

    /// Whose the failure is, and so what a server answers.
    public enum Cause: Sendable, Equatable {
        /// The token is not good: expired, forged, another project's, revoked, its user disabled.
        case invalidToken
        /// It could not be checked now: Google's keys or the Admin API could not be had.
        case unavailable
        /// The server's own setup: no project, or its Admin API credentials refused.
        case serverCredentials
    }

    init(code: String, message: String, cause: Cause) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    init(_ refusal: TokenRefusal) {
        let cause: Cause = switch refusal.blame {
        case .token: .invalidToken
        case .unavailable: .unavailable
        case .credentials: .serverCredentials
        }
        self.init(code: refusal.code, message: refusal.message, cause: cause)
    }
    /// The code as firebase-admin's `AuthErrorCode` names it, for an `auth/` code.
    public var authErrorCode: AdminAuthErrorCode? {
        code.hasPrefix("auth/") ? AdminAuthErrorCode(rawValue: String(code.dropFirst(5))) : nil
    }

    /// The code as firebase-admin's `AppCheckErrorCode` names it, for an `app-check/` code.
    public var appCheckErrorCode: AppCheckErrorCode? {
        code.hasPrefix("app-check/") ? AppCheckErrorCode(rawValue: String(code.dropFirst(10))) : nil
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
    /// The message.
    public var errorDescription: String? { message }
}

/// A line said once, however many verifications would say it (through the caller's `log`).
/// `@unchecked`: `said` is read and written under `lock` only.
final class OnceLog: @unchecked Sendable {
    private let log: @Sendable (String) -> Void
    private let lock = NSLock()
    private var said = false

    init(_ log: @escaping @Sendable (String) -> Void) {
        self.log = log
    }

    func say(_ line: @autoclosure () -> String) {
        let first = lock.withLock { () -> Bool in
            defer { said = true }
            return !said
        }
        if first { log(line()) }
    }
}

/// Runs `work` on a thread of its own, so that a fetch of Google's keys never holds one of
/// the cooperative pool's (or an event loop's) threads.
func offThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}
