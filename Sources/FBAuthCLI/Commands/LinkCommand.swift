#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth

/// `fbauth link`: adds a provider to the current user, through the browser or from the
/// credential saved by an "account exists" failure.
enum LinkCommand: RunnableCommand {
    static let spec = CommandSpec(
        name: "link",
        summary: "Link another identity provider to the current user.",
        usage: [
            "--provider ID " + FlowOptionSpecs.usage, FlowOptionSpecs.twoStepUsage, "--pending",
            "--provider password --email E [--no-browser]",
            "--provider emailLink --email E [--link FILE|-] [--port N] [--timeout SECONDS]",
            "--provider ID --id-token-file FILE|- [--nonce N] | --access-token-file FILE|- [--token-secret-file FILE|-]",
        ],
        options: FlowOptionSpecs.all(with: ["password", "emailLink"]) + [
            OptionSpec("pending", help: "Link the credential saved when a sign-in ended with exit 5 (account exists with a different credential)."),
        ] + CredentialOptions.tokenSpecs + CredentialOptions.emailLinkSpecs + SecondFactorOptions.specs + [ResultJSONOption.spec],
        details: """
            Runs the same browser flow as signin with the current user's ID token, so Firebase adds \
            the provider to that user. Refuses at once when the provider is already linked.

            --pending links the provider credential that a sign-in saved when its email already \
            belonged to another account: sign in to that account first, then run it.

            --provider password adds an email and password to the user (the password is read as \
            signup reads it), as linkWithCredential(EmailAuthProvider.credential(...)) does; \
            --provider emailLink links an email through a mailed link, as signin does; \
            --id-token-file and --access-token-file link a provider token held already.

            Examples:
              fbauth link --provider github.com
              fbauth signin --provider password --email pat@example.com && fbauth link --pending
            """)

    struct Options: Equatable {
        var method: Method
        var secondFactor = SecondFactorOptions()
        /// `--json`: the whole result on stdout even on a terminal.
        var json = false
    }

    enum Method: Equatable {
        /// `--pending`: the credential an "account exists" sign-in saved.
        case pending
        case provider(FlowMode)
        case password(email: String, openBrowser: Bool)
        case emailLink(CredentialOptions.EmailLink)
        case providerToken(CredentialOptions.TokenSources)
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        Options(method: try method(arguments), secondFactor: try SecondFactorOptions(arguments), json: arguments.flag("json"))
    }

    static func method(_ arguments: ParsedArguments) throws(FBAuthError) -> Method {
        switch arguments.value("provider") {
        case "password" where !arguments.flag("pending"):
            try arguments.allowOnly(["email", "no-browser"], with: "--provider password")
            return .password(email: try EmailOption.required(arguments), openBrowser: !arguments.flag("no-browser"))
        case "emailLink" where !arguments.flag("pending"):
            try arguments.allowOnly(["email", "link", "port", "timeout", "no-browser"], with: "--provider emailLink")
            return .emailLink(try CredentialOptions.EmailLink(arguments))
        case let provider? where CredentialOptions.givesToken(arguments) && !arguments.flag("pending"):
            try arguments.allowOnly(Set(CredentialOptions.tokenOptionNames), with: "a provider token")
            return .providerToken(try CredentialOptions.TokenSources(arguments, providerId: provider))
        default:
            break
        }
        guard arguments.flag("pending") else {
            try arguments.allowOnly(Set(FlowOptionSpecs.all.map(\.name) + FlowOptionSpecs.twoStep.map(\.name)), with: "--provider \(arguments.value("provider") ?? "ID")")
            return .provider(try FlowMode(arguments))
        }
        try arguments.allowOnly([], with: "--pending")
        if arguments.value("provider") != nil { throw .usage("--pending links the saved credential; leave out --provider") }
        return .pending
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        let project = try context.project()
        if case .provider(let mode) = options.method, !mode.runsNow {
            try linkInTwoSteps(mode, options: options, project: project, context: context)
            return
        }
        let (auth, flow) = try context.signInSetup(options.method, project: project, secondFactor: options.secondFactor)
        let user = try auth.savedUser(context.globals.user)
        let result = try AccountExistsHandling.handling(.report, auth: auth, context: context) { () throws(FBAuthError) -> AuthOutcome? in
            switch options.method {
            case .pending:
                guard let kept = auth.keptCredential else {
                    throw .signInAgain("no pending credential is saved for this project (one is saved when a sign-in ends with exit 5)")
                }
                let age = context.clock.now().timeIntervalSince(kept.savedAt)
                if age > KeptCredential.probableLifetime {
                    context.console.say("The pending \(kept.credential.providerID) credential was saved \(Int(age / 60)) minutes ago and has probably expired; trying anyway.")
                }
                return try Waiting.result { user.linkKeptCredential(completion: $0) }
            case .provider:
                guard let flow else { return nil }
                try refuseLinked(flow.providerId, to: user, alternative: "unlink it first to link another \(ProviderID.displayName(of: flow.providerId)) account")
                return try Waiting.result { user.link(with: flow.provider, completion: $0) }
            case .password(let email, _):
                if user.providerData.contains(where: { $0.providerID == "password" }) {
                    throw .failed(.providerAlreadyLinked, "\(user.displayLabel) has a password already; `fbauth password change` changes it")
                }
                let password = try SecretInput.newPassword(for: email, console: context.console)
                return try Waiting.result { user.link(with: EmailPassword.credential(withEmail: email, password: password), completion: $0) }
            case .emailLink(let link):
                let credential = try link.credential(context.console)
                return try Waiting.result { user.link(with: credential, completion: $0) }
            case .providerToken(let sources):
                try refuseLinked(sources.providerId, to: user, alternative: nil)
                let credential = SignInCredential(try sources.credential(context.console))
                return try Waiting.result { user.link(with: credential, completion: $0) }
            }
        }
        guard let result else { return }
        report(result, auth: auth, json: options.json, context: context)
    }

