import Foundation

/// Settings of an `Auth` for an app's tests, as the SDK's `AuthSettings`
/// (FirebaseAuth/Sources/Swift/Auth/AuthSettings.swift).
open class AuthSettings: NSObject, NSCopying, @unchecked Sendable {
    /// Whether phone verification skips reCAPTCHA: for the project's fictional test numbers
    /// and for emulators, which take any verification.
    open var appVerificationDisabledForTesting = false

    /// The same, as Swift reads a Bool.
    open var isAppVerificationDisabledForTesting: Bool {
        get { appVerificationDisabledForTesting }
        set { appVerificationDisabledForTesting = newValue }
    }

    override init() { super.init() }

    /// A copy, as `Auth.settings` hands out and takes in.
    open func copy(with zone: NSZone? = nil) -> Any {
        let settings = AuthSettings()
        settings.appVerificationDisabledForTesting = appVerificationDisabledForTesting
        return settings
    }
}
