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
        let project = try context.project()
        let store = context.sessionStore()
        let saved = try store.load().session(context.selector, in: project.key)
        if !options.confirmed {
            guard context.console.isInputTerminal else {
                throw .usage("refusing to delete \(saved.displayLabel) without confirmation: pass --yes")
            }
            context.console.writeError("Delete the Firebase user \(saved.displayLabel) (uid \(saved.uid)) for good? Type yes to confirm: ")
            guard context.console.readLine()?.lowercased() == "yes" else {
                throw .failed(.declined, "not deleted: confirmation not given")
            }
        }
        let refresher = context.tokenRefresher(for: project.key)
        let session = try refresher.session(.exactly(saved.reference), minValid: 60)
        do throws(FBAuthError) {
            try project.client.deleteAccount(idToken: session.idToken)
        } catch where error.rejectsSession {
            try refresher.reject(session, because: error)
        } catch {
            if case .server(let serverError, _) = error, serverError.code == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN" {
                let provider = session.providerData.first?.providerId ?? "password"
                throw .failed(.requiresRecentLogin, "deleting \(session.displayLabel) needs a recent sign-in: run `fbauth reauth --provider \(provider)` first [CREDENTIAL_TOO_OLD_LOGIN_AGAIN]")
            }
            throw error
        }
        try store.update { (contents: inout StoreContents) throws(FBAuthError) in
            contents.remove(session.reference, in: project.key)
        }
        context.console.say("Deleted the Firebase user \(session.displayLabel) (uid \(session.uid)) and removed its session.")
    }
}
