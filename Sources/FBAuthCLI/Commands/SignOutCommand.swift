import FBAuth
/// `fbauth signout`: forgets sessions on this machine.
enum SignOutCommand: RunnableCommand {
    static let spec = CommandSpec(
        name: "signout",
        summary: "Forget the current session (--all: every session of the project). Local only.",
        usage: ["[--all]"],
        options: [OptionSpec("all", help: "Forget every saved session of the project.")],
        details: """
            Signing out is local: fbauth deletes the saved tokens from this machine (the \
            session, its keyring items, and the GOOGLE_EXTERNAL_ACCOUNT_OUTPUT_FILE it wrote \
            for the session, unless something else was written there since). Firebase \
            refresh tokens stay valid until they are revoked on the server side — with the Admin \
            SDK (revokeRefreshTokens) or by disabling or deleting the user in the Firebase console.
            """,
        aliases: ["logout"])

    struct Options: Equatable {
        /// `--all`: every session of the project.
        var allSessions: Bool
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        Options(allSessions: arguments.flag("all"))
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        let auth = try context.auth(for: context.project())
        let signedOut: [SignedInUser]
        var nowCurrent: SignedInUser?
        if options.allSessions {
            signedOut = try auth.signOutAll()
            guard !signedOut.isEmpty else { throw .signInAgain("no saved sessions for this project; nothing to sign out") }
        } else {
            // As `gh auth logout`: another saved account of the project takes over, the one
            // used most recently, rather than leaving nobody current.
            let user = try auth.savedUser(context.globals.user)
            nowCurrent = try auth.signOut(user)
            signedOut = [user]
        }
        let names = signedOut.map(\.displayLabel).joined(separator: ", ")
        context.console.say("Signed out of \(names) on this machine. (Refresh tokens can only be revoked on the server: Admin SDK or Firebase console.)")
        if let nowCurrent { context.console.say("\(nowCurrent.displayLabel) is the current session now (`fbauth use` switches).") }
    }
}
