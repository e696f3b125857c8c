#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthSupport

/// `fbauth mfa list|enroll totp|enroll phone|unenroll`: the current user's second factors, as the
/// SDKs' `multiFactor(user)` manages them.
enum MfaCommand: RunnableCommand {
    static let spec = CommandSpec(
        name: "mfa",
        summary: "List, enrol and remove the current user's second factors (multi-factor authentication).",
        usage: ["list [--json]", "enroll totp [--name N] [--qr colour|plain|invert | --no-qr]", "enroll phone --phone +15555550100 [--name N]", "unenroll ID|NAME"],
        options: [
            OptionSpec("json", help: "With list: print a JSON array for scripts."),
            OptionSpec("name", value: "NAME", help: "With enroll: a name for the factor, shown when signing in (e.g. \"work phone\")."),
            OptionSpec("phone", value: "NUMBER", help: "With enroll phone: the number in E.164 form, e.g. +15555550100."),
            OptionSpec("no-qr", help: "With enroll totp: print the otpauth:// URI only, without drawing its QR code."),
            OptionSpec("qr", value: "STYLE", suggestions: ["colour", "plain", "invert"],
                       help: "With enroll totp: how to draw the QR code. colour (the default on a terminal with colours): black on white whatever the theme; plain: light blocks on the dark background; invert: dark blocks, for a light background."),
            OptionSpec("no-browser", help: "With enroll phone: show the reCAPTCHA page's address instead of opening a browser."),
            SecondFactorOptions.specs[1],
        ],
        positionals: [
            PositionalSpec("ACTION", suggestions: ["list", "enroll", "unenroll"], help: "list, enroll or unenroll."),
            PositionalSpec("WHAT", optional: true, suggestions: ["totp", "phone"], after: "enroll",
                           help: "With enroll: totp or phone. With unenroll: the factor's enrollment id or name."),
        ],
        details: """
            list shows the second factors from the server (and saves them with the session). \
            enroll totp prints an otpauth:// URI on stdout and draws it as a QR code on stderr: \
            scan it with an authenticator app (or type its secret), then give the code the app \
            shows. enroll phone runs a reCAPTCHA step in the browser (where the project uses \
            reCAPTCHA), then asks for the code sent by SMS. unenroll removes a factor. Each saves \
            the tokens the server answers with.

            Enrolment needs a verified email and a recent sign-in (`fbauth reauth`), and \
            multi-factor authentication enabled for the project (Identity Platform). The code is \
            read without echo on a terminal, else from --mfa-code-file or a line of stdin.

            Examples:
              fbauth mfa enroll totp --name "phone app"
              fbauth mfa list --json | jq -r '.[].uid'
              fbauth mfa unenroll "phone app"
            """)

    enum Action: Equatable {
        case list(json: Bool)
        /// `qr`: how to draw the code; nil: not at all (`--no-qr`), or as the terminal allows.
        case enrollTOTP(name: String?, drawQR: Bool, qr: QRCode.Drawing? = nil)
        case enrollPhone(number: String, name: String?, openBrowser: Bool)
        case unenroll(String)
    }

