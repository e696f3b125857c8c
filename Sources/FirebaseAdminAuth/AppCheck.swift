import FBAuthHTTP
import FBAuthVerification
import Foundation

/// Firebase App Check on the server, as firebase-admin's `getAppCheck()`: verifies the
/// `X-Firebase-AppCheck` header a client app sends, with the checks and words of
/// firebase-admin-node's `app-check/token-verifier`, and with `consume`, replay protection
/// through the App Check API.
///
/// ```swift
/// let appCheck = AppCheck(projectID: "my-project")
/// let verified = try await appCheck.verifyToken(header)
/// print(verified.appID)
/// ```
///
/// App Check's public keys (a JSON Web Key Set) are fetched once and kept for as long as the
/// answer says, six hours without a word. With `FIREBASE_AUTH_EMULATOR_HOST` set (or
/// `emulatorHost` given) the emulator's key set and API are asked instead: `fbauth emulator`
/// signs the App Check tokens it exchanges for debug tokens and publishes its keys, so the
/// whole loop runs on one machine. Its key is public, so that is said once, as for unsigned
/// ID tokens. A refused token throws `AdminAuthError` with an `app-check/` code.
public final class AppCheck: Sendable {
    /// The project whose tokens are taken (`aud` must name `projects/ID`); nil when none was
    /// found, and then every verification throws `app-check/invalid-credential`.
    public let projectID: String?
    private let verifier: AppCheckTokenVerifier?
    private let creator: AppCheckTokenCreator?
    /// The one warning that the keys are an emulator's.
    private let emulatorWarning: OnceLog

    /// App Check's verifier for a project, as firebase-admin's `appCheck()` is for its app.
    ///
    /// - Parameters:
    ///   - projectID: nil: `GOOGLE_CLOUD_PROJECT`, else `GCLOUD_PROJECT`, else the service
    ///     account's `project_id`, as firebase-admin finds it.
    ///   - emulatorHost: nil: `FIREBASE_AUTH_EMULATOR_HOST`.
    ///   - credentialsFile: the App Check API's credentials, for `consume`, found as
    ///     `AdminAuth` finds them.
    ///   - log: where AppCheck says, once, that it trusts an emulator's keys; standard error
    ///     unless given.
    public init(projectID: String? = nil, emulatorHost: String? = nil, credentialsFile: String? = nil,
                log: @escaping @Sendable (String) -> Void = AdminAuth.standardErrorLog) {
        let environment = ProcessInfo.processInfo.environment
        let credentials: AdminCredentialsSource = credentialsFile.map { .file($0) } ?? .applicationDefault(environment: environment)
        let emulator = emulatorHost ?? environment["FIREBASE_AUTH_EMULATOR_HOST"].flatMap { $0.isEmpty ? nil : $0 }
        let project = projectID.flatMap { $0.isEmpty ? nil : $0 } ?? TokenRefusal.projectFromEnvironment(environment)?.projectID
            ?? (emulator == nil ? credentials.serviceAccountProjectID : nil)
        self.projectID = project
        emulatorWarning = OnceLog(log)
        verifier = project.map { AppCheckTokenVerifier(projectId: $0, emulatorHost: emulator, credentials: credentials) }
        creator = project.map { AppCheckTokenCreator(projectId: $0, emulatorHost: emulator, credentials: credentials) }
    }

    /// A token for the app of `appId` (`1:123:web:abc`), made with the service account's key
    /// (or IAM's `signBlob`) and exchanged with App Check, as firebase-admin's `createToken`:
    /// for your own attestation provider, or for tests. `options.ttlMillis`: 30 minutes to 7 days.
    public func createToken(_ appId: String, options: AppCheckTokenOptions? = nil) async throws -> AppCheckToken {
        guard let creator else {
            throw AdminAuthError(code: "app-check/invalid-credential", message: "Must initialize app with a cert credential or set your Firebase project ID as the GOOGLE_CLOUD_PROJECT environment variable to create an App Check token.",
                                 cause: .serverCredentials)
        }
        return try await offThread {
            do {
                let (token, ttl) = try creator.create(appId: appId, ttlMillis: options?.ttlMillis, limitedUse: options?.limitedUse, jti: options?.jti)
                return AppCheckToken(token: token, ttlMillis: ttl)
            } catch let refusal as TokenRefusal { throw AdminAuthError(refusal) }
        }
    }

