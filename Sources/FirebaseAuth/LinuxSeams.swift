import FBAuth
import FirebaseCore
import Foundation

/// What a program on Linux may set that the SDK has no need of, set before the first
/// `Auth.auth()`. Everything else is the SDK's API.
///
/// - `signInProgress`: told, one line at a time, how a browser sign-in goes (the address to
///   open when no browser can be started, what happened). Default: stderr.
/// - `openBrowser`: opens the sign-in page; returns false when it could not, and the address is
///   then shown through `signInProgress`. Default: the system's browser (`$BROWSER`,
///   `xdg-open`, WSL's and macOS's own).
/// - `log`: where log lines go (`FirebaseConfiguration.shared.setLoggerLevel`). Default: stderr.
/// - `sessionsDirectory`: where the signed-in users are kept. Default: where the `fbauth`
///   command keeps them (`$FBAUTH_CONFIG_DIR`, else `$XDG_CONFIG_HOME/fbauth`, else
///   `~/.config/fbauth`), refresh tokens in the OS keyring where there is one.
///
/// HTTP goes through the system's libcurl (URLSession on macOS): proxies and CA certificates
/// are the system's.
public enum LinuxSeams {
    /// Told how a browser sign-in goes, one line at a time. Default: stderr.
    nonisolated(unsafe) public static var signInProgress: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
    /// Opens the sign-in page; false when it could not. Default (nil): the system's browser.
    nonisolated(unsafe) public static var openBrowser: (@Sendable (URL) -> Bool)?
    /// Where the signed-in users are kept. Default (nil): where the `fbauth` command keeps them.
    nonisolated(unsafe) public static var sessionsDirectory: String?
    /// Where FirebaseAuth's log lines go, as many as `FirebaseConfiguration.shared`'s level lets
    /// through (at `.debug`, each exchange with Firebase, every secret redacted). Default: stderr.
    nonisolated(unsafe) public static var log: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// `LinuxSeams.signInProgress` as fbauth's observer.
struct ProgressObserver: SignInObserver {
    func signIn(_ event: SignInEvent) {
        guard case .notice(let text) = event else { return }
        LinuxSeams.signInProgress(text)
    }

    var pasteInput: PasteInput? { nil }
}

/// `LinuxSeams.openBrowser` as fbauth's browser launcher.
struct ClosureBrowser: BrowserLauncher {
    let open: @Sendable (URL) -> Bool

    func open(_ url: String) throws(BrowserLaunchError) -> LaunchedBrowser? {
        guard let address = URL(string: url), open(address) else { throw BrowserLaunchError("the program's browser could not open the page") }
        return nil
    }
}

/// Each exchange with Firebase, at the `.debug` level, as one line: what the engine's logger is
/// handed has every secret redacted already.
struct LevelledExchangeLogger: HTTPExchangeLogger {
    func log(_ exchange: LoggedExchange) {
        guard FirebaseConfiguration.shared.loggerLevel() >= .debug else { return }
        let outcome = exchange.status.map { "HTTP \($0)" } ?? exchange.failure ?? "no answer"
        LinuxSeams.log("[FirebaseAuth] \(exchange.method) \(exchange.url) → \(outcome) (\(Int(exchange.duration * 1000)) ms)")
    }
}
