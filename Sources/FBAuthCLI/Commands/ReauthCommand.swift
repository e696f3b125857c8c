import FBAuth
import LoopbackHTTP
/// `fbauth reauth`: signs the current user in again, for operations that need a recent login.
enum ReauthCommand {
    static let spec = CommandSpec(
        name: "reauth",
        summary: "Re-authenticate the current user (for sensitive operations such as delete-account).",
        usage: ["--provider ID " + FlowOptionSpecs.usage, FlowOptionSpecs.twoStepUsage, "--provider password [--email E]"],
        options: FlowOptionSpecs.all(with: ["password"]),
        details: """
            Runs the sign-in again without creating a user (autoCreate: false). If a different \
            account signs in, fbauth reports a user mismatch (exit 1) and leaves the session as it \
            was. On success the session gets new tokens and a new sign-in time.
            """)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(FBAuthError) {
        let project = try context.project()
        let store = context.sessionStore()
        var session: Session?
        let record: SignInRecord
        do throws(FBAuthError) {
            if let address = arguments.value("complete") {
                try arguments.allowOnly(["complete", "loopback"], with: "--complete")
                let result = try context.twoStepFlow(for: project)
                    .complete(try context.completionAddress(address), command: "reauth") { (pending: PendingFlow) throws(FBAuthError) -> FlowPurpose in
                        guard let user = pending.user else { throw .failed(.internalError, "the pending reauthentication names no user; start again with --print-url") }
                        session = try store.load().session(.exactly(user), in: project.key)
                        return .reauthenticate
                    }.1
                record = try signedIn(result, as: session!)
            } else {
                let current = try store.load().session(context.selector, in: project.key)
                session = current
                guard let signedIn = try signInAgain(arguments, as: current, project: project, context: context) else { return }
                record = signedIn
            }
        } catch {
            // Reauthentication never creates a user: an unknown account is somebody else.
            if let session, case .server(let serverError, _) = error, serverError.code == "USER_NOT_FOUND" {
                throw mismatch(session, other: "an account that is not this user")
            }
            throw error
        }
        try finish(record, as: session!, project: project, store: store, context: context)
    }

    /// Signs in again interactively; nil when the command only printed a `--print-url` URL.
    private static func signInAgain(_ arguments: ParsedArguments, as session: Session, project: ProjectContext,
                                    context: CommandContext) throws(FBAuthError) -> SignInRecord? {
        if arguments.value("provider") == "password" {
            try arguments.allowOnly(["email"], with: "--provider password")
            guard let email = try arguments.nonEmpty("email") ?? session.email else {
                throw .usage("missing --email: this user has no email address on file")
            }
            let password = try SecretInput.password(for: email, console: context.console)
            return try CredentialSignIn(client: project.client, clock: context.clock, tenantId: project.tenantId)
                .password(email: email, password: password)
        }
        let options = try FlowOptions(arguments: arguments)
        if arguments.flag("print-url") {
            try context.printAuthorizationURL(options, command: "reauth", user: session.reference, project: project)
            return nil
        }
        try context.sessionStore().checkWritable()
        return try signedIn(context.browserFlow(for: project).run(options, purpose: .reauthenticate), as: session)
    }

    private static func signedIn(_ result: BrowserSignInFlow.Result, as session: Session) throws(FBAuthError) -> SignInRecord {
        switch result {
        case .signedIn(let record): return record
        case .accountExists: throw mismatch(session, other: "an account that is not this user")
        }
    }

    /// Checks that the same user signed in, then renews the session.
    private static func finish(_ record: SignInRecord, as session: Session, project: ProjectContext, store: SessionStore,
                               context: CommandContext) throws(FBAuthError) {
        guard record.account.localId == session.uid else {
            throw mismatch(session, other: record.account.email ?? record.account.localId ?? "another user")
        }
        // Merged into the session as it is now: a signout while the browser was open stays.
        let renewed = try store.update { (contents: inout StoreContents) throws(FBAuthError) -> Session in
            guard let current = try? contents.session(.exactly(session.reference), in: project.key) else {
                throw .signInAgain("\(session.displayLabel) was signed out during the reauthentication and stays signed out; sign in again to use it")
            }
            var renewed = record.session(replacing: current)
            renewed.lastSignInTime = context.clock.now()
            contents.save(renewed, in: project.key, makeCurrent: false)
            return renewed
        }
        context.console.writeOutput(JSONOutput.render(AuthDataResultJSON(record: record, session: renewed)))
        context.console.say("Re-authenticated \(renewed.displayLabel).")
    }

    private static func mismatch(_ session: Session, other: String) -> FBAuthError {
        .failed(.userMismatch, "user mismatch: you signed in as \(other), not as \(session.displayLabel) (uid \(session.uid)); the session was left unchanged")
    }
}
