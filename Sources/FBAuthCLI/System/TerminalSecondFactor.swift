import FBAuth
import FBAuthSupport

/// Where a second factor's code comes from (`--mfa-code-file`, a terminal, stdin).
enum SecondFactorCodeSource: Equatable {
    /// `--mfa-code-file FILE`.
    case file(String)
    /// `--mfa-code-file -`, or stdin when it is not a terminal.
    case standardInput
    /// A prompt without echo, with another try after a wrong code.
    case terminal
}

/// `--mfa-factor` and `--mfa-code-file`, shared by the commands whose sign-in may need a
/// second factor.
struct SecondFactorOptions: Equatable {
    /// An enrollment id, a display name, or `totp`/`phone` when only one factor is of that kind.
    var factor: String?
    /// `--mfa-code-file`: nil to decide by the terminal.
    var codeFile: String?

    static let specs = [
        OptionSpec("mfa-factor", value: "ID|NAME", help: "Which second factor to use when the account has several: its enrollment id, its name, or totp or phone (`fbauth mfa list` shows them)."),
        OptionSpec("mfa-code-file", value: "FILE", help: "Read the second factor's code from FILE (- for stdin) instead of asking at the terminal."),
    ]

    init(factor: String? = nil, codeFile: String? = nil) {
        self.factor = factor
        self.codeFile = codeFile
    }

    init(_ arguments: ParsedArguments) throws(FBAuthError) {
        factor = try arguments.nonEmpty("mfa-factor")
        codeFile = try arguments.nonEmpty("mfa-code-file")
    }
}

/// Completes a sign-in that needs a second factor at the terminal, as the SDKs'
/// `PendingSecondFactor` does in an app: lists the enrolled factors on stderr, takes the only
/// one, the one `--mfa-factor` names, or asks which; reads the code without echo (three tries on
/// a terminal), or from `--mfa-code-file` or stdin for scripts (one try: a wrong code is exit 1).
/// The pending credential never leaves memory.
struct TerminalSecondFactor: MultiFactorPrompt {
    let console: Console
    let options: SecondFactorOptions
    /// Whether stdin was read to its end (a token from `-`): the code cannot come from it too.
    /// A password takes only the first line, and the code is the next.
    var stdinTaken = false

    static let attemptsOnATerminal = 3

    func answer(_ challenge: MultiFactorChallenge) throws(FBAuthError) -> MultiFactorAnswer {
        let factor = try choose(from: challenge.hints, action: challenge.action)
        let source = try codeSource()
        switch factor.factorID {
        case "totp":
            return try withAttempts(source, prompt: "Code from your authenticator app (\(Self.name(of: factor))): ") { (code: String) throws(FBAuthError) in
                try challenge.finish(with: TOTPFactorProofs.assertionForSignIn(withEnrollmentID: factor.uid, oneTimePassword: code))
            }
        default:
            // `printf 'pw\n' | fbauth signin …`: stdin gave the password and ended, so no code
            // can come from it; an SMS now would only cost quota.
            if source == .standardInput, console.inputHasEnded() {
                throw .usage("this account needs the code of an SMS, and stdin ended after the password: give the code on its next line, or with --mfa-code-file FILE (no SMS was sent)")
            }
            let verificationID = try challenge.sendSMS(to: factor)
            console.say("A code was sent by SMS to \(factor.phoneNumber ?? "the enrolled phone").")
            return try withAttempts(source, prompt: "Code from the SMS: ") { (code: String) throws(FBAuthError) in
                try challenge.finish(with: PhoneFactorProofs.assertion(for: factor, verificationID: verificationID, verificationCode: code))
            }
        }
    }

    // MARK: - Which factor