    struct Options: Equatable {
        var action: Action
        var codeFile: String?
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        let what = arguments.positionals.count > 1 ? arguments.positionals[1] : nil
        let name = try arguments.nonEmpty("name").map { (name: String) throws(FBAuthError) -> String in
            guard name.count <= 64, !name.unicodeScalars.contains(where: { TextChecks.isControl($0) || TextChecks.isBidiControl($0) }) else {
                throw .usage("--name must be at most 64 characters without control or bidirectional formatting characters")
            }
            return name
        }
        let action: Action
        switch arguments.positionals.first {
        case "list":
            try only(arguments, ["json"], for: "mfa list", what: what)
            action = .list(json: arguments.flag("json"))
        case "enroll" where what == "totp":
            try only(arguments, ["name", "no-qr", "qr", "mfa-code-file"], for: "mfa enroll totp", what: nil)
            let drawing: QRCode.Drawing?
            switch arguments.value("qr") {
            case nil: drawing = nil
            case "colour", "color": drawing = .colours
            case "plain": drawing = .lightOnDark
            case "invert": drawing = .darkOnLight
            case let other?: throw .usage("--qr '\(TerminalText.safe(String(other.prefix(20))))' is not colour, plain or invert")
            }
            if drawing != nil, arguments.flag("no-qr") { throw .usage("--qr and --no-qr: give one") }
            action = .enrollTOTP(name: name, drawQR: !arguments.flag("no-qr"), qr: drawing)
        case "enroll" where what == "phone":
            try only(arguments, ["name", "phone", "no-browser", "mfa-code-file"], for: "mfa enroll phone", what: nil)
            let number = try arguments.required("phone", hint: "NUMBER (E.164, e.g. +15555550100)").replacing(" ", with: "")
            guard number.hasPrefix("+"), (8...15).contains(number.count - 1), number.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw .usage("--phone '\(TerminalText.safe(number))' is not a phone number in E.164 form (+ and 8 to 15 digits, e.g. +15555550100)")
            }
            action = .enrollPhone(number: number, name: name, openBrowser: !arguments.flag("no-browser"))
        case "enroll":
            throw .usage("enroll what? totp (an authenticator app) or phone (SMS): fbauth mfa enroll totp")
        case "unenroll":
            try only(arguments, [], for: "mfa unenroll", what: nil)
            guard let what, !what.trimmed().isEmpty else { throw .usage("unenroll which factor? its enrollment id or name (see `fbauth mfa list`)") }
            action = .unenroll(what)
        case let other:
            let suggestion = other.flatMap { Suggestions.closest(to: $0, among: ["list", "enroll", "unenroll"]) }
            throw .usage("'\(other ?? "")' is not an mfa action; choose list, enroll or unenroll" + (suggestion.map { " (did you mean '\($0)'?)" } ?? ""))
        }
        return Options(action: action, codeFile: try arguments.nonEmpty("mfa-code-file"))
    }

    /// Refuses options of other actions, which would be silently ignored.
    private static func only(_ arguments: ParsedArguments, _ allowed: Set<String>, for action: String, what: String?) throws(FBAuthError) {
        let own = ["json", "name", "phone", "no-qr", "no-browser", "mfa-code-file"]
        if let stray = own.first(where: { !allowed.contains($0) && (arguments.values[$0] != nil || arguments.flags.contains($0)) }) {
            throw .usage("--\(stray) does not apply to \(action)")
        }
        if let what { throw .usage("unexpected argument '\(what)' for \(action)") }
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        var openBrowser = true
        if case .enrollPhone(_, _, let opens) = options.action { openBrowser = opens }
        let project = try context.project()
        let auth = try context.auth(for: project, opensBrowser: openBrowser)
        let saved = try auth.savedUser(context.globals.user)
        let codes = TerminalSecondFactor(console: context.console, options: SecondFactorOptions(codeFile: options.codeFile))
        do throws(FBAuthError) {
            switch options.action {
            case .list(let json):
                let user = try Waiting.result { saved.reload(completion: $0) }
                list(user.multiFactor.enrolledFactors, of: user, json: json, context: context)
            case .enrollTOTP(let name, let drawQR, let style):
                let secret = try Waiting.result { saved.multiFactor.generateTOTPSecret(completion: $0) }
                let issuer = auth.projectID ?? "Firebase"
                let uri = secret.generateQRCodeURL(withAccountName: saved.email ?? saved.uid, issuer: issuer)
                context.console.writeOutput(uri + "\n")
                if drawQR, let qr = QRCode(Array(uri.utf8)) {
                    // Colours set by escape codes decode on any theme; where none may be used
                    // (not a terminal, NO_COLOR), light blocks on the usual dark background.
                    let rich = TerminalStyle(console: context.console, environment: context.environment).isRich
                    context.console.writeError(qr.halfBlocks(style ?? (rich ? .colours : .lightOnDark)))
                }
                context.console.say("Scan the code (or the otpauth:// URI above) with your authenticator app, or type its secret \(Self.grouped(secret.sharedSecretKey)); then give the \(secret.codeLength)-digit code it shows.")
                let renewed = try codes.withAttempts(try codes.codeSource(), prompt: "Code from the app: ") { (code: String) throws(FBAuthError) in
                    try Waiting.result { saved.multiFactor.enroll(secret, oneTimePassword: code, displayName: name, completion: $0) }
                }
                context.console.say("Enrolled the authenticator app\(name.map { " \"\($0)\"" } ?? "") for \(renewed.displayLabel); sign-ins now ask for its code.")
            case .enrollPhone(let number, let name, _):
                let source = try codes.codeSource()  // before the SMS is sent
                let verificationID = try Waiting.result { saved.multiFactor.sendEnrollmentSMS(to: number, completion: $0) }
                context.console.say("A code was sent by SMS to \(number).")
                let renewed = try codes.withAttempts(source, prompt: "Code from the SMS: ") { (code: String) throws(FBAuthError) in
                    try Waiting.result { saved.multiFactor.enroll(phoneVerificationID: verificationID, verificationCode: code, displayName: name, completion: $0) }
                }
                context.console.say("Enrolled \(number)\(name.map { " (\"\($0)\")" } ?? "") for \(renewed.displayLabel); sign-ins now ask for a code sent to it.")
            case .unenroll(let wanted):
                let user = try Waiting.result { saved.reload(completion: $0) }
                let factors = user.multiFactor.enrolledFactors
                let matches = TerminalSecondFactor.matches(wanted, in: factors)
                guard matches.count == 1 else {
                    throw FBAuthError.usage("'\(TerminalText.safe(wanted))' names \(matches.isEmpty ? "none" : "several") of the second factors of \(user.displayLabel)"
                        + (factors.isEmpty ? " (it has none)" : ": \(TerminalSecondFactor.list(factors))"))
                }
                let renewed = try Waiting.result { user.multiFactor.unenroll(withFactorUID: matches[0].uid, completion: $0) }
                context.console.say("Removed \(TerminalSecondFactor.describe(matches[0])) from \(renewed.displayLabel).")
            }
        } catch {
            throw error.explainingSecondFactors(of: saved)
        }
    }

    static func list(_ factors: [EnrolledSecondFactor], of user: SignedInUser, json: Bool, context: CommandContext) {
        if json {
            context.console.writeOutput(JSONOutput.render(factors.map(EnrolledFactorJSON.init)))
            return
        }
        guard !factors.isEmpty else {
            context.console.say("\(user.displayLabel) has no second factors; add one with `fbauth mfa enroll totp` (an authenticator app) or `fbauth mfa enroll phone --phone NUMBER`.")
            return
        }
        let rows = factors.map { factor in
            [factor.factorID, factor.displayName ?? "-", factor.phoneNumber ?? "", factor.enrollmentDate.map(Timestamp.string) ?? "-", factor.uid]
                .map(TerminalText.safe)
        }
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        context.console.writeText("Second factors of \(user.displayLabel):\n" + rows.map { row in
            "  " + row.enumerated().map { index, cell in index < 4 ? cell + String(repeating: " ", count: widths[index] - cell.count) : "id \(cell)" }
                .joined(separator: "  ")
        }.joined(separator: "\n") + "\n")
    }
}

