import FBAuthAdmin
import FBAuthHTTP
import FBAuthVerification
import Foundation

/// Where an email action link leads and which app opens it (firebase-admin's
/// `ActionCodeSettings`).
public struct ActionCodeSettings: Sendable {
    /// The continue URL: where the user goes once the action is done (an http or https URL).
    public var url: String
    /// Whether the link is opened in an app first (required for sign-in links).
    public var handleCodeInApp: Bool
    /// The iOS app's bundle id, to open the link there.
    public var iOSBundleID: String?
    /// The Android app's package name, to open the link there.
    public var androidPackageName: String?
    /// The Android app's minimum version.
    public var androidMinimumVersion: String?
    /// Whether to install the Android app if it is not.
    public var androidInstallApp: Bool
    /// The Firebase Hosting domain the link uses.
    public var linkDomain: String?
    /// The Firebase Dynamic Links domain the link used; `linkDomain` replaces it.
    @available(*, deprecated, message: "Firebase Dynamic Links shut down in 2025; use linkDomain")
    public var dynamicLinkDomain: String? {
        get { storedDynamicLinkDomain }
        set { storedDynamicLinkDomain = newValue }
    }
    private var storedDynamicLinkDomain: String?

    /// Settings for a link continuing to `url`.
    public init(url: String, handleCodeInApp: Bool = false, iOSBundleID: String? = nil, androidPackageName: String? = nil,
                androidMinimumVersion: String? = nil, androidInstallApp: Bool = false, linkDomain: String? = nil) {
        self.url = url
        self.handleCodeInApp = handleCodeInApp
        self.iOSBundleID = iOSBundleID
        self.androidPackageName = androidPackageName
        self.androidMinimumVersion = androidMinimumVersion
        self.androidInstallApp = androidInstallApp
        self.linkDomain = linkDomain
    }

    var engine: AdminActionSettings {
        var settings = AdminActionSettings(url: url)
        settings.handleCodeInApp = handleCodeInApp
        (settings.iOSBundleId, settings.androidPackageName, settings.androidMinimumVersion) = (iOSBundleID, androidPackageName, androidMinimumVersion)
        (settings.androidInstallApp, settings.linkDomain) = (androidInstallApp, linkDomain)
        settings.dynamicLinkDomain = storedDynamicLinkDomain
        return settings
    }
}

/// Email action links and session cookies, as firebase-admin's `BaseAuth` makes them.
extension AdminAuth {
    /// A link that lets the user of `email` set a new password (Firebase makes it; nothing is mailed).
    public func generatePasswordResetLink(_ email: String, actionCodeSettings: ActionCodeSettings? = nil) async throws -> String {
        let settings = actionCodeSettings?.engine
        return try await adminCall { try $0.emailActionLink(.passwordReset, email: email, settings: settings) }
    }

    /// A link that verifies the user's email address.
    public func generateEmailVerificationLink(_ email: String, actionCodeSettings: ActionCodeSettings? = nil) async throws -> String {
        let settings = actionCodeSettings?.engine
        return try await adminCall { try $0.emailActionLink(.verifyEmail, email: email, settings: settings) }
    }

    /// A link that verifies `newEmail` and then makes it the user's address.
    public func generateVerifyAndChangeEmailLink(_ email: String, newEmail: String, actionCodeSettings: ActionCodeSettings? = nil) async throws -> String {
        let settings = actionCodeSettings?.engine
        return try await adminCall { try $0.emailActionLink(.verifyAndChangeEmail, email: email, settings: settings, newEmail: newEmail) }
    }

    /// A link that signs the user of `email` in (the settings are required, `handleCodeInApp` true).
    public func generateSignInWithEmailLink(_ email: String, actionCodeSettings: ActionCodeSettings) async throws -> String {
        let settings = actionCodeSettings.engine
        return try await adminCall { try $0.emailActionLink(.signIn, email: email, settings: settings) }
    }

    /// A custom token for `uid` (1 to 128 characters), with `developerClaims` in the ID tokens
    /// it signs in to (none of the reserved claims): for `signInWithCustomToken`. Signed with the
    /// service account's key, or by IAM's `signBlob` where only the metadata server is there;
    /// against an emulator, unsigned, as firebase-admin makes them there.
    public func createCustomToken(_ uid: String, developerClaims: [String: Any]? = nil) async throws -> String {
        let claims = try developerClaims.map(Self.jsonClaims) ?? [:]
        let (minter, tenant) = (minter, scopedTenant)
        return try await offThread {
            do { return try minter.mint(uid: uid, claims: claims, tenantId: tenant).token } catch let refusal as TokenRefusal { throw AdminAuthError(refusal) }
        }
    }

    /// A session cookie for the user of `idToken`, lasting `expiresIn` seconds (5 minutes to
    /// 2 weeks); verify it with `verifySessionCookie`. (firebase-admin-node takes milliseconds;
    /// a Swift duration is seconds.)
    public func createSessionCookie(_ idToken: String, expiresIn: TimeInterval) async throws -> String {
        // A tenant's Auth makes cookies of its own tenant's users only.
        if scopedTenant != nil { _ = try await verifyIDToken(idToken) }
        return try await adminCall { try $0.createSessionCookie(idToken: idToken, expiresIn: expiresIn) }
    }
}
