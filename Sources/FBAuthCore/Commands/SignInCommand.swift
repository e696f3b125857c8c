/// `fbauth signin --provider ID [flow options]`
enum SignInCommand {
    static let spec = CommandSpec(
        name: "signin",
        summary: "Sign in with an identity provider through the browser.",
        usage: ["--provider ID [--scope S]... [--param KEY=VALUE]... [--email E] [--port N] [--timeout SECONDS]"],
        options: FlowOptionSpecs.all,
        details: """
            Runs the OAuth authorization-code flow through Firebase: fbauth listens on a loopback \
            port, asks Firebase (accounts:createAuthUri) for the provider's authorization URL, opens \
            it in the browser, receives the provider's redirect and lets Firebase exchange the code \
            (accounts:signInWithIdp). Firebase holds the provider's client secret.

            Prints the result as JSON on stdout (user, credential, additionalUserInfo, as the Firebase \
            SDK's AuthDataResult) and saves the session, which becomes the current one.
            """)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(FBAuthError) {
        try signIn(FlowOptions(arguments: arguments), context: context)
    }

    static func signIn(_ options: FlowOptions, context: CommandContext) throws(FBAuthError) {
        let project = try context.project()
        let store = context.sessionStore()
        // A store that cannot be used fails now, before the user goes through the browser.
        _ = try store.load()
        let flow = BrowserSignInFlow(
            client: project.client, browser: context.dependencies.browser, console: context.console,
            clock: context.dependencies.clock, tenantId: project.tenantId)
        switch try flow.run(options, purpose: .signIn) {
        case .signedIn(let record):
            let session = record.session()
            try store.update { (contents: inout StoreContents) throws(FBAuthError) in
                contents.save(session, in: project.key, makeCurrent: true)
            }
            context.console.writeOutput(JSONOutput.render(AuthDataResultJSON(record: record, session: session)))
            context.console.say("Signed in as \(session.email ?? session.uid) with \(record.providerId); the session is saved in \(store.filePath).")
        case .accountExists(let response):
            throw AccountExistsReport(response: response, providerId: options.providerId).error
        }
    }
}

/// The exit-5 message for `needConfirmation`.
struct AccountExistsReport {
    var response: SignInWithIdpResponse
    var providerId: String

    var error: FBAuthError {
        let email = response.email ?? "this email address"
        let methods = response.verifiedProvider.flatMap { $0.isEmpty ? nil : $0.joined(separator: ", ") }
        return .accountExists("an account already exists for \(email) with a different sign-in method"
            + (methods.map { " (\($0))" } ?? "")
            + "; sign in with that method first, then link \(providerId) to it")
    }
}
