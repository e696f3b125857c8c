import FBAuth
import LoopbackHTTP
/// Colour and in-place status lines, only for a person at a terminal: never when stderr is
/// not a terminal, when `NO_COLOR` is set (https://no-color.org), or when `TERM=dumb`.
public struct TerminalStyle: Sendable {
    public let isRich: Bool

    public init(console: Console, environment: [String: String]) {
        isRich = console.isErrorTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// The prefix of error lines.
    public var errorPrefix: String { isRich ? "\u{1B}[1;31mfbauth:\u{1B}[0m" : "fbauth:" }

    /// Returns to the start of the line and clears it, for a status line that updates in place.
    public static let clearLine = "\r\u{1B}[2K"
}
