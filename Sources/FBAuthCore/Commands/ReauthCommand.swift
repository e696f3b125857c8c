/// `fbauth reauth`: signs the current user in again, for operations that need a recent login.
enum ReauthCommand {
    static let spec = CommandSpec(
        name: "reauth",
        summary: "Re-authenticate the current user (for sensitive operations such as delete-account).",
        usage: ["--provider ID [flow options]", "--provider password [--email E]"],
        options: FlowOptionSpecs.all,
        details: """
            Runs the sign-in again without creating a user (autoCreate: false). If a different \
            account signs in, fbauth reports a user mismatch (exit 1) and leaves the session as it \
            was. On success the session gets new tokens and a new sign-in time.
            """)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(FBAuthError) {
        let project = try context.project()
        let store = context.sessionStore()
        let session = try store.load().session(context.selector, in: project.key)
        let record: SignInRecord
        do throws(FBAuthError) {
            record = try signInAgain(arguments, as: session, project: project, context: context)
        } catch {
            if case .server(let serverError, _) = error, serverError.code == "USER_NOT_FOUND" {
                throw mismatch(session, other: "an account that is not this user")
            }
            throw error
        }
        guard record.account.localId == session.uid else {
            throw mismatch(session, other: record.account.email ?? record.account.localId ?? "another user")
        }
        var renewed = record.session(replacing: session)
        renewed.lastSignInTime = context.clock.now()
        try store.update { (contents: inout StoreContents) throws(FBAuthError) in
            contents.save(renewed, in: project.key, makeCurrent: false)
        }
        context.console.writeOutput(JSONOutput.render(AuthDataResultJSON(record: record, session: renewed)))
        context.console.say("Re-authenticated \(renewed.displayLabel).")
    }

    private static func signInAgain(_ arguments: ParsedArguments, as session: Session, project: ProjectContext,
                                    context: CommandContext) throws(FBAuthError) -> SignInRecord {
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
        let flow = BrowserSignInFlow(
            client: project.client, browser: context.dependencies.browser, console: context.console,
            clock: context.clock, tenantId: project.tenantId)
        switch try flow.run(options, purpose: .reauthenticate) {
        case .signedIn(let record): return record
        case .accountExists: throw mismatch(session, other: "an account that is not this user")
        }
    }

    private static func mismatch(_ session: Session, other: String) -> FBAuthError {
        .failed("user mismatch: you signed in as \(other), not as \(session.displayLabel) (uid \(session.uid)); the session was left unchanged")
    }
}
