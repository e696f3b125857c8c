#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthSupport

/// How signin, link and reauth turn their flow options (`FlowMode`, `BrowserFlowRequest`, read
/// from the arguments) into the one `AuthService` they run with, in one place: the flow adjusted for
/// where it runs, its options applied to the settings, the second-factor prompt, and the two
/// steps of `--print-url` and `--complete`.
extension CommandContext {
    /// The one preamble of the sign-in commands: the browser flow checked and set up when the
    /// method has one, and the `AuthService` it runs with (the flow's options, the second-factor
    /// prompt, how to sign in again).
    func signInSetup(_ method: some SignInMethod, project: ProjectContext, secondFactor: SecondFactorOptions,
                     signInArguments: [String]? = nil) throws(FBAuthError) -> (auth: AuthService, flow: BrowserFlowRequest?) {
        let flow = try method.browserRequest.map { (requested: BrowserFlowRequest) throws(FBAuthError) in try browserRun(requested, project: project) }
        let auth = try signInAuth(for: project, flow: flow, opensBrowser: method.opensBrowser, secondFactor: secondFactor,
                                  stdinTaken: method.readsAllOfStandardInput, signInArguments: flow?.repeatArguments ?? signInArguments)
        return (auth, flow)
    }

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

    /// The `AuthService` a sign-in, link or reauthentication runs with: the browser flow's options
    /// when it runs one, the terminal's second-factor prompt (`stdinTaken`: a token read all of
    /// stdin, so a code cannot come from there), and what the sign-in records to repeat it.
    func signInAuth(for project: ProjectContext, flow: BrowserFlowRequest?, opensBrowser: Bool, secondFactor: SecondFactorOptions,
                    stdinTaken: Bool, signInArguments: [String]? = nil) throws(FBAuthError) -> AuthService {
        let prompt = secondFactorPrompt(secondFactor, stdinTaken: stdinTaken)
        return try auth(for: project, opensBrowser: flow?.openBrowser ?? opensBrowser) { settings in
            if let flow { settings.apply(flow) }
            settings.secondFactorPrompt = prompt
            settings.signInArguments = signInArguments
        }
    }

    /// `--print-url` starts the flow for `user` (`startingUser` gives it: none for a sign-in)
    /// and prints its URL: nil. `--complete` finishes the flow the address belongs to: its
    /// result. Signin, link and reauth take this same path.
    func runInTwoSteps(_ mode: FlowMode, purpose: DeferredSignInPurpose, command: String, project: ProjectContext,
                       secondFactor: SecondFactorOptions, startingUser: (AuthService) throws(FBAuthError) -> SignedInUser?) throws(FBAuthError) -> AuthOutcome? {
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
            // The redirect the flow asked for (against an emulator, a port it chose).
            let redirect = URLComponents(string: url)?.queryItems?.first { $0.name == "redirect_uri" }?.value ?? auth.loopbackRedirectURI
            console.say("Open the URL in a browser. When it has been sent to \(TerminalText.safe(redirect))?… (the page may not load), finish with:\n  fbauth \(command) --complete -\nand paste the address (an argument would show it to other users in the process list).")
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

    /// The address given to `--complete`, or read from stdin for `-`.
    func completionAddress(_ source: CompletionSource) throws(FBAuthError) -> String {
        if case .argument(let address) = source {
            console.say("fbauth: warning: the address given to --complete is visible to other users of this machine in the process list; next time use --complete - and paste it on stdin.")
            return address
        }
        guard let line = console.readLine(), !line.trimmed().isEmpty else {
            throw .usage("--complete -: no address on stdin")
        }
        return line
    }
}

extension BrowserFlowRequest {
    /// The provider as the library takes it.
    var provider: BrowserProvider {
        var provider = BrowserProvider(providerID: providerId)
        provider.scopes = scopes
        provider.customParameters = Dictionary(customParameters.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
        provider.accountEmail = email
        return provider
    }
}

extension AuthServiceSettings {
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
