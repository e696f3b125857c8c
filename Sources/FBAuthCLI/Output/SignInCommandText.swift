import FBAuth
import FBAuthSupport

// What fbauth's command line tells a user to run: the library names no command (issue 28).

extension SignedInUser {
    /// How messages name the user: the email, else the uid.
    var displayLabel: String { TerminalText.safe(email ?? uid) }

    /// The command that signs this user in again, as a user can paste it: the provider the
    /// session was made with, and the account's email as the hint.
    var signInCommand: String { repeatCommand.command("signin") }

    /// The same for `fbauth reauth`.
    var reauthCommand: String { repeatCommand.command("reauth") }

    /// What to do once the session is gone: the command that signs in again; for an
    /// anonymous user, who cannot sign in again, that the account is lost — signing in
    /// anonymously once more makes a new user, with none of this one's data.
    var signInAgainAdvice: String {
        guard isAnonymous else { return "sign in again with `\(signInCommand)`" }
        return "an anonymous account cannot be signed in to again, so unless it was linked to a provider it is lost (`fbauth signin --provider anonymous` makes a new, empty user)"
    }

    /// The providers as `status` lists them: `password (email link)` for a session an email
    /// link made (Firebase names both `password`), `anonymous`, else `none`.
    var providerWords: String { providerNames(separator: ", ", emailLink: "password (email link)", none: "none") }

    func providerNames(separator: String, emailLink: String, none: String) -> String {
        let byLink = signInArguments?.starts(with: ["--provider", "emailLink"]) == true
        let names = providerData.map { byLink && $0.providerID == "password" ? emailLink : $0.providerID }
        return names.joined(separator: separator).nonEmpty ?? (isAnonymous ? "anonymous" : none)
    }

    private var repeatCommand: RepeatCommand {
        RepeatCommand(provider: lastCredentialProviderID ?? providerData.first?.providerID ?? (isAnonymous ? "anonymous" : "ID"),
                      arguments: signInArguments, email: email)
    }
}

/// A command that repeats a user's sign-in: the options it was made with, as far as they can
/// be pasted safely, else its provider; the email as the account hint.
private struct RepeatCommand {
    let provider: String
    let arguments: [String]?
    let email: String?

    func command(_ name: String) -> String {
        let saved = (arguments ?? []).allSatisfy(Self.isPasteable) ? arguments ?? [] : []
        var command = "fbauth \(name) " + (saved.count >= 2 && saved[0] == "--provider" ? saved : ["--provider", provider]).joined(separator: " ")
        let method = saved.count >= 2 ? saved[1] : provider
        if let email, !["anonymous", "custom"].contains(method), !command.contains(" --email "), Self.isPasteable(email) {
            command += " --email \(email)"
        }
        return command
    }

    /// A word a shell takes as it is: no spaces, quotes or shell syntax.
    private static func isPasteable(_ word: String) -> Bool {
        !word.isEmpty && word.count <= 200 && !word.contains(where: { $0.isWhitespace || !$0.isASCII || "'\"`$\\;&|<>(){}*?!#~".contains($0) })
    }
}

/// How the library's advice names fbauth's own ways to sign in (`AuthServiceSettings.advice`).
enum CommandLineAdvice {
    /// The other ways to sign in, as the options that take them.
    static let words: AdviceWords = {
        var words = AdviceWords()
        words.loopback = "--loopback"
        words.twoStep = "--loopback --print-url and then --complete with the address it ends on"
        words.noBrowser = "run the command again with --no-browser, which prints the address to open"
        words.browserless = "--id-token-file, --provider custom or --provider password"
        words.accountEmail = "--email"
        words.sdkCopy = "FBAUTH_FIREBASE_JS_URL with a copy of the SDK"
        words.authDomain = "--auth-domain"
        words.autoConsent = "against fbauth emulator, start it with --auto-consent EMAIL and this sign-in needs no browser at all"
        return words
    }()
}

extension BrowserFlowRequest {
    /// The options that repeat this sign-in (`--provider ID --loopback --port 9000 …`), for the
    /// command fbauth suggests when the session must be signed in again. The email is added
    /// by the suggestion itself; what changes each time (timeout, browser) is left out.
    var repeatArguments: [String] {
        var arguments = ["--provider", providerId]
        if redirect == .loopback {
            arguments.append("--loopback")
            if redirectHost != (providerId == "twitter.com" ? .ipv4 : .localhost) { arguments += ["--redirect-host", redirectHost.rawValue] }
            // A registered port matters; any free one (0) does not.
            if port != Self.defaultPort, port != 0 { arguments += ["--port", String(port)] }
        }
        if let authDomain { arguments += ["--auth-domain", authDomain] }
        for scope in scopes { arguments += ["--scope", scope] }
        for parameter in customParameters { arguments += ["--param", "\(parameter.key)=\(parameter.value)"] }
        return arguments
    }
}