    func choose(from factors: [EnrolledSecondFactor], action: String) throws(FBAuthError) -> EnrolledSecondFactor {
        if let wanted = options.factor {
            let matches = Self.matches(wanted, in: factors)
            guard matches.count == 1 else {
                throw .usage("--mfa-factor '\(wanted)' names \(matches.isEmpty ? "none" : "several") of this account's second factors: \(Self.list(factors))")
            }
            return matches[0]
        }
        console.say("This account needs a second factor for the \(action):\n" + factors.enumerated().map { "  \($0.offset + 1). \(Self.describe($0.element))" }.joined(separator: "\n"))
        if factors.count == 1 { return factors[0] }
        guard console.isInputTerminal else {
            throw .usage("this account has several second factors: choose one with --mfa-factor ID|NAME (\(Self.list(factors)))")
        }
        for _ in 0..<Self.attemptsOnATerminal {
            console.writeError("Which one? [1-\(factors.count)] ")
            guard let answer = console.readLine()?.trimmed() else { break }
            if let number = Int(answer), factors.indices.contains(number - 1) { return factors[number - 1] }
            let matches = Self.matches(answer, in: factors)
            if matches.count == 1 { return matches[0] }
            console.say("Type a number from 1 to \(factors.count).")
        }
        throw .usage("no second factor chosen")
    }

    /// By enrollment id, by name (any case), or by kind when only one is of that kind.
    static func matches(_ wanted: String, in factors: [EnrolledSecondFactor]) -> [EnrolledSecondFactor] {
        let byId = factors.filter { $0.uid == wanted }
        if !byId.isEmpty { return byId }
        let byName = factors.filter { $0.displayName?.lowercased() == wanted.lowercased() }
        if !byName.isEmpty { return byName }
        return factors.filter { $0.factorID == wanted.lowercased() }
    }

    static func name(of factor: EnrolledSecondFactor) -> String {
        factor.displayName.map { "\"\(TerminalText.safe($0))\"" } ?? (factor.factorID == "totp" ? "TOTP" : "SMS")
    }

    static func describe(_ factor: EnrolledSecondFactor) -> String {
        let kind = factor.factorID == "totp" ? "authenticator app" : "SMS to \(factor.phoneNumber ?? "a phone")"
        return "\(kind)" + (factor.displayName.map { " \"\(TerminalText.safe($0))\"" } ?? "") + " (\(factor.factorID), id \(factor.uid))"
    }

    static func list(_ factors: [EnrolledSecondFactor]) -> String {
        factors.map { ($0.displayName.map { "\"\(TerminalText.safe($0))\" " } ?? "") + "\($0.factorID) \($0.uid)" }.joined(separator: ", ")
    }

    // MARK: - The code

    /// Where the code will come from, decided before anything is sent: an SMS is never asked
    /// for when no code can be read (it costs the project money and quota, and trips abuse
    /// limits), and stdin that a token already took gives none.
    func codeSource() throws(FBAuthError) -> SecondFactorCodeSource {
        let source: SecondFactorCodeSource
        switch options.codeFile {
        case "-"?: source = .standardInput
        case let path?: source = .file(path)
        case nil: source = console.isInputTerminal ? .terminal : .standardInput
        }
        if source == .standardInput, stdinTaken {
            throw .usage("this account needs a second factor, and stdin held the token: give the code with --mfa-code-file FILE (nothing was sent)")
        }
        return source
    }

    /// Reads a code and tries it; on a terminal a wrong code is said and asked again (three
    /// tries), elsewhere it ends the command.
    func withAttempts<T>(_ source: SecondFactorCodeSource, prompt: String,
                         _ attempt: (String) throws(FBAuthError) -> T) throws(FBAuthError) -> T {
        var remaining = source == .terminal ? Self.attemptsOnATerminal - 1 : 0
        while true {
            let code = try read(source, prompt: prompt)
            do throws(FBAuthError) {
                return try attempt(code)
            } catch where remaining > 0 && error.isWrongSecondFactorCode {
                console.say("That code is not right; try again (\(remaining) \(remaining == 1 ? "try" : "tries") left).")
                remaining -= 1
            }
        }
    }

    func read(_ source: SecondFactorCodeSource, prompt: String) throws(FBAuthError) -> String {
        let text: String?
        switch source {
        case .terminal:
            text = try console.readSecret(prompt: prompt)
        case .standardInput:
            text = console.readLine()
        case .file(let path):
            text = try SecretInput.text(from: path, option: "--mfa-code-file", console: console)
        }
        guard let code = text?.trimmed().replacing(" ", with: ""), !code.isEmpty else {
            throw .usage("no second-factor code was given" + (source == .terminal ? "" : " (--mfa-code-file FILE, or a line on stdin)"))
        }
        guard (6...8).contains(code.count), code.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw .usage("'\(TerminalText.safe(String(code.prefix(12))))' is not a second-factor code (6 to 8 digits)")
        }
        return code
    }
}
