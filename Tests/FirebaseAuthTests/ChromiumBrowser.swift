import Foundation

/// Headless Chromium as the user's browser, through `fbauth-test-chromium` (a product of this
/// package), with test doubles of Google's reCAPTCHA scripts: for the pages FirebaseAuth opens
/// (the reCAPTCHA step of a text).
enum ChromiumBrowser {
    static let isInstalled = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .contains { FileManager.default.isExecutableFile(atPath: $0) }

    /// The test doubles of Google's scripts, kept with the command line's tests.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FBAuthCLITests/Browser").path

    /// Where this build's products are (the test bundle sits beside them).
    static let products: URL = {
        if let explicit = ProcessInfo.processInfo.environment["FBAUTH_BINARY_DIR"] { return URL(fileURLWithPath: explicit) }
        #if os(macOS)
        if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) { return bundle.bundleURL.deletingLastPathComponent() }
        #endif
        return Bundle.main.bundleURL
    }()

    /// Opens `url` in headless Chromium, which plays the user; what it did goes to `log`.
    static func open(_ url: URL, log: String) -> Bool {
        let process = Process()
        process.executableURL = products.appendingPathComponent("fbauth-test-chromium")
        process.arguments = [url.absoluteString]
        var environment = ProcessInfo.processInfo.environment
        environment["FBAUTH_CHROMIUM_SERVE"] = "https://www.google.com/recaptcha/=\(fixtures)/recaptcha"
        environment["FBAUTH_CHROMIUM_LOG"] = log
        process.environment = environment
        return (try? process.run()) != nil
    }
}
