#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth

/// `fbauth token` with nothing after it (what `$(fbauth token)` runs), answered from the saved
/// session before the command-line machinery starts: it reads only the environment variables
/// the answer depends on, with `getenv`, and the file with `FreshIDTokenReader`. The first
/// Dictionary, the command table and Codable each cost the Swift runtime one-time work that
/// would otherwise be most of the command's time (README, "Speed").
///
/// When it cannot answer — other arguments, a token to refresh, no session, anything unusual
/// in the settings or the file — it returns nil and `CommandLineTool` runs the command in full,
/// which answers the same way or explains.
package struct TokenShortcut {
    /// One environment variable (`getenv` in the live tool).
    var variable: (String) -> String?
    var clock: WallClock
    var console: Console

    package init(variable: @escaping (String) -> String?, clock: WallClock, console: Console) {
        self.variable = variable
        self.clock = clock
        self.console = console
    }

    /// The whole command line it answers, after the program name.
    package static var command: String { "token" }

    /// The exit code once it has answered `fbauth token`; nil when the full command must run.
    package func answer() -> Int32? {
        guard let project = try? ProjectChoice.from(apiKey: nil, variable: variable) else { return nil }
        let store = FileSessionStore(directory: FileSessionStore.directory(option: nil, variable: variable))
        guard let fresh = store.freshIDToken(project: project, minValid: TimeInterval(TokenCommand.defaultMinValid), now: clock.now()) else {
            return nil
        }
        TokenCommand.printToken(fresh, json: false, console)
        return CommandLineTool.exitCode(afterOutputTo: console, variable: variable)
    }
}
