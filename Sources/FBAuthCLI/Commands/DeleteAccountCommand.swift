import FBAuth
import LoopbackHTTP
/// `fbauth delete-account`: deletes the Firebase user for good.
enum DeleteAccountCommand: RunnableCommand {
    static let spec = CommandSpec(
        name: "delete-account",
        summary: "Delete the current Firebase user (asks for confirmation; --yes for scripts).",
        usage: ["[--yes]"],
        options: [OptionSpec("yes", help: "Delete without asking (needed when stdin is not a terminal).")],
        details: """
            Deleting needs a recent sign-in; when Firebase answers CREDENTIAL_TOO_OLD_LOGIN_AGAIN, \
            run `fbauth reauth --provider …` and try again. The session is removed afterwards.
            """)

    struct Options: Equatable {
        /// `--yes`: confirmed on the command line, no prompt.
        var confirmed: Bool
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        Options(confirmed: arguments.flag("yes"))
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        let user = try context.user()
        if !options.confirmed {
            guard context.console.isInputTerminal else {
                throw .usage("refusing to delete \(user.displayLabel) without confirmation: pass --yes")
            }
            context.console.writeError("Delete the Firebase user \(user.displayLabel) (uid \(user.uid)) for good? Type yes to confirm: ")
            guard context.console.readLine()?.lowercased() == "yes" else {
                throw .failed(.declined, "not deleted: confirmation not given")
            }
        }
        do throws(FBAuthError) {
            try Waiting.result { user.delete(completion: $0) }
        } catch where error.code == .requiresRecentLogin {
            let provider = user.providerData.first?.providerID ?? "password"
            throw .failed(.requiresRecentLogin, "deleting \(user.displayLabel) needs a recent sign-in: run `fbauth reauth --provider \(provider)` first [CREDENTIAL_TOO_OLD_LOGIN_AGAIN]")
        }
        context.console.say("Deleted the Firebase user \(user.displayLabel) (uid \(user.uid)) and removed its session.")
    }
}