    /// A provider linked already is refused at once: nothing to do.
    private static func refuseLinked(_ providerId: String, to user: SignedInUser, alternative: String?) throws(FBAuthError) {
        guard user.providerData.contains(where: { $0.providerID == providerId }) else { return }
        throw .failed(.providerAlreadyLinked, "\(providerId) is already linked to \(user.displayLabel); nothing to do" + (alternative.map { " (\($0))" } ?? ""))
    }

    private static func report(_ result: AuthOutcome, auth: AuthService, json: Bool, context: CommandContext) {
        ResultReport(context: context, json: json).print(result, summary: "Linked \(result.additionalUserInfo?.providerID ?? "the provider") to \(result.user.displayLabel)"
            + ResultReport.projectAndStore(auth))
    }

    /// `--print-url` and `--complete`: the flow is started now and completed by a later run.
    private static func linkInTwoSteps(_ mode: FlowMode, options: Options, project: ProjectContext, context: CommandContext) throws(FBAuthError) {
        let auth = try context.auth(for: project)
        let result = try AccountExistsHandling.handling(.report, auth: auth, context: context) { () throws(FBAuthError) -> AuthOutcome? in
            try context.runInTwoSteps(mode, purpose: .link, command: "link", project: project, secondFactor: options.secondFactor) { (auth: AuthService) throws(FBAuthError) -> SignedInUser? in
                let user = try auth.savedUser(context.globals.user)
                if let flow = mode.startOptions {
                    try refuseLinked(flow.providerId, to: user, alternative: "unlink it first to link another \(ProviderID.displayName(of: flow.providerId)) account")
                }
                return user
            }
        }
        guard let result else { return }
        report(result, auth: auth, json: options.json, context: context)
    }
}

extension LinkCommand.Method {
    /// The provider being linked, for messages.
    var providerName: String {
        switch self {
        case .pending, .provider: "the provider"
        case .password: "password"
        case .emailLink: "emailLink"
        case .providerToken(let sources): sources.providerId
        }
    }
}

extension LinkCommand.Method: SignInMethod {
    var browserRequest: BrowserFlowRequest? {
        if case .provider(.run(let requested)) = self { return requested }
        return nil
    }

    var opensBrowser: Bool {
        switch self {
        case .password(_, let opens): opens
        case .emailLink(let link): link.openBrowser
        case .pending, .provider, .providerToken: true
        }
    }

    /// A password or a link takes only stdin's first line.
    var readsAllOfStandardInput: Bool {
        if case .providerToken(let sources) = self { return sources.readsStandardInput }
        return false
    }
}
