#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthSupport

/// `fbauth demo`: the real sign-in flow against fbauth's own stand-in, for newcomers without a
/// Firebase project. Real listener, real REST calls, real JSON output, real session file.
enum DemoCommand: RunnableCommand {
    static let spec = CommandSpec(
        name: "demo",
        summary: "Run a whole browser sign-in against fbauth's local stand-in for Firebase Auth: no project needed.",
        usage: ["[--provider ID] [--email E] [--loopback] [--no-browser] [--mfa] [--timeout SECONDS] [--json]"],
        options: [
            OptionSpec("provider", value: "ID", suggestions: ProviderID.wellKnown, help: "Fake identity provider to sign in with (default yahoo.com)."),
            OptionSpec("email", value: "EMAIL", help: "Email of the fake account (default demo@ the provider's own domain, demo@yahoo.com for Yahoo; demo@example.com where it hosts none)."),
            OptionSpec("loopback", help: "Run the loopback redirect flow instead of the hosted-handler flow (the default when a browser can be opened)."),
            OptionSpec("no-browser", help: "Do not open a browser: fbauth plays the browser itself and consents (on the loopback flow)."),
            OptionSpec("mfa", help: "Then enrol a second factor (TOTP) with fbauth's built-in authenticator app, sign out, and sign in again answering it."),
            OptionSpec("timeout", value: "SECONDS", help: "How long to wait for the browser (default 300)."),
            ResultJSONOption.spec,
        ],
        details: """
            Starts the stand-in for Identity Toolkit, securetoken, Firebase's hosted handler and a \
            fake OAuth provider on 127.0.0.1, then runs `fbauth signin` against it: the hosted flow \
            (fbauth's page loads the Firebase JS SDK, from FBAUTH_FIREBASE_JS_URL or gstatic, and \
            signs in through a popup), or with --loopback the loopback redirect. The provider shows \
            a consent page with an email field, Allow and Deny. Only the hosted page's SDK comes \
            from the internet (unless FBAUTH_FIREBASE_JS_URL names a local copy), and the demo \
            says so; when the browser cannot load it (offline), the demo goes on with the \
            loopback flow. When no browser can be opened (no display, CI), fbauth says so and \
            plays the browser itself on the loopback flow, which needs no internet, so the demo \
            finishes anywhere.

            With --mfa the demo goes on with multi-factor authentication: it enrols a TOTP second \
            factor for the user (fbauth's built-in authenticator app computes its codes), signs \
            out, and signs in again, which the stand-in now answers with a second-factor challenge.

            The session is saved in a new temporary directory unless --config-dir is given.
            """)

    static let apiKey = "fbauth-demo-api-key"

    struct Options: Equatable {
        var providerId: String
        /// Nil: the stand-in's account at the provider.
        var email: String?
        var timeout: Duration
        var noBrowser: Bool
        var loopback: Bool
        var mfa = false
        var json = false
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        Options(providerId: try ProviderWords.validated(arguments.value("provider") ?? "yahoo.com"),
                email: try arguments.nonEmpty("email"),
                timeout: try arguments.seconds("timeout") ?? BrowserFlowRequest.defaultTimeout,
                noBrowser: arguments.flag("no-browser"), loopback: arguments.flag("loopback"), mfa: arguments.flag("mfa"),
                json: arguments.flag("json"))
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        guard let standIn = context.dependencies.standIn else {
            throw .failed(.internalError, "this build of fbauth does not include the local stand-in")
        }
        let (providerId, timeout) = (options.providerId, options.timeout)
        let email = options.email ?? standIn.demoAccount(at: providerId)
        let configDirectory: String
        let keepsSession = context.globals.configDirectory != nil
        if let given = context.globals.configDirectory {
            configDirectory = given
        } else {
            configDirectory = try temporaryDirectory()
        }
        // A demo leaves nothing behind unless asked to keep its session.
        defer { if !keepsSession { try? FileManager.default.removeItem(atPath: configDirectory) } }

        let running = try standIn.start(port: 0, tokenLifetime: 3600)
        defer { running.stop() }
        let console = context.console

