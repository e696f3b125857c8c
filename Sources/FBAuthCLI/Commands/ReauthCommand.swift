import FBAuth
import LoopbackHTTP
/// `fbauth reauth`: signs the current user in again, for operations that need a recent login.
enum ReauthCommand: RunnableCommand {
    static let spec = CommandSpec(
        name: "reauth",
        summary: "Re-authenticate the current user (for sensitive operations such as delete-account).",
        usage: [
            "--provider ID " + FlowOptionSpecs.usage, FlowOptionSpecs.twoStepUsage, "--provider password [--email E] [--no-browser]",
            "--provider ID --id-token-file FILE|- [--nonce N] | --access-token-file FILE|- [--token-secret-file FILE|-]",
        ],
        options: FlowOptionSpecs.all(with: ["password"]) + CredentialOptions.tokenSpecs + SecondFactorOptions.specs + [ResultJSONOption.spec],
        details: """
            Runs the sign-in again without creating a user (autoCreate: false). If a different \
            account signs in, fbauth reports a user mismatch (exit 1) and leaves the session as it \
            was. On success the session gets new tokens and a new sign-in time. An account with a \
            second factor is asked for it too, as by signin (--mfa-factor, --mfa-code-file).
            """)

    struct Options: Equatable {
        var method: Method
        var secondFactor = SecondFactorOptions()
        /// `--json`: the whole result on stdout even on a terminal.
        var json = false
    }

    enum Method: Equatable {
        /// `--provider password`, with `--email` or the user's own address.
        case password(email: String?, openBrowser: Bool)
        case provider(FlowMode)
        case providerToken(CredentialOptions.TokenSources)
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        Options(method: try method(arguments), secondFactor: try SecondFactorOptions(arguments), json: arguments.flag("json"))
    }

    static func method(_ arguments: ParsedArguments) throws(FBAuthError) -> Method {
        if let provider = arguments.value("provider"), CredentialOptions.givesToken(arguments) {
            try arguments.allowOnly(Set(CredentialOptions.tokenOptionNames), with: "a provider token")
            return .providerToken(try CredentialOptions.TokenSources(arguments, providerId: provider))
        }
        guard arguments.value("complete") == nil, arguments.value("provider") == "password" else {
            try arguments.allowOnly(Set(FlowOptionSpecs.all.map(\.name) + FlowOptionSpecs.twoStep.map(\.name)), with: "--provider \(arguments.value("provider") ?? "ID")")
            return .provider(try FlowMode(arguments))
        }
        try arguments.allowOnly(["email", "no-browser"], with: "--provider password")
        let email = try arguments.value("email").map { (email: String) throws(FBAuthError) in try EmailOption.validate(email, option: "email") }
        return .password(email: email, openBrowser: !arguments.flag("no-browser"))
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        let project = try context.project()
        let store = context.sessionStore()
        switch options.method {
        case .providerToken(let sources):
            let session = try store.load().session(context.selector, in: project.key)
            let credentials = CredentialSignIn(
                client: project.client, clock: context.clock, tenantId: project.tenantId,
                secondFactor: try context.secondFactorHandling(options.secondFactor, project: project, stdinTaken: sources.readsStandardInput))
            let credential = try sources.credential(context.console, emulator: project.client.endpoints.isEmulator)
            let record = try asTheSameUser(session) { () throws(FBAuthError) in
                try signedIn(credentials.providerToken(credential, purpose: .reauthenticate), as: session)
            }
            try finish(record, as: session, project: project, store: store, context: context, json: options.json)
        case .password(let email, let openBrowser):
            let session = try store.load().session(context.selector, in: project.key)
            guard let email = email ?? session.email else {
                throw .usage("missing --email: this user has no email address on file")
            }
            let password = try SecretInput.password(for: email, console: context.console)
            // The password is stdin's first line; a code may follow on the next.
            let credentials = CredentialSignIn(
                client: project.client, clock: context.clock, tenantId: project.tenantId,
                secondFactor: try context.secondFactorHandling(options.secondFactor, project: project),
                recaptchaTokens: try context.recaptchaTokens(for: project, openBrowser: openBrowser))
            let record = try asTheSameUser(session) { () throws(FBAuthError) in try credentials.password(email: email, password: password) }
            try finish(record, as: session, project: project, store: store, context: context, json: options.json)
        case .provider(let mode):
            // A flow --complete claims names its own user.
            let startingUser = mode.startOptions == nil ? nil : try store.load().session(context.selector, in: project.key).reference
            guard let prepared = try context.prepareFlow(mode, command: "reauth", user: startingUser, project: project, secondFactor: options.secondFactor) else { return }
            guard let user = prepared.user(startedFor: startingUser) else {
                throw .failed(.internalError, "the pending reauthentication names no user; start again with --print-url")
            }
            let session = try store.load().session(.exactly(user), in: project.key)
            let record = try asTheSameUser(session) { () throws(FBAuthError) in try signedIn(prepared.result(for: .reauthenticate), as: session) }
            try finish(record, as: session, project: project, store: store, context: context, json: options.json)
        }
    }

    /// Reauthentication never creates a user: an unknown account is somebody else.
    private static func asTheSameUser(_ session: Session, _ signIn: () throws(FBAuthError) -> SignInRecord) throws(FBAuthError) -> SignInRecord {
        do throws(FBAuthError) {
            return try signIn()
        } catch {
            if case .server(let serverError, _) = error, serverError.code == "USER_NOT_FOUND" {
                throw mismatch(session, other: "an account that is not this user")
            }
            throw error
        }
    }

    private static func signedIn(_ result: BrowserSignInFlow.Result, as session: Session) throws(FBAuthError) -> SignInRecord {
        switch result {
        case .signedIn(let record): return record
        case .accountExists: throw mismatch(session, other: "an account that is not this user")
        }
    }

    /// Checks that the same user signed in, then renews the session.
    private static func finish(_ record: SignInRecord, as session: Session, project: ProjectContext, store: SessionStore,
                               context: CommandContext, json: Bool) throws(FBAuthError) {
        guard record.account.localId == session.uid else {
            throw mismatch(session, other: record.account.email ?? record.account.localId ?? "another user")
        }
        let renewed = try SessionRenewal(store: store, project: project.key, clock: context.clock)
            .merge(record, into: session.reference, purpose: .reauthenticate)
        ResultReport(context: context, json: json).print(try context.auth(for: project).result(of: record, savedAs: renewed), summary: "Re-authenticated \(renewed.displayLabel)"
            + ResultReport.projectAndStore(project.key, projectId: store.projectId(of: project.key), store: store.location))
    }

    private static func mismatch(_ session: Session, other: String) -> FBAuthError {
        .failed(.userMismatch, "user mismatch: you signed in as \(other), not as \(session.displayLabel) (uid \(session.uid)); the session was left unchanged")
    }
}