    /// Verifies an App Check token; with `options.consume`, also marks it used with the App
    /// Check API and says whether it had been (`alreadyConsumed`).
    public func verifyToken(_ appCheckToken: String, options: VerifyAppCheckTokenOptions = VerifyAppCheckTokenOptions()) throws -> VerifyAppCheckTokenResponse {
        guard let verifier else {
            throw AdminAuthError(code: "app-check/invalid-credential", message: "Must initialize app with a cert credential or set your Firebase project ID as the GOOGLE_CLOUD_PROJECT environment variable to verify an App Check token.",
                                 cause: .serverCredentials)
        }
        let verified: VerifiedAppCheckToken
        do {
            verified = try verifier.verify(appCheckToken, consume: options.consume)
        } catch {
            throw AdminAuthError(error)
        }
        if let host = verifier.emulatorHost {
            emulatorWarning.say("FirebaseAdminAuth: an App Check token was checked with the keys of an emulator (FIREBASE_AUTH_EMULATOR_HOST or emulatorHost: \(host)), which are public; never configure one where real apps call")
        }
        return VerifyAppCheckTokenResponse(verified)
    }

    /// The same, off the caller's thread: the first call waits for the key set, and `consume`
    /// for the App Check API.
    public func verifyToken(_ appCheckToken: String, options: VerifyAppCheckTokenOptions = VerifyAppCheckTokenOptions()) async throws -> VerifyAppCheckTokenResponse {
        try await offThread { try self.verifyToken(appCheckToken, options: options) }
    }
}

/// How `createToken` makes a token (firebase-admin's `AppCheckTokenOptions`).
public struct AppCheckTokenOptions: Sendable {
    /// How long the token lasts: 30 minutes to 7 days, in milliseconds; nil: App Check's default (an hour).
    public var ttlMillis: Int?
    /// A token for one use, which `verifyToken(_:options:)` with `consume` then refuses a second time.
    public var limitedUse: Bool?
    /// The limited-use token's id (`jti`), where the caller chooses it.
    public var jti: String?

    /// The options given.
    public init(ttlMillis: Int? = nil, limitedUse: Bool? = nil, jti: String? = nil) { (self.ttlMillis, self.limitedUse, self.jti) = (ttlMillis, limitedUse, jti) }
}

/// A token `createToken` made (firebase-admin's `AppCheckToken`).
public struct AppCheckToken: Sendable {
    /// The App Check token, for the app to send in `X-Firebase-AppCheck`.
    public let token: String
    /// How long it lasts, in milliseconds.
    public let ttlMillis: Int
}

/// firebase-admin's `VerifyAppCheckTokenOptions`.
public struct VerifyAppCheckTokenOptions: Sendable {
    /// Mark the token used with the App Check API (replay protection for limited-use tokens).
    public var consume: Bool

    /// Options for one verification; `consume` false by default, as firebase-admin's.
    public init(consume: Bool = false) {
        self.consume = consume
    }
}

/// firebase-admin's `VerifyAppCheckTokenResponse`.
public struct VerifyAppCheckTokenResponse: Sendable {
    /// The app the token attests (its `sub`).
    public let appID: String
    /// The token's claims.
    public let token: DecodedAppCheckToken
    /// With `consume`: whether the token had been consumed before; nil otherwise.
    public let alreadyConsumed: Bool?

    init(_ verified: VerifiedAppCheckToken) {
        appID = verified.appID
        token = DecodedAppCheckToken(verified)
        alreadyConsumed = verified.alreadyConsumed
    }
}

/// firebase-admin's `DecodedAppCheckToken`: every claim, and the usual ones by name.
public struct DecodedAppCheckToken: @unchecked Sendable {
    /// The app id (`sub`, which firebase-admin copies to `app_id`).
    public let appID: String
    /// Every claim, as `JSONSerialization` gives them.
    public let claims: [String: Any]

    init(_ verified: VerifiedAppCheckToken) {
        appID = verified.appID
        claims = DecodedIDToken.foundationObjects(verified.claims)
    }

    /// `https://firebaseappcheck.googleapis.com/PROJECT_NUMBER`.
    public var issuer: String? { claims["iss"] as? String }
    /// `["projects/PROJECT_NUMBER", "projects/PROJECT_ID"]`.
    public var audience: [String] { claims["aud"] as? [String] ?? [] }
    /// When the token was issued (`iat`).
    public var issuedAt: Date { Date(timeIntervalSince1970: (claims["iat"] as? NSNumber)?.doubleValue ?? 0) }
    /// When the token expires (`exp`).
    public var expirationTime: Date { Date(timeIntervalSince1970: (claims["exp"] as? NSNumber)?.doubleValue ?? 0) }
}
