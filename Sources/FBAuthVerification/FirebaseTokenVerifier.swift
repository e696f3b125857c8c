#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthHTTP
import FBAuthSupport

/// A verified Firebase ID token or session cookie: its uid (`sub`) and every claim.
package struct VerifiedFirebaseToken: Sendable, Equatable {
    package let uid: String
    package let claims: [String: JSONValue]
    /// Taken without a signature (`alg: none`) only because an emulator host is set: a server
    /// that inherited `FIREBASE_AUTH_EMULATOR_HOST` from a development `.env` takes anyone's
    /// word for who they are, so callers say so (issue 47).
    package var acceptedUnsigned = false
}

/// Verifies Firebase ID tokens or session cookies of one project as firebase-admin does, with
/// the keys Google publishes (cached for their max-age, fetched again for an unknown `kid`).
/// Against an emulator (`emulatorHost`), unsigned tokens are taken, and a signed one is checked
/// with the certificates the emulator publishes where Google publishes securetoken's.
package struct FirebaseTokenVerifier: Sendable {
    let checks: FirebaseTokenChecks
    let keys: PublicKeyCache
    let clock: WallClock

    let revocation: RevocationCheck
    /// The emulator's `host:port` when tokens are checked against one.
    package let emulatorHost: String?

    /// `keptKeys`: where Google's certificates are kept between processes (0600); nil:
    /// in this process only. `credentials`: what the Admin API is called with to check for
    /// revocation; an emulator's is always `Bearer owner`.
    /// `certificatesURL`: where the keys are fetched instead of Google's (or the emulator's)
    /// address; a test's key server.
    package init(projectId: String, kind: FirebaseTokenKind = .idToken, emulatorHost: String? = nil,
                transport: HTTPTransport = CurlTransport(), clock: WallClock = SystemClock(), keptKeys: KeptKeys? = nil,
                credentials: AdminCredentialsSource = .applicationDefault(environment: ProcessInfo.processInfo.environment),
                certificatesURL: URL? = nil) {
        checks = FirebaseTokenChecks(kind: kind, projectId: projectId, againstEmulator: emulatorHost != nil)
        let address = emulatorHost.map { "http://\($0)/" + kind.certificatesURL.dropFirst("https://".count) } ?? kind.certificatesURL
        keys = PublicKeyCache(url: certificatesURL ?? URL(string: address)!, transport: transport, clock: clock, kept: keptKeys)
        self.clock = clock
        self.emulatorHost = emulatorHost
        let found = credentials.finder(emulatorHost: emulatorHost)
        revocation = RevocationCheck(kind: kind, projectId: projectId,
                                     endpoint: emulatorHost.map { "http://\($0)/identitytoolkit.googleapis.com" } ?? "https://identitytoolkit.googleapis.com",
                                     accessTokens: AdminAccessTokens(transport: transport, clock: clock, credentials: found), transport: transport)
    }

    /// The token's claims once every check passes; with `checkRevoked`, or against an
    /// emulator (as firebase-admin: an unsigned token proves nothing of its user), also that its
    /// user exists, is not disabled, and has not had their tokens revoked since it was issued.
    package func verify(_ token: String, checkRevoked: Bool = false, audience: String? = nil) throws(TokenRefusal) -> VerifiedFirebaseToken {
        var checks = checks
        checks.audience = audience
        let decoded = try checks.decode(token)
        try checks.checkContent(decoded)
        if !(checks.againstEmulator && decoded.header["alg"]?.stringValue == "none") {
            var known = try keys.keys()
            if let kid = decoded.header["kid"]?.stringValue, known[kid] == nil { known = try keys.keys(refreshing: true) }
            try checks.checkSignature(decoded, keys: known)
        } else {
            try checks.checkSignature(decoded, keys: [:])
        }
        try checks.checkTimes(decoded, now: Int64(clock.now().timeIntervalSince1970.rounded(.down)))
        let verified = VerifiedFirebaseToken(uid: decoded.payload["sub"]?.stringValue ?? "", claims: decoded.payload,
                                             acceptedUnsigned: checks.againstEmulator && decoded.header["alg"]?.stringValue == "none")
        if checks.kind != .authBlockingToken, checkRevoked || checks.againstEmulator { try revocation.check(verified) }
        return verified
    }
}

/// Where the Admin API's credentials come from, to check for revocation (firebase-admin's
/// `applicationDefault()` or `cert(path)`).
package enum AdminCredentialsSource: Sendable {
    /// `GOOGLE_APPLICATION_CREDENTIALS` of this environment, else gcloud's application default
    /// credentials (`CLOUDSDK_CONFIG` or `HOME`), else on Google's clouds their metadata server.
    case applicationDefault(environment: [String: String])
    /// A service account's key file, or an `authorized_user` credentials file.
    case file(String)

    /// The `project_id` of a service account's key file, if that is what there is: the project
    /// firebase-admin verifies for when it is given none.
    package var serviceAccountProjectID: String? {
        if case .serviceAccount(let key)? = try? load() { return key.projectID }
        return nil
    }

    /// How the credentials are found when first needed: an emulator's owner where there is an
    /// emulator, else these (`purpose` begins the sentence that says none were found).
    func finder(emulatorHost: String?, purpose: String = "Checking for revocation") -> @Sendable () throws(TokenRefusal) -> AdminCredentials {
        guard emulatorHost == nil else { return { () throws(TokenRefusal) in .emulatorOwner } }
        return { () throws(TokenRefusal) in try self.load(purpose: purpose) }
    }

    /// `purpose` begins the sentence that says none were found ("Checking for revocation").
    func load(purpose: String = "Checking for revocation") throws(TokenRefusal) -> AdminCredentials {
        switch self {
        case .applicationDefault(let environment): try AdminCredentials.applicationDefault(environment: environment, purpose: purpose)
        case .file(let path): try AdminCredentials.file(path)
        }
    }
}
