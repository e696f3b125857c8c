import FBAuth
/// Colour and in-place status lines, only for a person at a terminal: never when stderr is
/// not a terminal, when `NO_COLOR` is set (https://no-color.org), or when `TERM=dumb`.
package struct TerminalStyle: Sendable {
    package let isRich: Bool

    package init(console: Console, environment: [String: String]) {
        self.init(console: console, variable: { environment[$0] })
    }

    package init(console: Console, variable: (String) -> String?) {
        isRich = console.isErrorTerminal && (variable("NO_COLOR") ?? "").isEmpty && variable("TERM") != "dumb"
    }

    /// The prefix of error lines.
    package var errorPrefix: String { isRich ? "\u{1B}[1;31mfbauth:\u{1B}[0m" : "fbauth:" }

    /// Returns to the start of the line and clears it, for a status line that updates in place.
    package static let clearLine = "\r\u{1B}[2K"
}