extension FBAuthError {
    /// Server refusals of an enrolment, with what the user can do.
    func explainingSecondFactors(of session: SignedInUser) -> FBAuthError {
        guard case .server(let error, _) = self, let code = error.code else { return self }
        switch code {
        case "UNVERIFIED_EMAIL":
            return .failed(.serverRefused, "\(session.displayLabel) has not verified its email, which second factors need: open the link in Firebase's verification email, then try again [UNVERIFIED_EMAIL]")
        case "CREDENTIAL_TOO_OLD_LOGIN_AGAIN":
            return .failed(.requiresRecentLogin, "changing second factors needs a recent sign-in: run `\(session.reauthCommand)`, then try again [CREDENTIAL_TOO_OLD_LOGIN_AGAIN]")
        case "OPERATION_NOT_ALLOWED":
            return .failed(.operationNotAllowed, "multi-factor authentication (or this kind of second factor) is not enabled for this project: Firebase console → Authentication → Sign-in method → Multi-factor authentication (needs Identity Platform) [OPERATION_NOT_ALLOWED]" + (error.detail.map { " (\($0))" } ?? ""))
        default:
            return self
        }
    }
}

extension MfaCommand {
    /// A secret to type, in groups of four (`JBSW Y3DP EHPK 3PXP`), as authenticator apps show
    /// them; they ignore the spaces.
    static func grouped(_ secret: String) -> String {
        stride(from: 0, to: secret.count, by: 4).map { start in
            String(secret.dropFirst(start).prefix(4))
        }.joined(separator: " ")
    }
}
