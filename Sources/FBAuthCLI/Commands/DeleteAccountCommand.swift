import FBAuth
import LoopbackHTTP
/// `fbauth delete-account`: deletes the Firebase user for good.
enum DeleteAccountCommand: RunnableCommand {
    static let spec = CommandSpec(
        name: "delete-account",
        summary: "Delete the current Firebase user (asks for confirmation; --yes for scripts).",
        usage: ["[--yes] [--skip-revoke]"],
        options: [
            OptionSpec("yes", help: "Delete without asking (needed when stdin is not a terminal)."),
            OptionSpec("skip-revoke", help: "For a user with Sign in with Apple: delete without revoking the Apple token first (with a warning)."),
        ],
        details: """
            Deleting needs a recent sign-in; when Firebase answers CREDENTIAL_TOO_OLD_LOGIN_AGAIN, \
            run `fbauth reauth --provider …` and try again. The session is removed afterwards.

            A user with Sign in with Apple (apple.com) has the Apple access token of the last \
            Apple sign-in revoked first (accounts:revokeToken), as Apple requires of apps that \
            delete accounts; a refused revocation deletes nothing (exit 1). When no Apple token \
            is kept (an older session), run `fbauth reauth --provider apple.com` first: it \
            keeps one, and deleting needs a recent sign-in anyway. --skip-revoke deletes \
            without revoking.
            """)

    struct Options: Equatable {
        /// `--yes`: confirmed on the command line, no prompt.
        var confirmed: Bool
        /// `--skip-revoke`: no Apple token revocation before the deletion.
        var skipRevoke = false
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        Options(confirmed: arguments.flag("yes"), skipRevoke: arguments.flag("skip-revoke"))
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
        let revoked = try revokeAppleToken(of: user, skip: options.skipRevoke, context)
        do throws(FBAuthError) {
            try Waiting.result { user.delete(completion: $0) }
        } catch where error.code == .requiresRecentLogin {
            let provider = user.providerData.first?.providerID ?? "password"
            throw .failed(.requiresRecentLogin, "deleting \(user.displayLabel) needs a recent sign-in: run `fbauth reauth --provider \(provider)` first [CREDENTIAL_TOO_OLD_LOGIN_AGAIN]")
        }
        context.console.say("Deleted the Firebase user \(user.displayLabel) (uid \(user.uid))\(revoked ? " after revoking its Sign in with Apple token" : "") and removed its session.")
    }

    /// Revokes the Apple access token of a user with Sign in with Apple before the deletion
    /// (Apple's App Store Review Guideline 5.1.1(v); the SDKs' `revokeAccessToken` and
    /// `revokeToken(withAuthorizationCode:)`); whether it did.
    private static func revokeAppleToken(of user: User, skip: Bool, _ context: CommandContext) throws(FBAuthError) -> Bool {
        guard user.providerData.contains(where: { $0.providerID == "apple.com" }) else { return false }
        guard !skip else {
            context.console.say("warning: the user's Sign in with Apple token is not revoked (--skip-revoke); Apple requires apps to revoke it when they delete an account")
            return false
        }
        guard let token = user.keptAppleAccessToken else {
            throw .failed(.requiresRecentLogin, "no Apple token is kept for \(user.displayLabel) to revoke before deleting: run `fbauth reauth --provider apple.com` (deleting needs a recent sign-in anyway), then delete-account again; or --skip-revoke")
        }
        do throws(FBAuthError) {
            try Waiting.result { user.auth.revokeAccessToken(token, of: user, completion: $0) }
        } catch where error.exitCode != .network {
            throw .failed(error.code, "nothing was deleted: \(error.message); --skip-revoke deletes without revoking")
        }
        return true
    }
}
