import FBAuth
import FBAuthSupport
/// `fbauth delete-account`: deletes the Firebase user for good.
enum DeleteAccountCommand: RunnableCommand {
    static let spec = CommandSpec(
        name: "delete-account",
        summary: "Delete the current Firebase user (asks for confirmation; --yes for scripts).",
        usage: ["[--yes] [--skip-revoke] [--port N] [--no-browser] [--timeout SECONDS]"],
        options: [
            OptionSpec("yes", help: "Delete without asking (needed when stdin is not a terminal)."),
            OptionSpec("skip-revoke", help: "For a user with Sign in with Apple: delete without revoking the Apple token first (with a warning)."),
            OptionSpec("port", value: "PORT", help: "For the Apple re-authentication a revocation may need: the listener's port (default \(BrowserFlowRequest.defaultPort); 0 picks a free port)."),
            OptionSpec("no-browser", help: "For the Apple re-authentication: print the address to open instead of launching a browser."),
            OptionSpec("timeout", value: "SECONDS", help: "For the Apple re-authentication: how long to wait for the browser (default 300)."),
        ],
        details: """
            Deleting needs a recent sign-in; when Firebase answers CREDENTIAL_TOO_OLD_LOGIN_AGAIN, \
            run `fbauth reauth --provider …` and try again. The session is removed afterwards.

            A user with Sign in with Apple (apple.com) has the Apple access token of the last \
            Apple sign-in revoked first (accounts:revokeToken), as Apple requires of apps that \
            delete accounts; a refused revocation deletes nothing (exit 1). When no Apple token \
            is kept (a session saved before fbauth kept them), the user signs in with Apple \
            again in the browser first, as `fbauth reauth --provider apple.com` does (deleting \
            needs a recent sign-in anyway; --port, --no-browser and --timeout apply to it). \
            --skip-revoke deletes without revoking.
            """)

    struct Options: Equatable {
        /// `--yes`: confirmed on the command line, no prompt.
        var confirmed: Bool
        /// `--skip-revoke`: no Apple token revocation before the deletion.
        var skipRevoke = false
        /// The Apple re-authentication's browser flow, when no Apple token is kept.
        var appleFlow = BrowserFlowRequest(providerId: "apple.com", redirectWasChosen: false)
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        var appleFlow = BrowserFlowRequest(providerId: "apple.com", redirectWasChosen: false)
        appleFlow.port = try arguments.port("port") ?? BrowserFlowRequest.defaultPort
        appleFlow.openBrowser = !arguments.flag("no-browser")
        appleFlow.timeout = try arguments.seconds("timeout") ?? BrowserFlowRequest.defaultTimeout
        return Options(confirmed: arguments.flag("yes"), skipRevoke: arguments.flag("skip-revoke"), appleFlow: appleFlow)
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
        // The library revokes a Sign in with Apple token before it deletes (Apple's guideline
        // 5.1.1(v)); the command adds the browser sign-in it needs when none is kept.
        let revoking = user.hasSignInWithApple && !options.skipRevoke
        if user.hasSignInWithApple && options.skipRevoke {
            context.console.say("warning: the user's Sign in with Apple token is not revoked (--skip-revoke); Apple requires apps to revoke it when they delete an account")
        }
        do throws(FBAuthError) {
            do throws(FBAuthError) {
                try Waiting.result { user.delete(revokingAppleToken: !options.skipRevoke, completion: $0) }
            } catch where error.remedy == .reauthenticateWithApple {
                let again = try signInWithAppleAgain(user, options, context)
                try Waiting.result { again.delete(completion: $0) }
            }
        } catch where error.code == .requiresRecentLogin && error.remedy == nil {
            let provider = user.providerData.first?.providerID ?? "password"
            throw .failed(.requiresRecentLogin, "deleting \(user.displayLabel) needs a recent sign-in: run `fbauth reauth --provider \(provider)` first [CREDENTIAL_TOO_OLD_LOGIN_AGAIN]")
        }
        // Named once: by its email and uid, or, without an email, by its uid alone.
        let named = user.displayLabel == TerminalText.safe(user.uid) ? "uid \(user.displayLabel)" : "\(user.displayLabel) (uid \(TerminalText.safe(user.uid)))"
        context.console.say("Deleted the Firebase user \(named)\(revoking ? " after revoking its Sign in with Apple token" : "") and removed its session.")
        // One rule with `signout`: the saved session that signed in most recently is current now.
        if let nowCurrent = try context.auth(for: context.project()).promoteMostRecentSession() {
            context.console.say("\(nowCurrent.displayLabel) is the current session now (`fbauth use` switches).")
        }
    }

    /// The user after a new Sign in with Apple, whose Apple token the deletion then revokes,
    /// when none was kept (a session saved before fbauth kept them): the re-authentication
    /// `fbauth reauth --provider apple.com` runs, which deleting needs recently anyway.
    private static func signInWithAppleAgain(_ user: SignedInUser, _ options: Options, _ context: CommandContext) throws(FBAuthError) -> SignedInUser {
        context.console.say("No Apple token is kept for \(user.displayLabel) to revoke before deleting: sign in with Apple again in the browser.")
        let project = try context.project()
        let flow = try context.browserRun(options.appleFlow, project: project)
        let auth = try context.signInAuth(for: project, flow: flow, opensBrowser: flow.openBrowser, secondFactor: SecondFactorOptions(), stdinTaken: false)
        let again = try auth.savedUser(context.globals.user)
        return try Waiting.result { again.reauthenticate(with: flow.provider, completion: $0) }.user
    }
}
