import FBAuth
/// The flow options shared by signin, link and reauth (docs/commands.md, "Flow options").
enum FlowOptionSpecs {
    /// The browser flow's options, for usage lines.
    static let usage = "[--scope S]... [--param KEY=VALUE]... [--email E] [--loopback [--redirect-host H] | --auth-domain D] [--port N] [--no-browser] [--timeout SECONDS] [--json]"
    static let twoStepUsage = "--provider ID --loopback --print-url [flow options]   then   --complete URL|-"

    static let provider = OptionSpec(
        "provider", value: "ID", suggestions: ProviderID.wellKnown,
        help: "Identity provider id: yahoo.com, microsoft.com, twitter.com, google.com, github.com, apple.com, oidc.NAME, saml.NAME, …")

    /// The flow options with `--provider` offering `extraMethods` too (signin: password,
    /// anonymous, custom; reauth: password).
    static func all(with extraMethods: [String]) -> [OptionSpec] {
        [OptionSpec("provider", value: "ID", suggestions: ProviderID.wellKnown + extraMethods, help: provider.help)] + all.dropFirst()
    }

    static let all: [OptionSpec] = [
        provider,
        OptionSpec("scope", value: "SCOPE", repeatable: true, help: "Extra OAuth scope (repeatable), e.g. Yahoo mail-r, Microsoft mail.read."),
        OptionSpec("param", value: "KEY=VALUE", repeatable: true,
                   help: "Custom OAuth parameter (repeatable), e.g. prompt=login, tenant=TENANT-ID, language=fr. client_id, redirect_uri, response_type, scope, state and response_mode are set by Firebase and refused."),
        OptionSpec("email", value: "EMAIL", help: "Account hint sent as login_hint; against the Auth emulator, the fake account's email."),
        OptionSpec("loopback", help: "Have the provider redirect straight to fbauth's listener instead of through Firebase's hosted handler (the default). Needs http://localhost:PORT/__/auth/handler registered with the provider; required by --print-url, --complete and pasted redirects."),
        OptionSpec("hosted", help: "Sign in through Firebase's hosted handler (the default, except against an Auth emulator, where fbauth takes --loopback unless FBAUTH_FIREBASE_JS_URL names a copy of the Firebase JS SDK: the page loads it from the internet)."),
        OptionSpec("auth-domain", value: "DOMAIN", help: "Domain of Firebase's hosted auth handler (default PROJECT_ID.firebaseapp.com, or FBAUTH_AUTH_DOMAIN), for projects that serve auth from their own domain."),
        OptionSpec("port", value: "PORT", help: "Port of the loopback listener (default \(BrowserFlowRequest.defaultPort), a free one against an Auth emulator; 0 picks a free port). With --loopback, register http://localhost:PORT/__/auth/handler with your provider."),
        OptionSpec("redirect-host", value: "HOST", suggestions: RedirectHost.allCases.map(\.rawValue),
                   help: "Host in the redirect URI: localhost (default), 127.0.0.1 or [::1]. The listener binds loopback addresses only."),
        OptionSpec("no-browser", help: "Do not launch a browser: print the address to open on stderr and wait (e.g. over SSH port forwarding: ssh -L PORT:localhost:PORT host)."),
        OptionSpec("timeout", value: "SECONDS", help: "How long to wait for the browser to come back (default 300)."),
    ] + twoStep
}

/// What signin, link and reauth are asked to do with a provider's browser flow: the provider as
/// the library takes it (`provider`), and how the redirect comes back (`AuthServiceSettings.apply`).
struct BrowserFlowRequest: Sendable, Equatable {
    var providerId: String
    var scopes: [String] = []
    /// `--param`, in the order given.
    var customParameters: [OptionKeyValue] = []
    /// `--email`: the account hint; against the Auth emulator, the fake account's email.
    var email: String?
    var port: UInt16 = defaultPort
    var redirectHost: RedirectHost = .localhost
    var openBrowser = true
    var timeout: Duration = defaultTimeout
    var redirect: RedirectRoute = .hostedHandler
    /// Whether `--loopback` or `--hosted` chose `redirect`; otherwise an Auth emulator gets the
    /// loopback flow (`CommandContext.browserRun`).
    var redirectWasChosen = true
    /// `--auth-domain`; nil: the setting's, else `PROJECT_ID.firebaseapp.com`.
    var authDomain: String?
    /// Whether `--port` chose `port`; otherwise an Auth emulator, which takes any loopback
    /// redirect, gets a free port (`CommandContext.browserRun`), so that two sign-ins (two CI
    /// jobs on one runner) do not collide.
    var portWasChosen = true

