/// The SDK's `ActionCodeSettings`, as far as a program outside a browser uses it: where a mailed
/// link returns to, and whether the app handles it. In the Firebase layer: the mails' requests
/// carry it.
package struct ActionLinkSettings: Sendable, Equatable {
    package var url: String
    /// Whether the app opens the link (`canHandleCodeInApp`); sign-in links always are.
    package var handleCodeInApp: Bool
    /// The iOS app that opens the link (`iOSBundleId`).
    package var iOSBundleID: String?
    /// The Android app that opens the link, whether to install it, and its oldest version.
    package var androidPackageName: String?
    package var androidInstallApp = false
    package var androidMinimumVersion: String?
    /// The Firebase Hosting domain of the link, instead of the project's default.
    package var linkDomain: String?
    package init(url: String, handleCodeInApp: Bool = false) {
        self.url = url
        self.handleCodeInApp = handleCodeInApp
    }
}
