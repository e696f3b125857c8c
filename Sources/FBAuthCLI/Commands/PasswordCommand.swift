import FBAuth
import FBAuthSupport

/// `fbauth password reset|change`: a forgotten password (`sendPasswordResetEmail`, then
/// `confirmPasswordReset` with the mailed code) and a new one for the signed-in user
/// (`updatePassword`).
enum PasswordCommand: RunnableCommand {
    static let spec = CommandSpec(
        name: "password",
        summary: "Reset a forgotten password by email, or change the current user's password.",
        usage: ["reset --email E [--no-browser]", "reset --link FILE|-", "reset --code-file FILE|-", "change"],
        options: [
            OptionSpec("email", value: "EMAIL", help: "With reset: the account whose password is forgotten; Firebase mails it a link."),
            OptionSpec("link", value: "FILE|-", help: "With reset: the link from the email, from a file or stdin (-). Then asks for the new password."),
            OptionSpec("code-file", value: "FILE|-", help: "With reset: the link's oobCode, from a file or stdin (-)."),
            OptionSpec("no-browser", help: "Where the project protects email/password with reCAPTCHA Enterprise: show the reCAPTCHA page's address instead of opening a browser."),
        ],
        positionals: [PositionalSpec("ACTION", suggestions: ["reset", "change"], help: "reset or change.")],
        details: """
            reset --email asks Firebase to mail a password-reset link (under email enumeration \
            protection Firebase answers the same for unknown addresses). Open it and set the \
            password on Firebase's page, or give the link to reset --link - (paste it) and type \
            the new password here. The link and the code are one-time secrets: they are read from \
            a file or stdin, never from arguments. Without a terminal, stdin holds the link (or \
            code) on its first line and the new password on the second.

            change sets a new password for the current user (asked twice without echo, or from \
            stdin). Firebase wants a recent sign-in for it (`fbauth reauth`), signs the user's \
            other sessions out, and gives this one new tokens, which are saved.

            Examples:
              fbauth password reset --email ada@example.com
              fbauth password reset --link -
              printf '%s\\n%s\\n' "$LINK" "$NEW_PASSWORD" | fbauth password reset --link -
              fbauth password change
            """)

    enum Options: Equatable {
        case sendReset(email: String, openBrowser: Bool)
        case confirmReset(CodeSource)
        case change
    }

    /// Where a mailed code comes from.
    enum CodeSource: Equatable {
        case link(String)
        case codeFile(String)
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        if arguments.positionals.count > 1 { throw .usage("unexpected argument '\(arguments.positionals[1])' for password \(arguments.positionals[0])") }
        let given = ["email", "link", "code-file"].filter { arguments.value($0) != nil }
        switch arguments.positionals.first {
        case "reset":
            guard given.count == 1 else {
                throw .usage(given.isEmpty ? "password reset needs --email E (to send the email), or --link FILE|- or --code-file FILE|- (to set the new password)"
                                           : "give one of --email, --link and --code-file")
            }
            if let link = arguments.value("link") { return .confirmReset(.link(link)) }
            if let file = arguments.value("code-file") { return .confirmReset(.codeFile(file)) }
            return .sendReset(email: try EmailOption.required(arguments), openBrowser: !arguments.flag("no-browser"))
        case "change":
            if let stray = given.first ?? (arguments.flag("no-browser") ? "no-browser" : nil) { throw .usage("--\(stray) does not apply to password change") }
            return .change
        case let other:
            let suggestion = other.flatMap { Suggestions.closest(to: $0, among: ["reset", "change"]) }
            throw .usage("'\(other ?? "")' is not a password action; choose reset or change" + (suggestion.map { " (did you mean '\($0)'?)" } ?? ""))
        }
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        var context = context
        // A reset starts from nothing but the project (exit 2 without one); a change needs a user.
        if options != .change { context.startsSession = true }
        let project = try context.project()
        switch options {
        case .sendReset(let email, let openBrowser):
            let auth = try context.auth(for: project, opensBrowser: openBrowser)
            try Waiting.result { auth.sendPasswordReset(withEmail: email, completion: $0) }
            context.console.say("If \(email) has an account, Firebase has mailed it a password-reset link\(auth.mailNote). Open it, or run `fbauth password reset --link -` and paste it.")
        case .confirmReset(let source):
            let code = try actionCode(source, context: context, accepting: [.passwordReset]) { operation in
                "that is \(operation.sentence), not \(ActionLinkOperation.passwordReset.sentence)"
            }
            let password = try SecretInput.newPassword(for: nil, console: context.console, afterOtherInput: true)
            let auth = try context.auth(for: project)
            let email = try Waiting.result { auth.confirmPasswordReset(withCode: code, newPassword: password, completion: $0) }
            context.console.say("The password\(email.map { " of \($0)" } ?? "") was reset; its other sessions were signed out. Sign in with it: fbauth signin --provider password --email \(email ?? "EMAIL")")
            if let email { checkSavedUsers(of: email, auth: auth) }
        case .change:
            let user = try context.user()
            let password = try SecretInput.newPassword(for: user.email, console: context.console)
            let renewed: SignedInUser
            do throws(FBAuthError) {
                renewed = try Waiting.result { user.updatePassword(to: password, completion: $0) }
            } catch where error.code == .requiresRecentLogin {
                throw .failed(.requiresRecentLogin, "changing the password needs a recent sign-in; run `fbauth reauth --provider \(user.providerData.first?.providerID ?? "ID")` and try again [CREDENTIAL_TOO_OLD_LOGIN_AGAIN]")
            }
            context.console.say("Changed the password of \(renewed.displayLabel); its other sessions were signed out, and this one has new tokens.")
        }
    }

    /// A reset signs the user's sessions out on the server: the saved ones of that address are
    /// asked once (a refusal leaves them without tokens), so that `status` shows what is true
    /// now rather than the old token's time.
    private static func checkSavedUsers(of email: String, auth: AuthService) {
        for user in auth.savedUsers where user.email?.lowercased() == email.lowercased() && user.canRefresh {
            _ = try? Waiting.result { user.getIDTokenResult(forcingRefresh: true, completion: $0) }
        }
    }

    /// The code of a mailed link (checked to be a password reset's when the link says).
    /// The code of a mailed link, or of `--code-file`; a link of another kind is refused with
    /// `refusal`'s words (a bare code says nothing of its kind: the server checks it).
    static func actionCode(_ source: CodeSource, context: CommandContext, accepting operations: Set<ActionLinkOperation>,
                           refusal: (ActionLinkOperation) -> String) throws(FBAuthError) -> String {
        switch source {
        case .codeFile(let file):
            return try SecretInput.actionCode(from: file, option: "--code-file", console: context.console)
        case .link(let file):
            let link = try SecretInput.emailLink(from: file, option: "--link", console: context.console)
            guard operations.contains(link.operation) else { throw .usage(refusal(link.operation)) }
            return link.code
        }
    }
}