    /// The default listener port, fixed so users can register the redirect URI
    /// `http://localhost:8977/__/auth/handler` with their provider.
    static let defaultPort: UInt16 = 8977
    static let defaultTimeout: Duration = .seconds(300)
}

/// `--param KEY=VALUE`.
struct OptionKeyValue: Sendable, Equatable {
    var key: String
    var value: String
}

extension BrowserFlowRequest {
    /// Reads and validates the flow options; every problem is a usage error.
    init(arguments: ParsedArguments) throws(FBAuthError) {
        let providerId = try ProviderWords.validated(try arguments.required("provider", hint: "ID (e.g. --provider yahoo.com)"))
        var scopes: [String] = []
        for scope in arguments.all("scope") {
            guard !scope.isEmpty, !scope.contains(where: \.isWhitespace) else {
                throw .usage("--scope '\(scope)' must be one scope without spaces (repeat --scope for several)")
            }
            scopes.append(scope)
        }
        let parameters = try arguments.keyValues("param")
        if let reserved = parameters.first(where: { BrowserProvider.reservedParameters.contains($0.key.lowercased()) }) {
            throw .usage("--param \(reserved.key) is set by Firebase itself and cannot be passed (refused: \(BrowserProvider.reservedParameters.sorted().joined(separator: ", ")))")
        }
        let email = try arguments.nonEmpty("email")
        if let email, !email.contains("@") { throw .usage("--email '\(email)' is not an email address") }
        if providerId.hasPrefix("saml."), !scopes.isEmpty || !parameters.isEmpty {
            throw .usage("SAML providers take no OAuth scopes or parameters: leave out --scope and --param for \(providerId)")
        }
        let loopback = arguments.flag("loopback")
        if loopback, arguments.flag("hosted") { throw .usage("--loopback and --hosted are two ways of getting the redirect: give one") }
        if !loopback, arguments.flag("print-url") {
            throw .usage("--print-url needs --loopback: only the loopback redirect ends on an address that can be passed to --complete")
        }
        let authDomain = try arguments.nonEmpty("auth-domain")
        if loopback, authDomain != nil { throw .usage("--auth-domain applies to the hosted handler, not to --loopback") }
        if let authDomain, !SettingChecks.isAuthDomain(authDomain) {
            throw .usage("--auth-domain '\(authDomain)' must be a host name such as my-project.firebaseapp.com (no scheme or path)")
        }
        // X refuses `localhost` in redirect URIs and accepts 127.0.0.1 (its developer docs).
        let defaultHost: RedirectHost = loopback && providerId == "twitter.com" ? .ipv4 : .localhost
        let redirectHost = try arguments.choice("redirect-host", as: RedirectHost.self) ?? defaultHost
        if !loopback, redirectHost != .localhost {
            throw .usage("--redirect-host applies to --loopback; the hosted flow's page is always on localhost, an authorized domain of every Firebase project")
        }
        self.init(
            providerId: providerId, scopes: scopes, customParameters: parameters, email: email,
            port: try arguments.port("port") ?? BrowserFlowRequest.defaultPort,
            redirectHost: redirectHost,
            openBrowser: !arguments.flag("no-browser"),
            timeout: try arguments.seconds("timeout") ?? BrowserFlowRequest.defaultTimeout,
            redirect: loopback ? .loopback : .hostedHandler, redirectWasChosen: loopback || arguments.flag("hosted"), authDomain: authDomain,
            portWasChosen: arguments.value("port") != nil)
    }
}

extension FlowOptionSpecs {
    static let twoStep: [OptionSpec] = [
        OptionSpec("print-url", help: "Start the flow, save it, print only the authorization URL and exit (for scripts; uses --port, default \(BrowserFlowRequest.defaultPort))."),
        OptionSpec("complete", value: "URL|-", help: "Finish a flow started with --print-url, given the address the browser ended on. Use - to read it from stdin: an argument carries the code and state into the process list, where other users can read it."),
    ]
}
