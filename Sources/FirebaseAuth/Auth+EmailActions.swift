import FBAuth
import Foundation

// Email links and the codes of Firebase's emails, as the SDK's `Auth` handles them
// (firebase-ios-sdk FirebaseAuth/Sources/Swift/Auth/Auth.swift, ActionCode/).
extension Auth {
    /// Mails `email` a link that signs in (`settings.url` is where it leads; the project must
    /// have it among its authorized domains).
    public func sendSignInLink(toEmail email: String, actionCodeSettings: ActionCodeSettings, completion: ((Error?) -> Void)? = nil) {
        let settings = actionCodeSettings.engineSettings
        run({ () async throws(FBAuthError) -> Void in try await self.fbauth.sendSignInLink(toEmail: email, actionCodeSettings: settings) }) { (_: Void?, error) in
            completion?(error)
        }
    }

    /// The same, with `async`.
    public func sendSignInLink(toEmail email: String, actionCodeSettings: ActionCodeSettings) async throws {
        let settings = actionCodeSettings.engineSettings
        try await bridged { () async throws(FBAuthError) in try await self.fbauth.sendSignInLink(toEmail: email, actionCodeSettings: settings) }
    }

    /// Whether `link` is a sign-in link from Firebase's email.
    public func isSignIn(withEmailLink link: String) -> Bool { fbauth.isSignIn(withEmailLink: link) }

    /// Signs in with the link mailed to `email`.
    public func signIn(withEmail email: String, link: String, completion: ((AuthDataResult?, Error?) -> Void)? = nil) {
        run({ () async throws(FBAuthError) -> AuthDataResult in self.signedIn(try await self.fbauth.signIn(withEmail: email, link: link)) }, completion)
    }

    /// The same, with `async`.
    public func signIn(withEmail email: String, link: String) async throws -> AuthDataResult {
        try await bridged { () async throws(FBAuthError) in self.signedIn(try await self.fbauth.signIn(withEmail: email, link: link)) }
    }

    /// Mails a password-reset link that leads to `actionCodeSettings.url` once used.
    public func sendPasswordReset(withEmail email: String, actionCodeSettings: ActionCodeSettings, completion: ((Error?) -> Void)? = nil) {
        let settings = actionCodeSettings.engineSettings
        run({ () async throws(FBAuthError) -> Void in try await self.fbauth.sendPasswordReset(withEmail: email, actionCodeSettings: settings) }) { (_: Void?, error) in
            completion?(error)
        }
    }

    /// The same, with `async`.
    public func sendPasswordReset(withEmail email: String, actionCodeSettings: ActionCodeSettings) async throws {
        let settings = actionCodeSettings.engineSettings
        try await bridged { () async throws(FBAuthError) in try await self.fbauth.sendPasswordReset(withEmail: email, actionCodeSettings: settings) }
    }

    /// Sets a new password with the code of a password-reset email.
    public func confirmPasswordReset(withCode code: String, newPassword: String, completion: @escaping (Error?) -> Void) {
        run({ () async throws(FBAuthError) -> Void in _ = try await self.fbauth.confirmPasswordReset(withCode: code, newPassword: newPassword) }) { (_: Void?, error) in
            completion(error)
        }
    }

    /// The same, with `async`.
    public func confirmPasswordReset(withCode code: String, newPassword: String) async throws {
        try await bridged { () async throws(FBAuthError) in _ = try await self.fbauth.confirmPasswordReset(withCode: code, newPassword: newPassword) }
    }

    /// The email of an email action's code, as the SDK's (firebase-ios-sdk `Auth.swift`): it
    /// checks the code (`checkActionCode`) and gives its email, whatever kind of code it is. A
    /// code that names no email (an email sign-in link's, which the server keeps to itself) is
    /// `invalidActionCode` here, where the SDK would call back with neither.
    public func verifyPasswordResetCode(_ code: String, completion: @escaping (String?, Error?) -> Void) {
        run({ () async throws(FBAuthError) -> String in try await self.passwordResetEmail(code) }, completion)
    }

    /// The same, with `async`.
    public func verifyPasswordResetCode(_ code: String) async throws -> String {
        try await bridged { () async throws(FBAuthError) in try await self.passwordResetEmail(code) }
    }

    private func passwordResetEmail(_ code: String) async throws(FBAuthError) -> String {
        let info = try await fbauth.checkActionCode(code)
        guard let email = info.email else {
            throw .failed(.invalidActionCode, "that code names no email (an email sign-in link's code)")
        }
        return email
    }

    /// What the code of one of Firebase's emails does, and for which address, without using it.
    public func checkActionCode(_ code: String, completion: @escaping (ActionCodeInfo?, Error?) -> Void) {
        run({ () async throws(FBAuthError) -> ActionCodeInfo in ActionCodeInfo(try await self.fbauth.checkActionCode(code)) }, completion)
    }

    /// The same, with `async`.
    public func checkActionCode(_ code: String) async throws -> ActionCodeInfo {
        try await bridged { () async throws(FBAuthError) in ActionCodeInfo(try await self.fbauth.checkActionCode(code)) }
    }

    /// Uses the code of an email (verifying an address, recovering one, …).
    public func applyActionCode(_ code: String, completion: @escaping (Error?) -> Void) {
        run({ () async throws(FBAuthError) -> Void in _ = try await self.fbauth.applyActionCode(code) }) { (_: Void?, error) in completion(error) }
    }

