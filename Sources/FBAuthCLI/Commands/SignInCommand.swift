#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthSupport
import FBAuthVerification
/// `fbauth signin --provider ID [flow options]`, and the browserless methods
/// `--provider password|anonymous|custom`.
enum SignInCommand: RunnableCommand {
    static let startsSession = true
    static let spec = CommandSpec(
        name: "signin",
        summary: "Sign in with an identity provider through the browser (or a password, an email link, a provider token, anonymously, a custom token).",
        usage: [
            "--provider ID " + FlowOptionSpecs.usage,
            FlowOptionSpecs.twoStepUsage,
            "--provider password --email E [--no-browser]",
            "--provider emailLink --email E [--link FILE|-] [--port N] [--timeout SECONDS]",
            "--provider ID --id-token-file FILE|- [--nonce N] | --access-token-file FILE|- [--token-secret-file FILE|-]",
            "--provider anonymous",
            "--provider custom --token-file FILE|-",
            "--as UID [--claims JSON]",
        ],
        options: FlowOptionSpecs.all(with: ["password", "emailLink", "anonymous", "custom"]) + [
            OptionSpec("token-file", value: "FILE", help: "With --provider custom: the file holding the custom token (- reads stdin)."),
            OptionSpec("as", value: "UID", help: "Sign in as the user UID, with a custom token minted by the Admin credentials found (debugging as a user)."),
            OptionSpec("claims", value: "JSON", help: "With --as: developer claims for the session's ID tokens (a JSON object, as createCustomToken takes)."),
        ] + CredentialOptions.tokenSpecs + CredentialOptions.emailLinkSpecs + SecondFactorOptions.specs + [ResultJSONOption.spec],
        details: """
            Runs the OAuth authorization-code flow through Firebase. By default the browser opens \
            fbauth's page on http://localhost:PORT, which starts the Firebase JS SDK's popup sign-in: \
            Firebase's hosted handler (https://PROJECT.firebaseapp.com/__/auth/handler, registered \
            with every provider) receives the provider's redirect, the page hands the result to \
            fbauth, and fbauth lets Firebase exchange the code (accounts:signInWithIdp). With \
            --loopback the provider redirects straight to fbauth (accounts:createAuthUri with \
            http://localhost:PORT/__/auth/handler, which must be registered with the provider). \
            Firebase holds the provider's client secret.

            --provider password reads the password from stdin when stdin is not a terminal, else \
            prompts without echo; never from arguments or the environment. Where the project \
            protects email/password with reCAPTCHA Enterprise, fbauth's page in the browser gets \
            the token first (--no-browser shows its address instead).

            --provider emailLink has Firebase mail a sign-in link whose continue URL is fbauth's \
            listener (http://localhost:PORT/__/auth/emailLink, localhost being an authorized \
            domain): opening it on this machine completes the sign-in; elsewhere, paste the link \
            (or the address it ended on) into the terminal. --link FILE|- signs in with a link \
            received earlier. The wait lasts --timeout seconds (default 600).

            --id-token-file or --access-token-file signs in with a token the provider gave you \
            elsewhere (Google Sign-In, Sign in with Apple with its raw --nonce, a CI's OpenID \
            Connect token for an oidc.* provider, GitHub, Facebook, X with --token-secret-file), \
            as OAuthProvider.credential(...) does. Tokens are read from files or stdin, never from \
            arguments. Firebase takes no Yahoo or Microsoft tokens: those sign in through the \
            browser.

            Saves the session, which becomes the current one, and says who signed in, on which \
            project and where the session is kept. The whole result — user, credential, \
            additionalUserInfo, as the Firebase SDK's AuthDataResult, tokens included — is printed \
            as JSON on stdout with --json, or whenever stdout is not a terminal (scripts). When the \
            email already belongs to an account with other sign-in methods, fbauth saves the \
            provider's credential and exits 5: sign in to that account, then run `fbauth link --pending`.

            An account with a second factor (multi-factor authentication) asks for it after the \
            first: fbauth lists the enrolled factors and reads the code without echo (an \
            authenticator app's, or the SMS's after a reCAPTCHA step in the browser); scripts give \
            --mfa-factor and --mfa-code-file.

            --as UID signs in as that user, as a developer debugging what a user sees: fbauth \
            mints a custom token for UID (with --claims as its developer claims) as \
            firebase-admin's createCustomToken does, signed by the Admin credentials it finds — \
            GOOGLE_APPLICATION_CREDENTIALS's service account key, or on Google's clouds the \
            attached service account through IAM signBlob; unsigned against an emulator — and \
            signs in with it. The session's ID tokens carry the claim fbauth_impersonated_by, \
            naming the service account that minted it, so a server can tell such sessions. \
            Without Admin credentials it is refused, naming where it looked.

            Examples:
              fbauth signin --provider yahoo.com
              fbauth signin --provider microsoft.com --param tenant=contoso.onmicrosoft.com --scope mail.read
              fbauth signin --provider password --email ada@example.com < password.txt
              fbauth signin --provider emailLink --email ada@example.com
              fbauth signin --provider oidc.github-actions --id-token-file "$TOKEN_FILE"
            """,
        aliases: ["login"])

