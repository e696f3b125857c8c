import FBAuth
import FBAuthSupport

/// `fbauth signup --email E`: a new email/password account (`createUserWithEmailAndPassword`).
enum SignUpCommand: RunnableCommand {
    static let startsSession = true
    static let spec = CommandSpec(
        name: "signup",
        summary: "Create an email/password account and sign in to it.",
        usage: ["--email E [--display-name NAME] [--no-browser] [--json]"],
        options: [
            OptionSpec("email", value: "EMAIL", help: "The new account's email address."),
            OptionSpec("display-name", value: "NAME", help: "The new account's display name."),
            OptionSpec("no-browser", help: "Where the project protects email/password with reCAPTCHA Enterprise: show the reCAPTCHA page's address instead of opening a browser."),
            ResultJSONOption.spec,
        ],
        details: """
            Reads the password without echo, twice, on a terminal; else from stdin (all of it, \
            one trailing newline removed). Never from arguments or the environment. A password \
            the project's policy refuses is reported with the policy in words (GET \
            /v2/passwordPolicy). The new session becomes the current one; the result is printed \
            as signin prints it. Firebase does not verify the address: `fbauth verify-email` \
            sends the verification email.

            Examples:
              fbauth signup --email ada@example.com
              pass show firebase/ada | fbauth signup --email ada@example.com --display-name Ada
            """)

    struct Options: Equatable {
        var email: String
        var displayName: String?
        var openBrowser: Bool
        var json = false
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        Options(email: try EmailOption.required(arguments), displayName: try ProfileValues.displayName(arguments),
                openBrowser: !arguments.flag("no-browser"), json: arguments.flag("json"))
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        let auth = try context.auth(for: try context.project(), opensBrowser: options.openBrowser) { $0.signInArguments = ["--provider", "password"] }
        try auth.checkSessionsWritable()
        let password = try SecretInput.newPassword(for: options.email, console: context.console)
        let result = try Waiting.result { auth.createUser(withEmail: options.email, password: password, displayName: options.displayName, completion: $0) }
        SignInCommand.report(result, auth: auth, json: options.json, context: context, how: " with a password")
    }
}

/// `--email`, checked: an address, at most 254 characters, no spaces or control characters.
enum EmailOption {
    static func required(_ arguments: ParsedArguments, _ name: String = "email") throws(FBAuthError) -> String {
        try validate(try arguments.required(name, hint: "EMAIL"), option: name)
    }

    static func validate(_ email: String, option: String) throws(FBAuthError) -> String {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, email.count <= 254,
            !email.unicodeScalars.contains(where: { $0.value == 0x20 || TextChecks.isControl($0) || TextChecks.isBidiControl($0) })
        else { throw .usage("--\(option) '\(TerminalText.safe(String(email.prefix(80))))' is not an email address") }
        return email
    }
}
