#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport

/// Why no browser could be opened.
package struct BrowserLaunchError: Error, Sendable, Equatable {
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
}

/// Opens a URL for the user to visit.
package protocol BrowserLauncher: Sendable {
    /// Starts the browser (or the program that hands the URL to one). The returned process,
    /// when there is one, is watched: a launcher that fails makes fbauth fall back to showing
    /// the URL and waiting.
    func open(_ url: String) throws(BrowserLaunchError) -> LaunchedBrowser?

    /// What to tell the user instead of "sign in in your browser", for a browser that is not
    /// the user's (the demo's built-in one); nil for a real browser.
    var announcement: String? { get }
}

extension BrowserLauncher {
    package var announcement: String? { nil }
}

/// A launched browser program.
package protocol LaunchedBrowser: Sendable {
    /// A description of the failure once the program has ended unsuccessfully; nil while it
    /// runs or after it succeeded.
    func failure() -> String?

    /// Whether its failure ends the wait (a browser fbauth drives itself: nobody else will come);
    /// otherwise the user is shown the address and the wait goes on.
    var failureEndsTheWait: Bool { get }
}

extension LaunchedBrowser {
    package var failureEndsTheWait: Bool { false }
}

/// How this machine opens a URL (pure: decided from the environment and which programs exist).
internal enum BrowserCommand: Equatable, Sendable {
    /// The program's arguments for the URL.
    case program([String])
    /// Nothing can open a browser here, and why.
    case unavailable(String)

    /// `$BROWSER` (one program, the URL its single argument); under WSL `wslview`, else
    /// `powershell.exe Start-Process`; on Linux `xdg-open` when there is a display; on macOS `open`.
    internal static func resolve(for url: String, environment: [String: String], isMacOS: Bool,
                               isWSL: Bool, hasExecutable: (String) -> Bool) -> BrowserCommand {
        if let browser = environment["BROWSER"], !browser.isEmpty { return .program([browser, url]) }
        if isMacOS { return .program(["open", url]) }
        if isWSL {
            // The Windows browser reaches this distribution's files at \\wsl.localhost\DISTRO\….
            let target = windowsPath(ofFileURL: url, distribution: environment["WSL_DISTRO_NAME"]) ?? url
            if hasExecutable("wslview") { return .program(["wslview", target]) }
            if hasExecutable("powershell.exe") {
                // A single-quoted PowerShell string is literal; quotes inside are doubled.
                let literal = "'" + target.replacing("'", with: "''") + "'"
                return .program(["powershell.exe", "-NoProfile", "-NonInteractive", "-Command", "Start-Process -FilePath \(literal)"])
            }
        }
        let hasDisplay = [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains { !($0 ?? "").isEmpty }
        guard hasDisplay else {
            return .unavailable(isWSL
                ? "neither wslview nor powershell.exe was found, and there is no display"
                : "no display (DISPLAY and WAYLAND_DISPLAY are unset) and BROWSER is not set")
        }
        guard hasExecutable("xdg-open") else { return .unavailable("xdg-open is not installed and BROWSER is not set") }
        return .program(["xdg-open", url])
    }

    /// `file:///home/u/x.html` as Windows names it under WSL: `\\wsl.localhost\DISTRO\home\u\x.html`;
    /// nil for other URLs, or when the distribution's name is unknown.
    static func windowsPath(ofFileURL url: String, distribution: String?) -> String? {
        guard url.hasPrefix("file://"), let distribution, !distribution.isEmpty,
            let path = URLComponents(string: url)?.path, path.hasPrefix("/")
        else { return nil }
        return "\\\\wsl.localhost\\" + distribution + path.replacing("/", with: "\\")
    }

    /// Windows Subsystem for Linux sets these for every process.
    internal static func isWSL(environment: [String: String], fileExists: (String) -> Bool) -> Bool {
        !(environment["WSL_DISTRO_NAME"] ?? "").isEmpty || !(environment["WSL_INTEROP"] ?? "").isEmpty
            || fileExists("/proc/sys/fs/binfmt_misc/WSLInterop")
    }
}

/// Opens URLs with the program `BrowserCommand` picks, executed directly — never through a
/// shell, so nothing in the URL is interpreted. Its output goes to stderr.
package struct SystemBrowserLauncher: BrowserLauncher {
    let environment: [String: String]
    /// Variables the browser does not inherit, besides the API key; worked out only when a
    /// browser is launched, so that commands without one (`fbauth token`) do not pay for it.
    let withholding: @Sendable () -> Set<String>

    /// `withholding`: the program's own settings; the API key is always withheld.
    package init(environment: [String: String], withholding: @escaping @Sendable () -> Set<String> = { [] }) {
        self.environment = environment
        self.withholding = withholding
    }

    package func open(_ url: String) throws(BrowserLaunchError) -> LaunchedBrowser? {
        switch command(for: url) {
        case .unavailable(let reason):
            throw BrowserLaunchError(reason)
        case .program(let arguments):
            switch Platform.spawn(arguments, environment: Self.browserEnvironment(environment, withholding: withholding().union(["FIREBASE_API_KEY"]))) {
            case .success(let pid):
                return SpawnedBrowser(pid: pid, name: arguments[0])
            case .failure(let problem):
                throw BrowserLaunchError(problem.description)
            }
        }
    }

    func command(for url: String) -> BrowserCommand {
        let path = environment["PATH"]
        #if os(macOS)
        let isMacOS = true
        #else
        let isMacOS = false
        #endif
        return BrowserCommand.resolve(
            for: url, environment: environment, isMacOS: isMacOS,
            isWSL: BrowserCommand.isWSL(environment: environment, fileExists: Platform.fileExists),
            hasExecutable: { Platform.findExecutable($0, path: path) != nil })
    }

    /// The environment a browser starts with: the program's own settings and the API key are
    /// its business, not the browser's (nor of whatever the browser runs).
    static func browserEnvironment(_ environment: [String: String], withholding withheld: Set<String>) -> [String: String] {
        environment.filter { !withheld.contains($0.key) }
    }

    /// Why no browser can be launched here, or nil when one can.
    package static func unavailability(environment: [String: String]) -> String? {
        if case .unavailable(let reason) = SystemBrowserLauncher(environment: environment).command(for: "") { return reason }
        return nil
    }
}

/// A browser program started by fbauth.
struct SpawnedBrowser: LaunchedBrowser {
    let pid: Int32
    let name: String

    func failure() -> String? {
        guard let status = Platform.exitStatusIfEnded(pid), status != 0 else { return nil }
        return "\(name) exited with status \(status)"
    }
}