    /// The same, with `async`.
    public func applyActionCode(_ code: String) async throws {
        try await bridged { () async throws(FBAuthError) in _ = try await self.fbauth.applyActionCode(code) }
    }
}

/// Where an email's link leads, as the SDK's `ActionCodeSettings`. The fields that name a mobile
/// app to open the link in (iOS bundle id, Android package) are absent: off Apple platforms no
/// app opens it (docs/library.md).
open class ActionCodeSettings: NSObject, @unchecked Sendable {
    /// Where the link leads (its `continueUrl`).
    open var url: URL?
    /// Whether the link is opened by the app (true for sign-in links, as Firebase requires).
    open var handleCodeInApp = false
    /// The iOS app that opens the link, when it is opened on an iPhone.
    open var iOSBundleID: String?
    /// The Android app that opens the link, when it is opened on Android.
    open var androidPackageName: String?
    /// Whether Android offers to install that app when it is missing.
    open var androidInstallIfNotAvailable = false
    /// The oldest version of the Android app that may open the link.
    open var androidMinimumVersion: String?
    /// The Firebase Hosting domain the link is on, instead of the project's default.
    public var linkDomain: String?

    /// Settings to fill in: `url`, and `handleCodeInApp` for a sign-in link.
    public override init() { super.init() }

    /// Sets the Android app, in one call.
    open func setAndroidPackageName(_ androidPackageName: String, installIfNotAvailable: Bool, minimumVersion: String?) {
        self.androidPackageName = androidPackageName
        androidInstallIfNotAvailable = installIfNotAvailable
        androidMinimumVersion = minimumVersion
    }

    /// Sets the iOS app.
    open func setIOSBundleID(_ bundleID: String) { iOSBundleID = bundleID }

    var engineSettings: ActionLinkSettings {
        var settings = ActionLinkSettings(url: url?.absoluteString ?? "", handleCodeInApp: handleCodeInApp)
        settings.iOSBundleID = iOSBundleID
        settings.androidPackageName = androidPackageName
        settings.androidInstallApp = androidInstallIfNotAvailable
        settings.androidMinimumVersion = androidMinimumVersion
        settings.linkDomain = linkDomain
        return settings
    }
}

/// What an email's code does, as the SDK's `ActionCodeOperation`.
public enum ActionCodeOperation: Int, Sendable {
    /// Not one of the others.
    case unknown = 0
    /// Resets a password.
    case passwordReset = 1
    /// Verifies an email address.
    case verifyEmail = 2
    /// Restores the email address that was changed.
    case recoverEmail = 3
    /// Signs in.
    case emailLink = 4
    /// Verifies a new email address, then makes it the account's.
    case verifyAndChangeEmail = 5
    /// Removes a second factor added to the account.
    case revertSecondFactorAddition = 6

    /// Identity Toolkit's `requestType` as the operation.
    init(requestType: String) {
        switch requestType {
        case "PASSWORD_RESET": self = .passwordReset
        case "VERIFY_EMAIL": self = .verifyEmail
        case "RECOVER_EMAIL": self = .recoverEmail
        case "EMAIL_SIGNIN": self = .emailLink
        case "VERIFY_AND_CHANGE_EMAIL": self = .verifyAndChangeEmail
        case "REVERT_SECOND_FACTOR_ADDITION": self = .revertSecondFactorAddition
        default: self = .unknown
        }
    }

    init(_ operation: ActionLinkOperation) {
        switch operation {
        case .passwordReset: self = .passwordReset
        case .emailLink: self = .emailLink
        case .verifyEmail: self = .verifyEmail
        case .verifyAndChangeEmail: self = .verifyAndChangeEmail
        case .recoverEmail: self = .recoverEmail
        case .revertSecondFactorAddition: self = .revertSecondFactorAddition
        }
    }
}

/// What `checkActionCode` says of a code, as the SDK's `ActionCodeInfo`.
open class ActionCodeInfo: NSObject, @unchecked Sendable {
    /// What the code does.
    public let operation: ActionCodeOperation
    /// The address the email was sent to.
    public let email: String
    /// For a change or recovery of the address, the other address involved.
    public let previousEmail: String?

    init(_ info: ActionLinkInfo) {
        operation = ActionCodeOperation(requestType: info.requestType)
        email = info.email ?? ""
        previousEmail = info.newEmail
        super.init()
    }
}

/// A link from one of Firebase's emails, read, as the SDK's `ActionCodeURL`.
open class ActionCodeURL: NSObject, @unchecked Sendable {
    /// The API key of the project that sent it.
    public let apiKey: String?
    /// What it does.
    public let operation: ActionCodeOperation
    /// Its one-time code (`oobCode`).
    public let code: String?
    /// Where it leads once used.
    public let continueURL: URL?
    /// The language of the page it opens (`lang`).
    public let languageCode: String?

    /// Nil when `link` is no link from Firebase's emails.
    public init?(link: String) {
        guard let parsed = ActionLink(link: link) else { return nil }
        apiKey = parsed.apiKey
        operation = ActionCodeOperation(parsed.operation)
        code = parsed.code
        continueURL = parsed.continueURL.flatMap(URL.init(string:))
        languageCode = URLComponents(string: link)?.queryItems?.first { $0.name == "lang" }?.value
        super.init()
    }
}