    struct Options: Equatable {
        var method: Method
        /// How a second factor is chosen and its code read, when the account has one.
        var secondFactor = SecondFactorOptions()
        /// `--json`: the whole result on stdout even on a terminal.
        var json = false
    }

    /// How to sign in.
    enum Method: Equatable {
        case identityProvider(FlowMode)
        case password(email: String, openBrowser: Bool)
        case emailLink(CredentialOptions.EmailLink)
        case providerToken(CredentialOptions.TokenSources)
        case anonymous
        case customToken(source: String)
        /// `--as UID [--claims JSON]`: a custom token minted here with Admin credentials.
        case impersonation(Impersonation)
    }

    /// Who `--as` signs in as, and the developer claims it asks for, checked before anything is
    /// minted.
    struct Impersonation: Equatable {
        /// The developer claim that marks an impersonated session: the minting service account.
        static let marker = "fbauth_impersonated_by"
        let uid: String
        let claims: [String: JSONValue]

        init(uid: String, claimsText: String?) throws(FBAuthError) {
            // Counted in UTF-16 units, as firebase-admin's createCustomToken counts (JavaScript's
            // `length`): an emoji is two. Bidirectional formatting characters would make the
            // uid read as another on a terminal, as --display-name refuses them.
            guard (1...128).contains(uid.utf16.count), !uid.unicodeScalars.contains(where: { TextChecks.isControl($0) || TextChecks.isBidiControl($0) }) else {
                throw .usage("--as '\(TerminalText.safe(String(uid.prefix(40))))' is not a uid: 1 to 128 characters (UTF-16 units, as Firebase counts), no control or bidirectional formatting characters")
            }
            self.uid = uid
            guard let claimsText else {
                claims = [:]
                return
            }
            guard claimsText.utf8.count <= 1000, case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: Data(claimsText.utf8)) else {
                throw .usage("--claims must be a JSON object of at most 1000 characters, such as '{\"admin\":true}'")
            }
            if let reserved = object.keys.sorted().first(where: { CustomTokenMinter.reservedClaims.contains($0) || $0 == Self.marker }) {
                throw .usage("--claims may not set \"\(TerminalText.safe(reserved))\": it is reserved")
            }
            claims = object
        }
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        Options(method: try method(arguments), secondFactor: try SecondFactorOptions(arguments), json: arguments.flag("json"))
    }

    static func method(_ arguments: ParsedArguments) throws(FBAuthError) -> Method {
        if let uid = arguments.value("as") {
            guard arguments.value("provider") == nil else { throw .usage("--as signs in as one of the project's users and takes no --provider") }
            try arguments.allowOnly([], with: "--as")
            return .impersonation(try Impersonation(uid: uid, claimsText: arguments.value("claims")))
        }
        if arguments.value("claims") != nil { throw .usage("--claims goes with --as UID") }
        if arguments.value("complete") != nil { return .identityProvider(try FlowMode(arguments)) }
        let provider = try arguments.required("provider", hint: "ID (e.g. --provider yahoo.com)")
        switch provider {
        case "password":
            try arguments.allowOnly(["email", "no-browser"], with: "--provider password")
            return .password(email: try EmailOption.required(arguments), openBrowser: !arguments.flag("no-browser"))
        case "emailLink":
            try arguments.allowOnly(["email", "link", "port", "timeout", "no-browser"], with: "--provider emailLink")
            return .emailLink(try CredentialOptions.EmailLink(arguments))
        case "anonymous":
            try arguments.allowOnly([], with: "--provider anonymous")
            return .anonymous
        case "custom":
            try arguments.allowOnly(["token-file"], with: "--provider custom")
            return .customToken(source: try arguments.required("token-file", hint: "FILE (or - for stdin)"))
        default:
            if arguments.value("token-file") != nil { throw .usage("--token-file applies only to --provider custom") }
            if CredentialOptions.givesToken(arguments) {
                try arguments.allowOnly(Set(CredentialOptions.tokenOptionNames), with: "a provider token")
                return .providerToken(try CredentialOptions.TokenSources(arguments, providerId: provider))
            }
            try arguments.allowOnly(Set(FlowOptionSpecs.all.map(\.name) + FlowOptionSpecs.twoStep.map(\.name)), with: "--provider \(provider)")
            return .identityProvider(try FlowMode(arguments))
        }
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        let project = try context.project()
        if case .identityProvider(let mode) = options.method, !mode.runsNow {
            try runInTwoSteps(mode, options: options, project: project, context: context)
            return
        }
        let (auth, flow) = try context.signInSetup(options.method, project: project, secondFactor: options.secondFactor,
                                                   signInArguments: options.method.repeatArguments)
        let credential: SignInCredential?
        switch options.method {
        case .identityProvider:
            credential = nil
        case .password(let email, _):
            try auth.checkSessionsWritable()
            credential = EmailPassword.credential(withEmail: email, password: try SecretInput.password(for: email, console: context.console))
        case .emailLink(let link):
            try auth.checkSessionsWritable()
            credential = try link.credential(context.console)
        case .providerToken(let sources):
            try auth.checkSessionsWritable()
            credential = SignInCredential(try sources.credential(context.console))
        case .anonymous, .customToken, .impersonation:
            try auth.checkSessionsWritable()
            credential = nil
        }
        let result = try AccountExistsHandling.handling(.keep, auth: auth, context: context) { () throws(FBAuthError) -> AuthOutcome? in
            switch options.method {
            case .identityProvider:
                guard let flow else { return nil }
                try sayWhenSignedInAlready(with: flow.providerId, auth: auth, context: context)
                return try Waiting.result { auth.signIn(with: flow.provider, completion: $0) }
            case .anonymous:
                return try Waiting.result { auth.signInAnonymously(completion: $0) }
            case .customToken(let source):
                let token = try SecretInput.customToken(from: source, console: context.console)
                return try Waiting.result { auth.signIn(withCustomToken: token, completion: $0) }
            case .impersonation(let who):
                let token = try impersonationToken(who, tenantId: project.tenantId, context: context)
                return try Waiting.result { auth.signIn(withCustomToken: token, completion: $0) }
            case .password, .emailLink, .providerToken:
                guard let credential else { return nil }
                return try Waiting.result { auth.signIn(with: credential, completion: $0) }
            }
        }
        guard let result else { return }
        report(result, auth: auth, json: options.json, context: context, how: options.method.how(result))
    }

    /// `--as`: a custom token for the user, minted with the Admin credentials found (unsigned
    /// against an emulator), its claims marked with the service account that minted it.
    private static func impersonationToken(_ who: Impersonation, tenantId: String?, context: CommandContext) throws(FBAuthError) -> String {
        let minter = CustomTokenMinter(emulator: context.settings.emulatorHost != nil, credentials: .applicationDefault(environment: context.environment),
                                       transport: context.dependencies.transport, clock: context.clock)
        do {
            return try minter.mint(uid: who.uid, claims: who.claims, tenantId: tenantId, markedWith: Impersonation.marker).token
        } catch {
            throw .failed(error.blame == .unavailable ? .networkError : .operationNotAllowed, TerminalText.safe(error.message))
        }
    }

    /// `--print-url` and `--complete`: the flow is started now and completed by a later run.
    private static func runInTwoSteps(_ mode: FlowMode, options: Options, project: ProjectContext, context: CommandContext) throws(FBAuthError) {
        let auth = try context.auth(for: project)
        let result = try AccountExistsHandling.handling(.keep, auth: auth, context: context) { () throws(FBAuthError) -> AuthOutcome? in
            try context.runInTwoSteps(mode, purpose: .signIn, command: "signin", project: project, secondFactor: options.secondFactor) { _ in nil }
        }
        guard let result else { return }
        report(result, auth: auth, json: options.json, context: context)
    }

    /// Prints a sign-in's result and where its session is kept; `how` words the method
    /// (" with yahoo.com"), else the result's provider names it.
    static func report(_ result: AuthOutcome, auth: AuthService, json: Bool, context: CommandContext, how: String? = nil) {
        ResultReport(context: context, json: json).print(result, summary: "Signed in as \(result.user.displayLabel)"
            + (how ?? result.additionalUserInfo.map { " with \($0.providerID)" } ?? "")
            + ResultReport.projectAndStore(auth))
    }

    /// Signing in again with a provider the current user already has is allowed (another account
    /// may sign in), but worth a word.
    private static func sayWhenSignedInAlready(with providerId: String, auth: AuthService, context: CommandContext) throws(FBAuthError) {
        guard let current = auth.currentUser, current.providerData.contains(where: { $0.providerID == providerId }) else { return }
        context.console.say("\(current.displayLabel) is signed in already with \(providerId); signing in again. If another account signs in, it becomes the current session (\(current.displayLabel) stays saved: `fbauth use` switches back).")
    }
}

