#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthSupport

/// Reads secrets the user supplies: never from argv or the environment, where other
/// processes and shell history can see them.
enum SecretInput {
    /// A password from the terminal without echo, or the first line of stdin when stdin is not a
    /// terminal: the next line is left for a second factor's code (`printf 'pw\n123456\n' |`).
    static func password(for email: String, console: Console) throws(FBAuthError) -> String {
        if console.isInputTerminal {
            guard let line = try console.readSecret(prompt: "Password for \(email): "), !line.isEmpty else {
                throw .usage("no password entered")
            }
            return line
        }
        let line = console.readLine() ?? ""
        let password = line.hasSuffix("\r") ? String(line.dropLast()) : line
        guard !password.isEmpty else {
            throw .usage("no password on stdin: pipe it in (e.g. from a password manager) or run in a terminal to be prompted")
        }
        return password
    }

    /// A custom token from a file, or from stdin for `-`.
    static func customToken(from source: String, console: Console) throws(FBAuthError) -> String {
        try token(from: source, option: "--token-file", console: console)
    }

    /// A token from the file given to `option` (`-`: stdin), trimmed and not empty.
    static func token(from source: String, option: String, console: Console) throws(FBAuthError) -> String {
        let token = try text(from: source, option: option, console: console)
        guard !token.isEmpty else { throw .usage("\(option) '\(source)' holds no token") }
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
            // A token, secret or code in a file others can read is theirs too; a pipe is fine.
            if let mode = Platform.modeReadableByOthers(source) {
                console.say("fbauth: warning: \(option) \(source) can be read by other users (mode \(Platform.octal(mode))); keep secrets in a file only you can read (chmod 600 '\(source)'), or pipe them in with \(option) -.")
            }
        }
        return String(decoding: data, as: UTF8.self).trimmed()
    }
}

extension SecretInput {
    /// A new password: asked twice without echo on a terminal (the two must match), else one
    /// line of stdin — the next line when stdin gave something before (`afterOtherInput`),
    /// else all of it.
    static func newPassword(for email: String?, console: Console, afterOtherInput: Bool = false) throws(FBAuthError) -> String {
        let whose = email.map { " for \($0)" } ?? ""
        if console.isInputTerminal {
            // As passwd does: a mistyped repetition asks again, three times in all.
            for attempt in 1...3 {
                guard let first = try console.readSecret(prompt: "New password\(whose): "), !first.isEmpty else { throw .usage("no password entered") }
                let second = try console.readSecret(prompt: "Repeat it: ")
                if second == first { return first }
                if attempt < 3 { console.say("The two passwords do not match; type them again.") }
            }
            throw .usage("the two passwords did not match three times; nothing was changed")
        }
        guard afterOtherInput else { return try password(for: email ?? "", console: console) }
        guard let line = console.readLine(), !line.isEmpty else {
            throw .usage("no new password on stdin: give the link (or code) on the first line and the new password on the second")
        }
        return line
    }

    /// A mailed link from a file, or from stdin for `-` (asked for without echo on a terminal:
    /// it carries a one-time code). Never from the command line, where other users' `ps` can
    /// read it.
    static func emailLink(from source: String, option: String, console: Console) throws(FBAuthError) -> ActionLink {
        try refuseInline(source, option: option)
        let text: String
        if source == "-" {
            if console.isInputTerminal {
                text = try console.readSecret(prompt: "Paste the link from the email: ") ?? ""
            } else {
                text = console.readLine() ?? ""
            }
        } else {
            text = try SecretInput.text(from: source, option: option, console: console)
        }
        guard !text.trimmed().isEmpty else { throw .usage("no link was given (\(option) \(source))") }
        do throws(FBAuthError) {
            return try ActionLink.reading(text)
        } catch {
            throw error.naming(option)
        }
    }

    /// A mailed code (`oobCode`) from a file or stdin (`-`).
    static func actionCode(from source: String, option: String, console: Console) throws(FBAuthError) -> String {
        try refuseInline(source, option: option)
        let text = source == "-" && console.isInputTerminal
            ? try console.readSecret(prompt: "The code from the email (oobCode): ") ?? ""
            : source == "-" ? console.readLine() ?? "" : try SecretInput.text(from: source, option: option, console: console)
        let code = text.trimmed()
        guard !code.isEmpty else { throw .usage("no code was given (\(option) \(source))") }
        guard code.count <= 512, TextChecks.isVisibleASCII(code) else {
            throw .usage("\(option): the code must be visible ASCII without spaces (the oobCode parameter of the email's link)")
        }
        return code
    }

    /// A link or code typed on the command line is refused: other users can read arguments.
    private static func refuseInline(_ source: String, option: String) throws(FBAuthError) {
        if source.contains("://") || source.contains("oobCode=") {
            throw .usage("\(option) takes a FILE or - (stdin), not the link itself: it carries a one-time code that other users of this machine could read from the process list; run with \(option) - and paste it")
        }
    }
}
