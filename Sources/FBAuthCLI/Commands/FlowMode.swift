#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth

/// What `signin`, `link` or `reauth` is asked to do with a browser flow.
enum FlowMode: Equatable {
    /// Run the whole flow now, through the browser.
    case run(BrowserFlowRequest)
    /// `--print-url`: start the flow, save it, print its authorization URL.
    case printURL(BrowserFlowRequest)
    /// `--complete URL|-`: finish a flow `--print-url` saved.
    case complete(CompletionSource)

    /// Reads the flow options, or `--complete` and nothing else that would be ignored.
    init(_ arguments: ParsedArguments) throws(FBAuthError) {
        if let address = arguments.value("complete") {
            try arguments.allowOnly(["complete", "loopback"], with: "--complete")
            guard arguments.value("provider") == nil else {
                throw .usage("--complete finishes the flow --print-url started; leave out --provider")
            }
            if address == "-" {
                self = .complete(.standardInput)
            } else {
                guard !address.trimmed().isEmpty else { throw .usage("--complete needs the address the browser ended on, or - to read it from stdin") }
                self = .complete(.argument(address))
            }
            return
        }
        let options = try BrowserFlowRequest(arguments: arguments)
        self = arguments.flag("print-url") ? .printURL(options) : .run(options)
    }

    /// Whether the flow runs whole in this process (not `--print-url` or `--complete`).
    var runsNow: Bool {
        if case .run = self { return true }
        return false
    }

    /// The options of a flow this command starts; nil for `--complete`.
    var startOptions: BrowserFlowRequest? {
        switch self {
        case .run(let options), .printURL(let options): options
        case .complete: nil
        }
    }
}

/// Where `--complete` takes the address from.
enum CompletionSource: Equatable {
    case argument(String)
    /// `--complete -`, which keeps the code and state out of the process list.
    case standardInput
}

extension CommandContext {
    /// `--print-url` starts the flow for `user` (`startingUser` gives it: none for a sign-in)
    /// and prints its URL: nil. `--complete` finishes the flow the address belongs to: its
    /// result. Signin, link and reauth take this same path.
    func runInTwoSteps(_ mode: FlowMode, purpose: DeferredSignInPurpose, command: String, project: ProjectContext,
                       secondFactor: SecondFactorOptions, startingUser: (Auth) throws(FBAuthError) -> User?) throws(FBAuthError) -> AuthDataResult? {
        switch mode {
        case .run:
            return nil
        case .printURL(let options):
            let auth = try auth(for: project) { $0.apply(options) }
            let user = try startingUser(auth)
            let url: String
            do throws(FBAuthError) {
                url = try Waiting.result { auth.startSignIn(with: options.provider, purpose: purpose, user: user, completion: $0) }
            } catch where options.port == 0 && error.code == .invalidArgument {
                throw error.hinting("--print-url needs --port N")
            } catch where error.code == .operationNotAllowed {
                throw error.hinting("run `fbauth \(command)` without --print-url")
            }
            console.writeOutput(url + "\n")
            console.say("Open the URL in a browser. When it has been sent to \(auth.loopbackRedirectURI)?… (the page may not load), finish with:\n  fbauth \(command) --complete -\nand paste the address (an argument would show it to other users in the process list).")
            return nil
        case .complete(let source):
            let prompt = secondFactorPrompt(secondFactor)
            let auth = try auth(for: project) { $0.secondFactorPrompt = prompt }
            let address = try completionAddress(source)
            do throws(FBAuthError) {
                return try Waiting.result { auth.completeSignIn(withRedirectURL: address, purpose: purpose, completion: $0) }
            } catch where error.code == .invalidArgument {
                throw error.hinting("--complete")
            } catch where error.code == .webContextCancelled {
                throw error.hinting("`fbauth \(command) --print-url` starts one")
            }
        }
    }
}

extension BrowserFlowRequest {
    /// The provider as the library takes it.
    var provider: OAuthProvider {
        var provider = OAuthProvider(providerID: providerId)
        provider.scopes = scopes
        provider.customParameters = Dictionary(customParameters.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
        provider.accountEmail = email
        return provider
    }
}

extension AuthSettings {
    /// A browser flow's options: how the redirect comes back, where and for how long.
    mutating func apply(_ flow: BrowserFlowRequest) {
        redirect = flow.redirect
        port = flow.port
        redirectHost = flow.redirectHost
        timeout = flow.timeout
        opensBrowser = flow.openBrowser
        if let domain = flow.authDomain { authDomain = domain }
    }
}

extension CommandContext {
    /// The browser flow this command runs now: against an Auth emulator without a local copy of
    /// the Firebase JS SDK, the loopback redirect unless the hosted one was asked for (the
    /// hosted page loads the SDK from the internet, which a test against an emulator often
    /// lacks; an emulator takes loopback redirects for every provider).
    func browserRun(_ options: BrowserFlowRequest, project: ProjectContext) throws(FBAuthError) -> BrowserFlowRequest {
        var options = options
        if !options.redirectWasChosen, options.redirect == .hostedHandler, let host = project.emulatorHost, settings.firebaseJSBase == nil {
            options.redirect = .loopback
            console.say("Against the Auth emulator at \(host) fbauth uses the loopback redirect (--hosted, or FBAUTH_FIREBASE_JS_URL set to a copy of the Firebase JS SDK, keeps the hosted handler).")
        }
        // 8977 is the port registered with providers in production; an emulator takes any.
        if !options.portWasChosen, project.emulatorHost != nil { options.port = 0 }
        return options
    }
}

extension CommandContext {
    /// The `Auth` a sign-in, link or reauthentication runs with: the browser flow's options
    /// when it runs one, the terminal's second-factor prompt (`stdinTaken`: a token read all of
    /// stdin, so a code cannot come from there), and what the sign-in records to repeat it.
    func signInAuth(for project: ProjectContext, flow: BrowserFlowRequest?, opensBrowser: Bool, secondFactor: SecondFactorOptions,
                    stdinTaken: Bool, signInArguments: [String]? = nil) throws(FBAuthError) -> Auth {
        let prompt = secondFactorPrompt(secondFactor, stdinTaken: stdinTaken)
        return try auth(for: project, opensBrowser: flow?.openBrowser ?? opensBrowser) { settings in
            if let flow { settings.apply(flow) }
            settings.secondFactorPrompt = prompt
            settings.signInArguments = signInArguments
        }
    }
}
