/// The two Firebase JWTs a server verifies, with what tells them apart and how firebase-admin
/// names them in its messages (firebase-admin-node `src/auth/token-verifier.ts`,
/// `ID_TOKEN_INFO` and `SESSION_COOKIE_INFO`).
package enum FirebaseTokenKind: Sendable {
    case idToken
    case sessionCookie
    /// What Identity Platform sends a blocking function (`beforeCreate`, `beforeSignIn`, …),
    /// signed with securetoken's keys; firebase-admin's `_verifyAuthBlockingToken`.
    case authBlockingToken

    /// Where Google publishes the certificates of the keys that sign them (kid → PEM).
    var certificatesURL: String {
        switch self {
        case .idToken, .authBlockingToken: "https://www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"
        case .sessionCookie: "https://www.googleapis.com/identitytoolkit/v3/relyingparty/publicKeys"
        }
    }

    /// The issuer, before the project id.
    var issuerPrefix: String {
        switch self {
        case .idToken, .authBlockingToken: "https://securetoken.google.com/"
        case .sessionCookie: "https://session.firebase.google.com/"
        }
    }

    var jwtName: String {
        switch self {
        case .idToken: "Firebase ID token"
        case .sessionCookie: "Firebase session cookie"
        case .authBlockingToken: "Firebase Auth Blocking token"
        }
    }

    var shortName: String {
        switch self {
        case .idToken: "ID token"
        case .sessionCookie: "session cookie"
        case .authBlockingToken: "Auth Blocking token"
        }
    }

    var article: String { self == .sessionCookie ? "a" : "an" }

    var verifyName: String {
        switch self {
        case .idToken: "verifyIdToken()"
        case .sessionCookie: "verifySessionCookie()"
        case .authBlockingToken: "_verifyAuthBlockingToken()"
        }
    }

    var expiredCode: String {
        switch self {
        case .idToken: "auth/id-token-expired"
        case .sessionCookie: "auth/session-cookie-expired"
        case .authBlockingToken: "auth/auth-blocking-token-expired"
        }
    }

    /// Blocking tokens are never checked for revocation; they have a revoked code of none.
    var revokedCode: String { self == .idToken ? "auth/id-token-revoked" : "auth/session-cookie-revoked" }

    private var docs: String {
        switch self {
        case .idToken: "https://firebase.google.com/docs/auth/admin/verify-id-tokens"
        case .sessionCookie: "https://firebase.google.com/docs/auth/admin/manage-cookies"
        case .authBlockingToken: "https://cloud.google.com/identity-platform/docs/blocking-functions"
        }
    }

    /// firebase-admin's closing sentence of most refusals.
    var docsSentence: String { " See \(docs) for details on how to retrieve \(article) \(shortName)." }
}

/// Why a token was refused: firebase-admin's error code (`auth/argument-error`,
/// `auth/id-token-expired`, …) and message.
package struct TokenRefusal: Error, Sendable, Equatable {
    package let code: String
    package let message: String

    package init(_ message: String, code: String = "auth/argument-error") {
        self.code = code
        self.message = message
    }
}

extension TokenRefusal {
    /// What a refusal means for the one who asked, decided here once for the command line and
    /// the library: the token is not good, it could not be checked now (Google's keys or the
    /// Admin API out of reach: try again), or the checker's own Admin API credentials are wrong.
    package enum Blame: Sendable, Equatable { case token, unavailable, credentials }

    package var blame: Blame {
        switch code {
        case "auth/internal-error", "app/network-error", "app-check/internal-error": .unavailable
        case "app/invalid-credential", "auth/insufficient-permission": .credentials
        default: .token
        }
    }

    /// The project whose tokens are taken when none is given, as firebase-admin finds it:
    /// `GOOGLE_CLOUD_PROJECT`, else `GCLOUD_PROJECT` (the first that is set and not empty), with
    /// the variable's name for messages.
    package static func projectFromEnvironment(_ environment: [String: String]) -> (variable: String, projectID: String)? {
        for name in ["GOOGLE_CLOUD_PROJECT", "GCLOUD_PROJECT"] {
            if let value = environment[name], !value.isEmpty { return (name, value) }
        }
        return nil
    }
}

