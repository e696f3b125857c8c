@testable import FBAuth
@testable import FBAuthCLI
import FBAuthStandIn
import Foundation
import Testing
import FBAuthSupport

// The fixture of the in-process command tests: commands run in this process through
// `Dependencies`, with a recording console, the stand-in over the real transport, a headless
// browser, and a wall clock the test moves.

/// A wall clock that reads the real time plus an offset the test sets.
final class ShiftedClock: WallClock, @unchecked Sendable {
    private let lock = NSLock()
    private var offset: TimeInterval = 0
    func advance(by seconds: TimeInterval) { lock.withLock { offset += seconds } }
    func now() -> Date { lock.withLock { Date().addingTimeInterval(offset) } }
}

/// The user's browser, consenting as `email` on the provider's page.
struct InProcessBrowser: BrowserLauncher {
    let email: String
    func open(_ url: String) throws(BrowserLaunchError) -> LaunchedBrowser? {
        let email = email
        Thread.detachNewThread { _ = try? HeadlessBrowser(email: email).visit(url) }
        return nil
    }
}

/// One user's machine: a config directory and a project on the stand-in.
final class InProcessMachine {
    let standIn: StandIn
    let directory: String
    let clock = ShiftedClock()
    /// What `demo` and `emulator` start; none unless a test sets one.
    var localStandIn: LocalStandIn?

    init(configuration: StandInConfiguration = StandInConfiguration()) throws {
        standIn = try StandIn(configuration: configuration)
        standIn.start()
        directory = NSTemporaryDirectory() + "fbauth-inprocess-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    deinit {
        standIn.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs `fbauth ARGUMENTS`; the browser consents as `email`; `stdin` is what a pipe holds;
    /// the variables in `unset` are left out of the environment.
    func run(_ arguments: [String], email: String = "ada@example.com", stdin: String = "",
             unset: Set<String> = []) -> (status: Int32, stdout: String, stderr: String) {
        let console = RecordingConsole(stdin: stdin)
        let environment = environment(unset: unset)
        let tool = CommandLineTool(dependencies: Dependencies(
            transport: CurlTransport(), console: console, environment: environment, clock: clock,
            browser: InProcessBrowser(email: email), standIn: localStandIn))
        let status = tool.run(arguments)
        return (status, console.stdout, console.stderr)
    }

    /// What the live tool's `TokenShortcut` answers to a bare `fbauth token`: nil when it leaves
    /// the command to run in full.
    func shortcut(unset: Set<String> = [], setting: [String: String] = [:]) -> (status: Int32?, stdout: String, stderr: String) {
        let console = RecordingConsole()
        let environment = environment(unset: unset).merging(setting) { $1 }
        let status = TokenShortcut(environment: .table(environment), clock: clock, console: console).answer()
        return (status, console.stdout, console.stderr)
    }

    private func environment(unset: Set<String>) -> [String: String] {
        ["FIREBASE_API_KEY": "in-process-key", "FIREBASE_AUTH_EMULATOR_HOST": standIn.hostAndPort,
         "FBAUTH_CONFIG_DIR": directory, "HOME": directory].filter { !unset.contains($0.key) }
    }

    func signIn(_ provider: String = "yahoo.com", email: String = "ada@example.com") -> (status: Int32, stdout: String, stderr: String) {
        run(["signin", "--loopback", "--provider", provider, "--port", "0"], email: email)
    }

    func requests(to endpoint: String) -> Int { standIn.requests(to: endpoint).count }
}
