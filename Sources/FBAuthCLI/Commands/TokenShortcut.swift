#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthSupport

/// `fbauth token` with nothing after it (what `$(fbauth token)` runs), answered from the saved
/// session before the command-line machinery starts, by `QuickTokenRead`: in bytes from the
/// environment to stdout. The command table, the first Dictionary, Codable, even the first long
/// String freed, each cost the Swift runtime one-time work that would otherwise be most of the
/// command's time (docs/speed.md).
///
/// When it cannot answer — other arguments, a token to refresh, no session, anything unusual
/// in the settings or the file — it returns nil and `CommandLineTool` runs the command in full,
/// which answers the same way or explains.
package struct TokenShortcut {
    var environment: RawEnvironment
    var clock: WallClock
    var console: Console

    package init(environment: RawEnvironment, clock: WallClock, console: Console) {
        self.environment = environment
        self.clock = clock
        self.console = console
    }

    /// The whole command line it answers, after the program name (computed: a stored global
    /// would be initialized lazily, one more step at start-up).
    package static var command: StaticString { "token" }

    /// Whether `arguments` (C's argv: the program, then its arguments) are the program and
    /// `command` alone.
    package static func handles(_ arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, count: Int32) -> Bool {
        guard count == 2, let argument = arguments[1] else { return false }
        let length = command.utf8CodeUnitCount
        // Byte by byte, NUL included, stopping at the first difference: never past the
        // argument's own NUL.
        return UnsafeRawBufferPointer(start: argument, count: length + 1)
            .elementsEqual(UnsafeRawBufferPointer(start: command.utf8Start, count: length + 1))
    }

    /// The exit code once it has answered `fbauth token`; nil when the full command must run.
    package func answer() -> Int32? {
        var code: Int32 = 0
        let answered = QuickTokenRead.answer(environment: environment, minValid: TimeInterval(TokenCommand.defaultMinValid), now: clock.now()) { token in
            console.writeOutputLine(token.idToken)
            code = CommandLineTool.exitCode(afterOutputTo: console, variable: environment.string)
        }
        return answered ? code : nil
    }
}
