#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import LoopbackHTTP

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
        let mode: FlowMode
        switch options.method {
        case .pending:
            try linkPending(context, secondFactor: options.secondFactor, json: options.json)
            return
        case .password, .emailLink, .providerToken:
            try linkCredential(options, context)
            return
        case .provider(let flowMode):
            mode = flowMode
        }
        let project = try context.project()
        let store = context.sessionStore()
        var startingUser: SessionReference?
        if let flow = mode.startOptions {
            let saved = try store.load().session(context.selector, in: project.key)
            if saved.providerData.contains(where: { $0.providerId == flow.providerId }) {
                throw .failed(.providerAlreadyLinked, "\(flow.providerId) is already linked to \(saved.displayLabel); nothing to do (unlink it first to link another \(ProviderID.displayName(of: flow.providerId)) account)")
            }
            startingUser = saved.reference
        }
        guard let prepared = try context.prepareFlow(mode, command: "link", user: startingUser, project: project, secondFactor: options.secondFactor) else { return }
        guard let user = prepared.user(startedFor: startingUser) else {
            throw .failed(.internalError, "the pending link names no user; start again with --print-url")
        }
        let refresher = context.tokenRefresher(for: project.key)
        let session = try refresher.session(.exactly(user), minValid: prepared.minValidIdToken)
        let result: BrowserSignInFlow.Result
        do throws(FBAuthError) {
            result = try prepared.result(for: .link(idToken: session.idToken))
        } catch where error.rejectsSession {
            try refresher.reject(session, because: error)
        } catch {
            throw error.explainingLink(of: prepared.providerId)
        }
        try finishLink(result, providerId: prepared.providerId, over: session, project: project, store: store, context: context, json: options.json)
    }

    /// Links a password, an email link or a provider token, without the OAuth browser flow.
    private static func linkCredential(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        let project = try context.project()
        let store = context.sessionStore()
        let refresher = context.tokenRefresher(for: project.key)
        let session = try refresher.session(context.selector, minValid: 60)
        // A token from `-` takes all of stdin; a password (or a link) only its first line.
        var tokenFromStdin = false
        if case .providerToken(let sources) = options.method { tokenFromStdin = sources.readsStandardInput }
        let credentials = CredentialSignIn(
            client: project.client, clock: context.clock, tenantId: project.tenantId,
            secondFactor: try context.secondFactorHandling(options.secondFactor, project: project, stdinTaken: tokenFromStdin))
        let providerId: String
        let result: BrowserSignInFlow.Result
        do throws(FBAuthError) {
            switch options.method {
            case .password(let email, let openBrowser):
                providerId = "password"
                if session.providerData.contains(where: { $0.providerId == "password" }) {
                    throw .failed(.providerAlreadyLinked, "\(session.displayLabel) has a password already; `fbauth password change` changes it")
                }
                let password = try SecretInput.newPassword(for: email, console: context.console)
                let withRecaptcha = credentials.with(recaptchaTokens: try context.recaptchaTokens(for: project, openBrowser: openBrowser))
                result = .signedIn(try withRecaptcha.linkPassword(email: email, password: password, idToken: session.idToken))
            case .emailLink(let emailLink):
                providerId = "emailLink"
                result = .signedIn(try context.emailLinkRecord(emailLink, purpose: .link(idToken: session.idToken), project: project,
                                                               secondFactor: credentials.secondFactor))
            case .providerToken(let sources):
                providerId = sources.providerId
                if session.providerData.contains(where: { $0.providerId == providerId }) {
                    throw .failed(.providerAlreadyLinked, "\(providerId) is already linked to \(session.displayLabel); nothing to do")
                }
                result = try credentials.providerToken(sources.credential(context.console, emulator: project.client.endpoints.isEmulator), purpose: .link(idToken: session.idToken))
            case .pending, .provider:
                return
            }
        } catch where error.rejectsSession {
            try refresher.reject(session, because: error)
        } catch {
            throw error.explainingLink(of: options.method.providerName)
        }
        try finishLink(result, providerId: providerId, over: session, project: project, store: store, context: context, json: options.json)
    }

    private static func finishLink(_ result: BrowserSignInFlow.Result, providerId: String, over session: Session, project: ProjectContext,
                                   store: SessionStore, context: CommandContext, json: Bool) throws(FBAuthError) {
        switch result {
        case .signedIn(let record):
            try saveLinked(record, over: session, project: project, store: store, context: context, clearPending: false, json: json)
        case .accountExists(let response):
            throw .accountExists(.reported(response, providerId: providerId))
        }
    }

    private static func linkPending(_ context: CommandContext, secondFactor: SecondFactorOptions, json: Bool) throws(FBAuthError) {
        let project = try context.project()
        let store = context.sessionStore()
        let contents = try store.load()
        guard let pending = contents.project(project.key)?.pendingCredential else {
            throw .signInAgain("no pending credential is saved for this project (one is saved when a sign-in ends with exit 5)")
        }
        let age = context.clock.now().timeIntervalSince(pending.savedAt)
        if age > PendingCredential.probableLifetime {
            context.console.say("The pending \(pending.providerId) credential was saved \(Int(age / 60)) minutes ago and has probably expired; trying anyway.")
        }
        let refresher = context.tokenRefresher(for: project.key)
        let session = try refresher.session(context.selector, minValid: 60)
        let record: SignInRecord
        do throws(FBAuthError) {
            let credentials = CredentialSignIn(client: project.client, clock: context.clock, tenantId: project.tenantId,
                                               secondFactor: try context.secondFactorHandling(secondFactor, project: project))
            guard case .signedIn(let linked) = try credentials.providerCredential(pending, purpose: .link(idToken: session.idToken))
            else { throw FBAuthError.failed(.accountExistsWithDifferentCredential, "linking failed: Firebase asked for confirmation again; sign in with \(pending.providerId) again") }
            record = linked
        } catch where error.rejectsSession {
            try refresher.reject(session, because: error)
        } catch {
            if case .server(let serverError, _) = error, serverError.code == "INVALID_PENDING_TOKEN" {
                try store.update { (contents: inout StoreContents) throws(FBAuthError) in
                    contents.modifyProject(project.key) { $0.pendingCredential = nil }
                }
                throw .failed(.serverRefused, "the pending \(pending.providerId) credential is no longer valid and was removed; sign in with \(pending.providerId) again [INVALID_PENDING_TOKEN]")
            }
            throw error.explainingLink(of: pending.providerId)
        }
        try saveLinked(record, over: session, project: project, store: store, context: context, clearPending: true, json: json)
    }

    /// Saves the user with the new provider and prints the result.
    private static func saveLinked(_ record: SignInRecord, over session: Session, project: ProjectContext, store: SessionStore,
                                   context: CommandContext, clearPending: Bool, json: Bool) throws(FBAuthError) {
        let linked = try SessionRenewal(store: store, project: project.key, clock: context.clock)
            .merge(record, into: session.reference, purpose: .link, clearingPending: clearPending)
        ResultReport(context: context, json: json).print(try context.auth(for: project).result(of: record, savedAs: linked), summary: "Linked \(record.method ?? "the provider") to \(linked.displayLabel)"
            + ResultReport.projectAndStore(project.key, projectId: store.projectId(of: project.key), store: store.location))
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
