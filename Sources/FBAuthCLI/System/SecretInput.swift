#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import LoopbackHTTP

/// Reads secrets the user supplies: never from argv or the environment, where other
/// processes and shell history can see them.
enum SecretInput {
    /// A password from the terminal without echo, or from stdin when stdin is not a terminal.
    static func password(for email: String, console: Console) throws(FBAuthError) -> String {
        if console.isInputTerminal {
            guard let line = console.readSecret(prompt: "Password for \(email): "), !line.isEmpty else {
                throw .usage("no password entered")
            }
            return line
        }
        let text = String(decoding: console.readAllInput(), as: UTF8.self)
        let password = text.hasSuffix("\r\n") ? String(text.dropLast()) : text.hasSuffix("\n") ? String(text.dropLast()) : text
        guard !password.isEmpty else {
            throw .usage("no password on stdin: pipe it in (e.g. from a password manager) or run in a terminal to be prompted")
        }
        return password
    }

    /// A custom token from a file, or from stdin for `-`.
    static func customToken(from source: String, console: Console) throws(FBAuthError) -> String {
        let token = try text(from: source, option: "--token-file", console: console)
        guard !token.isEmpty else { throw .usage("--token-file '\(source)' holds no token") }
        return token
    }

    /// The text of a file given to `option` (`-`: all of stdin), trimmed.
    static func text(from source: String, option: String, console: Console) throws(FBAuthError) -> String {
        let data: Data
        if source == "-" {
            data = console.readAllInput()
        } else {
            do throws(Platform.FileProblem) {
                data = try Platform.readInput(source)
            } catch {
                throw .usage("cannot read \(option): \(error.description)")
            }
        }
        return String(decoding: data, as: UTF8.self).trimmed()
    }
}