        var dependencies = context.dependencies
        dependencies.environment["FIREBASE_AUTH_EMULATOR_HOST"] = running.hostAndPort
        let unavailable = options.noBrowser ? "--no-browser was given" : SystemBrowserLauncher.unavailability(environment: context.environment)
        var redirect: RedirectRoute = unavailable != nil || options.loopback ? .loopback : .hostedHandler
        // The hosted page loads the SDK from gstatic unless FBAUTH_FIREBASE_JS_URL names a local
        // copy: then, and on the loopback flow, nothing leaves this machine.
        let sdkHost = redirect == .hostedHandler ? Self.remoteHost(of: context.settings.firebaseJSBase) : nil
        console.say("fbauth demo: a stand-in for Firebase Auth and a fake \(providerId) provider are serving on http://\(running.hostAndPort)"
            + (sdkHost.map { "; your browser loads the Firebase JS SDK from \($0), and nothing else leaves this machine." } ?? " (nothing leaves this machine)."))
        if let unavailable {
            // The built-in browser runs no JavaScript, and the hosted page needs the SDK from the internet.
            console.say("No browser will be opened (\(unavailable)); fbauth plays the browser and clicks Allow as \(email), on the loopback redirect flow.")
            dependencies.browser = running.headlessBrowser(email: email)
        } else if redirect == .hostedHandler {
            console.say("The demo runs the hosted-handler flow: your browser opens fbauth's page, which loads the Firebase JS SDK and signs in through a popup on the stand-in's handler (--loopback for the direct redirect).")
        } else {
            console.say("The demo runs the loopback redirect flow: the fake provider sends your browser straight back to fbauth.")
        }
        var demoGlobals = GlobalOptions(apiKey: apiKey, tenantId: context.globals.tenantId, configDirectory: configDirectory)
        // A session thrown away with its temporary directory keeps its refresh token there too:
        // an item in the user's keyring would outlive it. A kept demo session goes where the
        // user's choice (or the first sign-in's) puts it.
        demoGlobals.store = keepsSession ? context.globals.store : .file
        let demoContext = try CommandContext(dependencies: dependencies, globals: demoGlobals)
        func signIn(_ redirect: RedirectRoute) -> SignInCommand.Options {
            SignInCommand.Options(method: .identityProvider(.run(BrowserFlowRequest(
                providerId: providerId, email: email, port: 0, timeout: timeout, redirect: redirect))), json: options.json)
        }
        do throws(FBAuthError) {
            try demoSignIn(signIn(redirect), options: options, running: running, context: demoContext)
        } catch where redirect == .hostedHandler && error.remedy == .loadTheSDKElsewhere {
            // Offline, the page cannot load the SDK; the loopback flow needs none.
            console.say("Your browser could not load the Firebase JS SDK\(sdkHost.map { " from \($0)" } ?? "") (offline?), so the demo runs the loopback redirect flow instead, which needs nothing from the internet.")
            redirect = .loopback
            try demoSignIn(signIn(redirect), options: options, running: running, context: demoContext)
        }
        let fbauth = CommandName.forSuggestions(environment: context.environment)
        guard keepsSession else {
            console.say("Demo complete; its stand-in has stopped and its temporary session was removed. To keep the session and use it offline afterwards:\n  \(fbauth) demo --config-dir ./fbauth-demo\n  \(fbauth) --config-dir ./fbauth-demo whoami --offline\nFor a stand-in that keeps running, use `\(fbauth) emulator`.")
            return
        }
        console.say("Demo complete; its stand-in has stopped. The saved session still answers offline:\n  \(fbauth) --config-dir \(Self.quoted(configDirectory)) whoami --offline\n  \(fbauth) --config-dir \(Self.quoted(configDirectory)) token\nFor a stand-in that keeps running, use `\(fbauth) emulator`.")
    }

    private static func demoSignIn(_ signIn: SignInCommand.Options, options: Options, running: RunningStandIn, context: CommandContext) throws(FBAuthError) {
        if options.mfa {
            try secondFactorDemo(signIn, running: running, context: context)
        } else {
            try SignInCommand.run(signIn, context)
        }
    }

