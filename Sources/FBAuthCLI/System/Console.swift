#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import LoopbackHTTP

/// The terminal: stdout carries data only (one JSON document or one bare token); everything
/// for humans goes to stderr.
package protocol Console: Sendable {
    func writeOutput(_ text: String)
    func writeError(_ text: String)
    var isInputTerminal: Bool { get }
    /// The descriptor `readLine` reads from, for waiting on it with other input.
    var inputDescriptor: Int32 { get }
    var isErrorTerminal: Bool { get }
    /// All of stdin (for `-` arguments and piped secrets).
    func readAllInput() -> Data
    /// One line of stdin without the newline; nil at end of input.
    func readLine() -> String?
    /// Reads a line from the terminal without echoing it; nil when there is no terminal.
    func readSecret(prompt: String) -> String?
    /// Why writing to stdout failed (a full disk, a closed pipe), once it has; the command then
    /// fails, whatever it did.
    var outputFailure: String? { get }
}

extension Console {
    /// A line for humans on stderr.
    package func say(_ line: String) { writeError(line + "\n") }
}

/// The process's real standard streams.
package struct StandardConsole: Console {
    private let failure = OutputFailure()

    package init() {}

    package func writeOutput(_ text: String) {
        if let code = Platform.write(text, to: 1) { failure.record(Platform.describe(errno: code)) }
    }
    package func writeError(_ text: String) { Platform.write(text, to: 2) }
    package var outputFailure: String? { failure.first }
    package var isInputTerminal: Bool { Platform.isTerminal(0) }
    package var inputDescriptor: Int32 { 0 }
    package var isErrorTerminal: Bool { Platform.isTerminal(2) }
    package func readAllInput() -> Data { (try? Platform.readAll(0)) ?? Data() }
    package func readLine() -> String? { Swift.readLine(strippingNewline: true) }

    package func readSecret(prompt: String) -> String? {
        guard isInputTerminal else { return nil }
        writeError(prompt)
        let line = Platform.withTerminalEchoDisabled { Swift.readLine(strippingNewline: true) }
        writeError("\n")
        return line
    }
}

/// The first failure to write stdout, shared by copies of the console.
private final class OutputFailure: @unchecked Sendable {
    private let lock = Lock()
    private var value: String?

    func record(_ reason: String) { lock.withLock { if value == nil { value = reason } } }
    var first: String? { lock.withLock { value } }
}
