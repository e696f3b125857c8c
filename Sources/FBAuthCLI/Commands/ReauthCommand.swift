import FBAuth
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
        if case .provider(let mode) = options.method, !mode.runsNow {
            try reauthInTwoSteps(mode, options: options, project: project, context: context)
            return
        }
        let (auth, flow) = try context.signInSetup(options.method, project: project, secondFactor: options.secondFactor)
        let user = try auth.savedUser(context.globals.user)
        let result: AuthOutcome
        switch options.method {
        case .providerToken(let sources):
            let credential = SignInCredential(try sources.credential(context.console))
            result = try Waiting.result { user.reauthenticate(with: credential, completion: $0) }
        case .password(let email, _):
            guard let email = email ?? user.email else { throw .usage("missing --email: this user has no email address on file") }
            let password = try SecretInput.password(for: email, console: context.console)
            result = try Waiting.result { user.reauthenticate(with: EmailPassword.credential(withEmail: email, password: password), completion: $0) }
        case .provider:
            guard let flow else { return }
            result = try Waiting.result { user.reauthenticate(with: flow.provider, completion: $0) }
        }
        report(result, auth: auth, json: options.json, context: context)
    }

    private static func report(_ result: AuthOutcome, auth: AuthService, json: Bool, context: CommandContext) {
        ResultReport(context: context, json: json).print(result, summary: "Re-authenticated \(result.user.displayLabel)" + ResultReport.projectAndStore(auth))
    }

    /// `--print-url` and `--complete`: the flow is started now and completed by a later run.
    private static func reauthInTwoSteps(_ mode: FlowMode, options: Options, project: ProjectContext, context: CommandContext) throws(FBAuthError) {
        // An account that exists with another method is not this user: the library says so.
        let result = try context.runInTwoSteps(mode, purpose: .reauthenticate, command: "reauth", project: project, secondFactor: options.secondFactor) {
            (auth: AuthService) throws(FBAuthError) -> SignedInUser? in try auth.savedUser(context.globals.user)
        }
        guard let result else { return }
        report(result, auth: try context.auth(for: project), json: options.json, context: context)
    }

}

extension ReauthCommand.Method: SignInMethod {
    var browserRequest: BrowserFlowRequest? {
        if case .provider(.run(let requested)) = self { return requested }
        return nil
    }

    /// The password is stdin's first line; a code may follow.
    var opensBrowser: Bool {
        if case .password(_, let opens) = self { return opens }
        return true
    }

    var readsAllOfStandardInput: Bool {
        if case .providerToken(let sources) = self { return sources.readsStandardInput }
        return false
    }
}