    /// The host the SDK is loaded from when it is not this machine (`base` nil: gstatic).
    static func remoteHost(of base: String?) -> String? {
        let host = URL(string: base ?? "https://www.gstatic.com/firebasejs")?.host ?? "www.gstatic.com"
        return ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host) ? nil : host
    }

    /// Sign-in (its JSON kept off stdout), TOTP enrolment answered by the built-in authenticator
    /// app, sign-out, and the sign-in again with the second factor; its JSON is the demo's output.
    private static func secondFactorDemo(_ signIn: SignInCommand.Options, running: RunningStandIn, context: CommandContext) throws(FBAuthError) {
        let console = context.console
        var quiet = context
        quiet.dependencies.console = StderrOnlyConsole(console)
        try SignInCommand.run(signIn, quiet)
        let auth = try context.auth(for: context.project())
        let user = try auth.savedUser()
        console.say("Multi-factor authentication: enrolling fbauth's built-in authenticator app (TOTP) as a second factor of \(user.displayLabel).")
        let secret = try Waiting.result { user.multiFactor.generateTOTPSecret(completion: $0) }
        let authenticator = BuiltInAuthenticator(secret: secret.sharedSecretKey, running: running, console: console)
        console.say("  otpauth URI (a real authenticator app would scan it): \(secret.generateQRCodeURL(withAccountName: user.email ?? user.uid, issuer: "fbauth-demo"))")
        let code = try authenticator.code()
        _ = try Waiting.result { user.multiFactor.enroll(secret, oneTimePassword: code, displayName: "built-in authenticator", completion: $0) }
        try auth.signOut()
        console.say("Enrolled. Signed out; signing in again, which now needs the second factor too.")
        var withAuthenticator = context
        withAuthenticator.dependencies.secondFactors = authenticator
        try SignInCommand.run(signIn, withAuthenticator)
    }

    /// A path as a shell word.
    static func quoted(_ path: String) -> String {
        path.allSatisfy { $0.isLetter || $0.isNumber || "/._-+".contains($0) } ? path : "'" + path.replacing("'", with: "'\\''") + "'"
    }

    private static func temporaryDirectory() throws(FBAuthError) -> String {
        do {
            return try Platform.makeTemporaryDirectory(prefix: "fbauth-demo-")
        } catch {
            throw .store(error.description)
        }
    }
}

/// The demo's authenticator app: computes the TOTP code of the secret it was enrolled with, as
/// an app on the user's phone would, and answers the second factor with it.
struct BuiltInAuthenticator: MultiFactorPrompt {
    let secret: String
    let running: RunningStandIn
    let console: Console

    func code() throws(FBAuthError) -> String {
        guard let code = running.authenticatorCode(secret: secret) else {
            throw .failed(.internalError, "the built-in authenticator cannot read the secret")
        }
        console.say("  the built-in authenticator app shows \(code)")
        return code
    }

    func answer(_ challenge: MultiFactorChallenge) throws(FBAuthError) -> MultiFactorAnswer {
        guard let factor = challenge.hints.first(where: { $0.factorID == "totp" }) else {
            throw .failed(.internalError, "the account has no TOTP second factor for the built-in authenticator")
        }
        console.say("The stand-in asks for a second factor (\(TerminalSecondFactor.describe(factor))).")
        return try challenge.finish(with: TOTPFactorProofs.assertionForSignIn(withEnrollmentID: factor.uid, oneTimePassword: code()))
    }
}

/// A console whose stdout goes nowhere: for a step of the demo whose JSON is not the output.
struct StderrOnlyConsole: Console {
    let base: Console
    init(_ base: Console) { self.base = base }

    func writeOutput(_ text: String) {}
    func writeError(_ text: String) { base.writeError(text) }
    var isInputTerminal: Bool { base.isInputTerminal }
    var inputDescriptor: Int32 { base.inputDescriptor }
    var isErrorTerminal: Bool { base.isErrorTerminal }
    var isOutputTerminal: Bool { false }
    func readAllInput() -> Data { base.readAllInput() }
    func readLine() -> String? { base.readLine() }
    func readSecret(prompt: String) throws(FBAuthError) -> String? { try base.readSecret(prompt: prompt) }
    var outputFailure: String? { base.outputFailure }
}