extension ParsedArguments {
    /// Refuses browser-flow options that a browserless method would silently ignore.
    func allowOnly(_ allowed: Set<String>, with method: String) throws(FBAuthError) {
        let flowOnly = (FlowOptionSpecs.all + CredentialOptions.tokenSpecs + CredentialOptions.emailLinkSpecs).map(\.name).filter { $0 != "provider" } + ["token-file"]
        if let stray = flowOnly.first(where: { !allowed.contains($0) && (values[$0] != nil || flags.contains($0)) }) {
            throw .usage("--\(stray) does not apply to \(method)")
        }
    }
}

extension SignInCommand.Method: SignInMethod {
    var browserRequest: BrowserFlowRequest? {
        if case .identityProvider(.run(let requested)) = self { return requested }
        return nil
    }

    var opensBrowser: Bool {
        switch self {
        case .password(_, let opens): opens
        case .emailLink(let link): link.openBrowser
        case .identityProvider, .providerToken, .anonymous, .customToken, .impersonation: true
        }
    }

    var readsAllOfStandardInput: Bool {
        switch self {
        case .providerToken(let sources): sources.readsStandardInput
        case .customToken(let source): source == "-"
        case .identityProvider, .password, .emailLink, .anonymous, .impersonation: false
        }
    }

    /// How the summary names the method. An email link's result says `password`, as the
    /// SDKs' `additionalUserInfo.providerId` does, which would read as a password typed.
    func how(_ result: AuthOutcome) -> String {
        switch self {
        case .password: " with a password"
        case .emailLink: " with an email link"
        case .anonymous: " anonymously"
        case .customToken: " with a custom token"
        case .impersonation: " with a custom token minted for it (--as)"
        case .identityProvider, .providerToken: result.additionalUserInfo.map { " with \($0.providerID)" } ?? ""
        }
    }

    /// The options that sign in this way again (files named by placeholders).
    var repeatArguments: [String] {
        switch self {
        case .identityProvider(let mode): mode.startOptions?.repeatArguments ?? ["--provider", "ID", "--loopback"]
        case .password: ["--provider", "password"]
        case .emailLink: ["--provider", "emailLink"]
        case .providerToken(let sources):
            ["--provider", sources.providerId] + (sources.idTokenFile != nil ? ["--id-token-file", "FILE"] : ["--access-token-file", "FILE"])
                + (sources.secretFile != nil ? ["--token-secret-file", "FILE"] : [])
        case .anonymous: ["--provider", "anonymous"]
        case .customToken: ["--provider", "custom", "--token-file", "FILE"]
        case .impersonation(let who): ["--as", who.uid]
        }
    }
}
