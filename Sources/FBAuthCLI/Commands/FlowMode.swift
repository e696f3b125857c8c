#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth

/// What `signin`, `link` or `reauth` is asked to do with a browser flow.
enum FlowMode: Equatable {
    /// Run the whole flow now, through the browser.
    case run(FlowOptions)
    /// `--print-url`: start the flow, save it, print its authorization URL.
    case printURL(FlowOptions)
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
        let options = try FlowOptions(arguments: arguments)
        self = arguments.flag("print-url") ? .printURL(options) : .run(options)
    }

    /// Whether this starts a flow for a later `--complete`.
    var isPrintURL: Bool {
        if case .printURL = self { return true }
        return false
    }

    /// The options of a flow this command starts; nil for `--complete`.
    var startOptions: FlowOptions? {
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

/// A browser flow that needs only its purpose to produce a result: run in the browser now, or
/// the exchange of a flow `--print-url` saved and `--complete` claimed. Signin, link and reauth
/// take the same path whichever it is.
enum PreparedFlow {
    case browser(BrowserSignInFlow, FlowOptions)
    case claimed(TwoStepFlow, ClaimedFlow)

    var providerId: String {
        switch self {
        case .browser(_, let options): options.providerId
        case .claimed(_, let claimed): claimed.providerId
        }
    }

    /// The session the flow acts on: the one the command started it for, or for a claimed flow
    /// the one saved with it; nil for a sign-in.
    func user(startedFor user: SessionReference?) -> SessionReference? {
        switch self {
        case .browser: user
        case .claimed(_, let claimed): claimed.user
        }
    }

    /// How long the user's ID token must stay valid: a browser may sit on a consent screen for
    /// minutes, a claimed flow is exchanged at once.
    var minValidIdToken: TimeInterval {
        switch self {
        case .browser: 600
        case .claimed: 60
        }
    }

    func result(for purpose: FlowPurpose) throws(FBAuthError) -> BrowserSignInFlow.Result {
        switch self {
        case .browser(let flow, let options): try flow.run(options, purpose: purpose)
        case .claimed(let twoStep, let claimed): try twoStep.exchange(claimed, purpose: purpose)
        }
    }
}

extension CommandContext {
    /// Step one of every browser flow: `--print-url` starts the flow and prints its URL (nil:
    /// nothing is left to do); `--complete` claims the saved flow; otherwise the browser flow is
    /// made ready. `user` is the session a link or reauth starts for.
    func prepareFlow(_ mode: FlowMode, command: String, user: SessionReference?, project: ProjectContext,
                     secondFactor: SecondFactorOptions = SecondFactorOptions()) throws(FBAuthError) -> PreparedFlow? {
        switch mode {
        case .printURL(let options):
            try printAuthorizationURL(options, command: command, user: user, project: project)
            return nil
        case .complete(let source):
            let twoStep = try twoStepFlow(for: project, secondFactor: try secondFactorHandling(secondFactor, project: project))
            let address = try completionAddress(source)
            do throws(FBAuthError) {
                return .claimed(twoStep, try twoStep.claim(address, command: command))
            } catch where error.code == .invalidArgument {
                throw error.hinting("--complete")
            } catch where error.code == .webContextCancelled {
                throw error.hinting("`fbauth \(command) --print-url` starts one")
            }
        case .run(let requested):
            let options = try browserRun(requested, project: project)
            let secondFactor = try secondFactorHandling(secondFactor, project: project, openBrowser: options.openBrowser)
            return .browser(try browserFlow(for: project, secondFactor: secondFactor), options)
        }
    }
}

extension FlowOptions {
    /// The provider as the library takes it.
    var provider: OAuthProvider {
        var provider = OAuthProvider(providerID: providerId)
        provider.scopes = scopes
        provider.customParameters = Dictionary(customParameters.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
        provider.emulatorEmail = email
        return provider
    }
}

extension AuthSettings {
    /// A browser flow's options: how the redirect comes back, where and for how long.
    mutating func apply(_ flow: FlowOptions) {
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
    /// lacks; an emulator takes loopback redirects for every provider). The store is checked
    /// first, before the user goes through the browser.
    func browserRun(_ options: FlowOptions, project: ProjectContext) throws(FBAuthError) -> FlowOptions {
        try sessionStore().checkWritable()
        var options = options
        if !options.redirectWasChosen, options.redirect == .hostedHandler, let host = project.key.emulatorHost, settings.firebaseJSBase == nil {
            options.redirect = .loopback
            console.say("Against the Auth emulator at \(host) fbauth uses the loopback redirect (--hosted, or FBAUTH_FIREBASE_JS_URL set to a copy of the Firebase JS SDK, keeps the hosted handler).")
        }
        return options
    }
}
