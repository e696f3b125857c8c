#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthSupport
import LoopbackHTTP

/// The terminal: stdout carries data only (one JSON document or one bare token); everything
/// for humans goes to stderr.
package protocol Console: Sendable {
    func writeOutput(_ text: String)
    /// `bytes` and a newline on stdout, as one write (`fbauth token`'s quick path, which makes
    /// no Strings).
    func writeOutputLine(_ bytes: UnsafeRawBufferPointer)
    func writeError(_ text: String)
    var isInputTerminal: Bool { get }
    /// The descriptor `readLine` reads from, for waiting on it with other input.
    var inputDescriptor: Int32 { get }
    var isErrorTerminal: Bool { get }
    /// Whether stdout is a terminal: results are then summed up for people, and their JSON
    /// (tokens included, which would stay in the scrollback) printed only when asked.
    var isOutputTerminal: Bool { get }
    /// All of stdin (for `-` arguments and piped secrets).
    func readAllInput() -> Data
    /// One line of stdin without the newline; nil at end of input.
    func readLine() -> String?
    /// Whether stdin is known to have ended already (nothing more can be read), without
    /// waiting for it.
    func inputHasEnded() -> Bool
    /// Reads a line from the terminal without echoing it; nil when there is no terminal (or
    /// the input ended). Ctrl-C at the prompt is `.flowIncomplete` (exit 4), the terminal
    /// restored.
    func readSecret(prompt: String) throws(FBAuthError) -> String?
    /// Why writing to stdout failed (a full disk, a closed pipe), once it has; the command then
    /// fails, whatever it did.
    var outputFailure: String? { get }
}

extension Console {
    /// A line for humans on stderr. Whatever it quotes from a server, a file or the store, no
    /// escape sequence reaches the terminal.
    package func say(_ line: String) { writeError(TerminalText.safeLines(line) + "\n") }

    /// Text for humans on stdout (`status`, `accounts`), cleaned as `say` cleans it.
    package func writeText(_ text: String) { writeOutput(TerminalText.safeLines(text)) }

    package func writeOutputLine(_ bytes: UnsafeRawBufferPointer) { writeOutput(String(decoding: bytes, as: UTF8.self) + "\n") }

    /// Consoles that are not a process's standard streams write to no terminal.
    package var isOutputTerminal: Bool { false }

    /// Unknown, so not ended: input may still come.
    package func inputHasEnded() -> Bool { false }
}

/// The process's real standard streams.
package struct StandardConsole: Console {
    private let failure = OutputFailure()

    package init() {}

    package func writeOutput(_ text: String) {
        if let code = Platform.write(text, to: 1) { failure.record(code) }
    }

    package func writeOutputLine(_ bytes: UnsafeRawBufferPointer) {
        let code = withUnsafeTemporaryAllocation(byteCount: bytes.count + 1, alignment: 1) { line in
            line.copyMemory(from: bytes)
            line[bytes.count] = UInt8(ascii: "\n")
            return Platform.write(UnsafeRawBufferPointer(line), to: 1)
        }
        if let code { failure.record(code) }
    }
    package func writeError(_ text: String) { Platform.write(text, to: 2) }
    package var outputFailure: String? { failure.first.map { Platform.describe(errno: $0) } }
    package var isInputTerminal: Bool { Platform.isTerminal(0) }
    package var inputDescriptor: Int32 { 0 }
    package var isErrorTerminal: Bool { Platform.isTerminal(2) }
    package var isOutputTerminal: Bool { Platform.isTerminal(1) }
    package func readAllInput() -> Data { StandardInput.shared.readAll() }
    package func readLine() -> String? { StandardInput.shared.readLine() }
    package func inputHasEnded() -> Bool { StandardInput.shared.hasEnded() }

    package func readSecret(prompt: String) throws(FBAuthError) -> String? {
        guard isInputTerminal else { return nil }
        let answer = Platform.readLineWithoutEcho { writeError(prompt) }
        writeError("\n")
        switch answer {
        case .line(let line): return line.hasSuffix("\r") ? String(line.dropLast()) : line
        case .endOfInput: return nil
        case .interrupted: throw .flowIncomplete("cancelled; nothing was changed")
        }
    }
}

/// The first failure to write stdout (its errno), shared by copies of the console. A number
/// rather than its message: freeing a String field when the console goes would cost `fbauth
/// token` the runtime's one-time type lookup (docs/speed.md).
private final class OutputFailure: @unchecked Sendable {
    private let lock = Lock()
    private var code: Int32?

    func record(_ code: Int32) { lock.withLock { if self.code == nil { self.code = code } } }
    var first: Int32? {
        var first: Int32?
        lock.withLock { first = code }  // returning Void: an Int32? through the generic lock would need its metadata made
        return first
    }
}
