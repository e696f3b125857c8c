import Foundation
import TestSupport

/// Headless Chromium for the hosted flow's end-to-end tests, through `fbauth-test-chromium`.
/// `.ci/run` installs Debian's chromium; elsewhere these tests are skipped when it is missing.
enum Chromium {
    static let isInstalled = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .contains { FileManager.default.isExecutableFile(atPath: $0) }

    /// Where the page loads the SDK from in tests; fbauth-test-chromium answers for it.
    static let sdkURL = "https://sdk.fbauth.test/firebasejs"

    /// Test fixtures: the SDK test double and the stand-in for Google's iframe library.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser").path

    /// The real SDK build to check the page against (`FBAUTH_TEST_FIREBASE_JS`), when given.
    static let realSDK: String? = ProcessInfo.processInfo.environment["FBAUTH_TEST_FIREBASE_JS"].flatMap { path in
        path.isEmpty ? nil : URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// The driver's log once it has seen how the page ended (fbauth answers the page and exits;
    /// the driver notices a moment later), or as it is after a few seconds.
    static func finalLog(_ path: String, within seconds: TimeInterval = 10) -> String {
        var text = ""
        _ = eventually(within: seconds) {
            text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            return ["page signed-in:", "page failed:", "page verified:", "timed out", "\nfailed:"].contains(where: text.contains)
        }
        return text
    }

    /// Runs `fbauth ARGUMENTS` with its page in headless Chromium (the SDK test double, or the
    /// build in `sdk`); returns the result and the browser's log.
    static func hosted(_ harness: Harness, _ arguments: [String], browser: [String: String] = [:], sdk: String? = nil) throws -> (RunResult, String) {
        let log = harness.directory + "/chromium-\(UUID().uuidString).log"
        var variables = sdk.map { environment(log: log, sdkDirectory: $0) } ?? environment(log: log)
        variables.merge(browser) { $1 }
        let result = try harness.run(arguments + ["--port", "0", "--timeout", "40"], environment: variables, timeout: 90)
        return (result, finalLog(log))
    }

    /// The environment that makes `fbauth` open its page in headless Chromium, which loads the
    /// SDK from `sdkDirectory` (default: the test double).
    static func environment(log: String, sdkDirectory: String = fixtures + "/firebasejs") -> [String: String] {
        [
            "BROWSER": Binaries.url("fbauth-test-chromium").path,
            "FBAUTH_FIREBASE_JS_URL": sdkURL,
            "FBAUTH_CHROMIUM_SERVE": "\(sdkURL)/=\(sdkDirectory)\nhttps://apis.google.com/=\(fixtures)/gapi.js\nhttps://www.google.com/recaptcha/=\(fixtures)/recaptcha",
            "FBAUTH_CHROMIUM_LOG": log,
        ]
    }
}
