import FBAuth
import FBAuthSupport

/// `fbauth verify-email`: Firebase mails the current user a verification link
/// (`sendEmailVerification`).
enum VerifyEmailCommand: RunnableCommand {
    static let spec = CommandSpec(
        name: "verify-email",
        summary: "Have Firebase mail the current user a link that verifies their email address.",
        usage: [""],
        options: [],
        details: """
            Opening the link verifies the address (Firebase's page applies it; or give the link to \
            `fbauth email apply --link -`). `fbauth whoami` then shows emailVerified true, and the \
            ID token's email_verified claim turns true at its next refresh.
            """)

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Bool {
        if let extra = arguments.positionals.first { throw .usage("unexpected argument '\(extra)' for verify-email") }
        return true
    }

    static func run(_ options: Bool, _ context: CommandContext) throws(FBAuthError) {
        let user = try context.user()
        guard let email = user.email else { throw .usage("\(user.displayLabel) has no email address to verify") }
        if user.isEmailVerified { context.console.say("\(email) is verified already (as of the last sign-in or whoami); sending the link anyway.") }
        try Waiting.result { user.sendEmailVerification(completion: $0) }
        context.console.say("Firebase has mailed a verification link to \(email)\(user.auth.mailNote).")
    }
}

/// `fbauth email change|apply`: a new address through a link mailed to it
/// (`verifyBeforeUpdateEmail`), and mailed verification or email-change links applied
/// (`applyActionCode`).
enum EmailCommand: RunnableCommand {
    static let spec = CommandSpec(
        name: "email",
        summary: "Change the current user's email address, or apply a verification or email-change link.",
        usage: ["change --new-email E", "apply --link FILE|-", "apply --code-file FILE|-"],
        options: [
            OptionSpec("new-email", value: "EMAIL", help: "With change: the new address; Firebase mails it a link, and the address changes when it is opened."),
            OptionSpec("link", value: "FILE|-", help: "With apply: the link from the email, from a file or stdin (-)."),
            OptionSpec("code-file", value: "FILE|-", help: "With apply: the link's oobCode, from a file or stdin (-)."),
        ],
        positionals: [PositionalSpec("ACTION", suggestions: ["change", "apply"], help: "change or apply.")],
        details: """
            change uses VERIFY_AND_CHANGE_EMAIL, the way that works with email enumeration \
            protection: nothing changes until the link mailed to the new address is opened. \
            Firebase then signs the user's sessions out: sign in again with the new address.

            apply applies a verification or email-change link, for when the link's page is your \
            own (a custom action handler) or cannot be opened; Firebase's own page applies it \
            when the link is opened. The link is a one-time secret: a file or stdin, never an \
            argument. A saved session of the same user is refreshed, or reported signed out.

            Examples:
              fbauth email change --new-email ada@new.example
              fbauth email apply --link -
            """)

    enum Options: Equatable {
        case change(newEmail: String)
        case apply(PasswordCommand.CodeSource)
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        if arguments.positionals.count > 1 { throw .usage("unexpected argument '\(arguments.positionals[1])' for email \(arguments.positionals[0])") }
        switch arguments.positionals.first {
        case "change":
            if let stray = ["link", "code-file"].first(where: { arguments.value($0) != nil }) { throw .usage("--\(stray) does not apply to email change") }
            return .change(newEmail: try EmailOption.required(arguments, "new-email"))
        case "apply":
            if arguments.value("new-email") != nil { throw .usage("--new-email does not apply to email apply") }
            switch (arguments.value("link"), arguments.value("code-file")) {
            case (let link?, nil): return .apply(.link(link))
            case (nil, let file?): return .apply(.codeFile(file))
            default: throw .usage("email apply needs one of --link FILE|- and --code-file FILE|-")
            }
        case let other:
            let suggestion = other.flatMap { Suggestions.closest(to: $0, among: ["change", "apply"]) }
            throw .usage("'\(other ?? "")' is not an email action; choose change or apply" + (suggestion.map { " (did you mean '\($0)'?)" } ?? ""))
        }
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        switch options {
        case .change(let newEmail):
            let user = try context.user()
            if user.email?.lowercased() == newEmail.lowercased() { throw .usage("\(newEmail) is the current address already") }
            try Waiting.result { user.sendEmailVerification(beforeUpdatingEmail: newEmail, completion: $0) }
            context.console.say("Firebase has mailed a link to \(newEmail)\(user.auth.mailNote). The address of \(user.displayLabel) changes when it is opened; Firebase then signs its sessions out (sign in again with \(newEmail)).")
        case .apply(let source):
            try apply(source, context: context)
        }
    }

    private static func apply(_ source: PasswordCommand.CodeSource, context: CommandContext) throws(FBAuthError) {
        let auth = try context.auth(for: context.project())
        let code = try PasswordCommand.actionCode(source, context: context,
                                                  accepting: [.verifyEmail, .verifyAndChangeEmail, .recoverEmail, .revertSecondFactorAddition]) { operation in
            let other: String = switch operation {
            case .passwordReset: " (`fbauth password reset --link -` takes this one)"
            case .emailLink: " (`fbauth signin --provider emailLink --email E --link -` takes this one)"
            default: ""
            }
            return "that is \(operation.sentence); email apply takes verification and email-change links" + other
        }
        let applied = try Waiting.result { auth.applyActionCode(code, completion: $0) }
        let email = applied.newEmail ?? applied.email
        context.console.say(applied.newEmail != nil ? "The address is now \(applied.newEmail ?? "")." : "\(email ?? "The address") is verified.")
        switch applied.savedUser {
        case .refreshed(let user)?:
            context.console.say("Refreshed the saved session of \(user.displayLabel).")
        case .signedOut(let user)?:
            // The change worked: the command still succeeds.
            context.console.say("Firebase signed \(user.displayLabel) out with this change; sign in again with `\(user.signInCommand)`.")
        case nil:
            break
        }
    }
}
