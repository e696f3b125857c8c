#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP
import FBAuthSupport

/// The OAuth authorization-code flow run through Firebase. By default through Firebase's hosted
/// handler (`HostedHandlerFlow`); with `--loopback`: listen on loopback → `createAuthUri` →
/// open `authUri` → receive the redirect → `signInWithIdp` with the URL exactly as received →
/// answer the browser → `accounts:lookup`. Either way Firebase holds the provider's client
/// secret and performs the code exchange.
internal struct BrowserSignInFlow: Sendable {
    let client: FirebaseAuthClient
    let browser: BrowserLauncher
    let observer: SignInObserver
    let clock: WallClock
    let tenantId: String?
    var interrupts: InterruptSource = NoInterrupts()
    /// When to show the URL again if nothing has arrived.
    var hintAfter: Duration = .seconds(30)
    /// How the flow presents itself and whom it lets in, fixed when it is made.
    let settings: BrowserFlowSettings
    /// Who completes a sign-in that needs a second factor; nil: such a sign-in fails.
    let secondFactor: SecondFactorHandling?

    internal init(client: FirebaseAuthClient, browser: BrowserLauncher, observer: SignInObserver, clock: WallClock,
                 tenantId: String?, interrupts: InterruptSource = NoInterrupts(), settings: BrowserFlowSettings = BrowserFlowSettings(),
                 secondFactor: SecondFactorHandling? = nil) {
        self.client = client
        self.browser = browser
        self.observer = observer
        self.clock = clock
        self.tenantId = tenantId
        self.interrupts = interrupts
        self.settings = settings
        self.secondFactor = secondFactor
    }

    var showsWaitingLine: Bool { settings.showsWaitingLine }
    var firebaseJSBase: String { settings.firebaseJSBase }
    var authDomain: String? { settings.authDomain }
    var projectId: String? { settings.projectId }
    var secrets: SecretTokens { settings.secrets }
    var launchDirectory: String? { settings.launchDirectory }
    var headless: HeadlessAdvice { settings.headless }
    var listenerGuard: ListenerGuard { settings.listenerGuard }

    internal typealias Result = SignInResult

    internal typealias Authorization = ProviderAuthorization

    /// Runs the whole flow in this process: listener, browser, wait, exchange.
    internal func run(_ options: FlowOptions, purpose: FlowPurpose) throws(FBAuthError) -> Result {
        // Ctrl-C is watched from the start: one pressed while the advice is on the screen,
        // before the wait begins, ends the sign-in as one pressed during the wait does (exit 4,
        // listener closed, launch page removed) instead of killing the process.
        let held = HeldInterrupts(beginning: interrupts)
        defer { held.endUnused() }
        var flow = self
        flow.interrupts = held
        switch options.redirect {
        case .hostedHandler: return try HostedHandlerFlow(flow: flow).run(options, purpose: purpose)
        case .loopback: return try flow.runLoopback(options, purpose: purpose)
        }
    }

    /// The loopback redirect: the provider sends the browser straight to the listener.
    func runLoopback(_ options: FlowOptions, purpose: FlowPurpose) throws(FBAuthError) -> Result {
        // Listen first: the redirect URI, port included, goes into createAuthUri.
        let receiver = try RedirectReceiver(port: options.port, host: options.redirectHost, guard: listenerGuard)
        defer { receiver.close() }
        guard let authorization = try authorize(options, redirectURI: receiver.redirectURI) else {
            receiver.close()
            return try EmulatorClaimsSignIn(client: client, observer: observer, clock: clock, tenantId: tenantId, secondFactor: secondFactor, words: headless.words)
                .run(options, purpose: purpose)
        }
        // After createAuthUri: Google's emulator (501 above) takes any redirect host.
        try AuthorizedDomains.require(options.redirectHost.rawValue, config: client.projectConfig())
        // The browser fbauth opens is led to a one-time address through a page only this user
        // can read (StartGate, LaunchPage); with --no-browser the user takes the authorization
        // URL elsewhere, and its state is the only check (a pasted or port-forwarded redirect
        // carries no cookie).
        var gate = options.openBrowser
            ? StartGate(nonce: secrets.make(bytes: 16), cookie: secrets.make(bytes: 32),
                        authority: "\(options.redirectHost.rawValue):\(receiver.port)")
            : nil
        let (launched, page) = try present(authorization.authURI, gate: &gate, options: options, receiver: receiver)
        defer { page?.remove() }
        var waiter = CallbackWaiter(
            receiver: receiver, matcher: authorization.matcher, authorizationURL: authorization.authURI,
            observer: observer, interrupts: interrupts, hintAfter: hintAfter,
            launched: launched, showsStatusLine: showsWaitingLine, words: headless.words)
        waiter.gate = gate
        waiter.launchPage = page
        let callback = try waiter.wait(timeout: options.timeout)
        return try exchange(callback, authorization: authorization, providerId: options.providerId, purpose: purpose)
    }

    /// `createAuthUri` for this redirect URI; nil when the server is the official Auth
    /// emulator, which does not run identity-provider redirects (it answers 501).
    func authorize(_ options: FlowOptions, redirectURI: String) throws(FBAuthError) -> Authorization? {
        let answer: CreateAuthUriResponse
        do {
            answer = try client.createAuthUri(CreateAuthUriRequest(
                providerId: options.providerId, continueUri: redirectURI,
                customParameter: options.customParameterObject, oauthScope: options.oauthScope, tenantId: tenantId,
                authFlowType: options.authFlowType))
        } catch .server(let error, _) where error.httpStatus == 501 && client.endpoints.isEmulator {
            return nil
        }
        guard let authURI = answer.authUri, let sessionId = answer.sessionId else {
            throw .badResponse(host: client.endpoints.identityToolkitHost, reason: "createAuthUri returned no authUri or sessionId")
        }
        try checkAuthorizationURL(authURI)
        return Authorization(authURI: authURI, sessionId: sessionId, redirectURI: redirectURI)
    }

    /// What the browser is given must be a provider's https page (or the emulator's own), and
    /// must carry the value the redirect will be matched on: without `state` (OAuth 2) or
    /// `oauth_token` (OAuth 1.0a), any request to the listener would be taken as the callback.
    func checkAuthorizationURL(_ url: String) throws(FBAuthError) {
        let host = client.endpoints.identityToolkitHost
        let components = URLComponents(string: url)
        let scheme = components?.scheme?.lowercased()
        // An emulator's own pages are plain http, on its host or on this machine.
        let isEmulatorPage = scheme == "http" && client.endpoints.emulatorHost.map { emulator in
            let actual = (components?.host ?? "").lowercased()
            return ["localhost", "127.0.0.1", "::1", "[::1]"].contains(actual)
                || actual == URLComponents(string: "http://" + emulator)?.host?.lowercased()
        } == true
        guard !url.hasPrefix("-"), components?.host?.isEmpty == false, scheme == "https" || isEmulatorPage else {
            throw .failed(.invalidResponse, "the server's authorization URL is not an https address (\(TerminalText.safe(String(url.prefix(80))))); refusing to open it [\(host)]")
        }
        if CallbackMatcher.binding(forAuthorizationURL: url) == .none {
            throw .failed(.invalidResponse, "the server's authorization URL carries no state, so its redirect could not be told from a forged one; refusing to start [\(host)]")
        }
    }

    /// Exchanges the redirect for a Firebase session (`signInWithIdp`) and answers the browser.
    func exchange(_ callback: ReceivedCallback, authorization: Authorization, providerId: String, purpose: FlowPurpose) throws(FBAuthError) -> Result {
        if case .providerError(let code, let description) = callback.verdict {
            callback.respond(ResultPage.failure("The provider answered: \(description ?? code)."))
            throw .flowIncomplete("\(purpose.action) did not complete: \(providerId) answered \(code)" + (description.map { ": \($0)" } ?? ""))
        }
        do {
            let result = try exchange(requestUri: callback.requestURI, postBody: callback.postBody, sessionId: authorization.sessionId,
                                      providerId: providerId, purpose: purpose)
            callback.respond(result.page)
            return result
        } catch {
            callback.respond(ResultPage.failure(error.pageSentence))
            throw error
        }
    }

    /// `signInWithIdp` with the provider's answer, then the whole user. Never retried: an
    /// authorization code is single-use.
    func exchange(requestUri: String, postBody: String?, sessionId: String?, providerId: String, purpose: FlowPurpose) throws(FBAuthError) -> Result {
        do {
            let response = try client.signInWithIdp(SignInWithIdpRequest(
                requestUri: requestUri, postBody: postBody, sessionId: sessionId,
                idToken: purpose.linkToken, tenantId: tenantId, autoCreate: purpose.autoCreate), action: purpose.action)
            return try SignInCompletion(client: client, clock: clock, tenantId: tenantId, secondFactor: secondFactor)
                .complete(response, providerId: providerId, purpose: purpose)
        } catch {
            if case .network(let host, let reason) = error {
                throw .network(host: host, reason: "\(reason); the authorization code cannot be used twice, so run the command again")
            }
            throw error
        }
    }

    /// Opens the browser on the gate's one-time address, through a `LaunchPage`; where no
    /// browser can be opened, shows the authorization URL instead, for a browser anywhere (the
    /// gate is then dropped: a pasted or forwarded redirect carries no cookie).
    private func present(_ authorizationURL: String, gate: inout StartGate?, options: FlowOptions,
                         receiver: RedirectReceiver) throws(FBAuthError) -> (LaunchedBrowser?, LaunchPage?) {
        if let start = gate?.startURL {
            do {
                let (launched, page) = try launch(start, receiver: receiver)
                if let announcement = browser.announcement {
                    observer.notice("\(announcement) with \(options.providerId)")
                } else {
                    observer.notice(Self.launchNotice("Sign in with \(options.providerId) in your browser.", page: page, startURL: start, words: headless.words))
                }
                return (launched, page)
            } catch {
                // An emulator whose fake provider consents at once needs no browser at all.
                if client.endpoints.isEmulator, EmulatorConsent.follow(authorizationURL, to: receiver.redirectURI) {
                    observer.notice("No browser here: the Auth emulator's \(options.providerId) consented at once, and its redirect was followed to the listener.")
                    gate = nil
                    return (nil, nil)
                }
                try headless.requireAWayBack(observer, noBrowser: error.reason)
                observer.notice("fbauth: no browser can be opened here (\(error.reason)).")
                gate = nil
            }
        }
        observer.notice("Sign in with \(options.providerId): open this address in a browser:\n\n  \(authorizationURL)\n")
        observer.notice(CallbackWaiter.manualInstructions(url: nil, readsTerminal: (observer.pasteInput?.isTerminal ?? false), words: headless.words))
        return (nil, nil)
    }

    /// Opens the browser on `startURL`. Where `receiver` refuses other users' connections, the
    /// browser is given the address itself: whoever reads it from the browser's command line
    /// cannot use it. Elsewhere it is given a `LaunchPage`, which the caller removes when the flow
    /// ends: the command line then names a file, not the one-time address.
    func launch(_ startURL: String, receiver: RedirectReceiver) throws(BrowserLaunchError) -> (LaunchedBrowser?, LaunchPage?) {
        if receiver.refusesOtherUsers {
            observer.signIn(.detail("fbauth: the listener on port \(receiver.port) closes every connection that is not from one of your own programs (the kernel's table of sockets, /proc/net/tcp), so the browser is given the sign-in's address itself."))
            return (try browser.open(startURL), nil)
        }
        let page = try LaunchPage.create(in: launchDirectory, startURL: startURL, unique: secrets.make(bytes: 8))
        observer.signIn(.detail("fbauth: who connects to the listener on port \(receiver.port) cannot be checked here\(listenerGuard == .off ? " (FBAUTH_CONNECTION_CHECK=off)" : ""), so the browser is given a page only you can read, \(page.path), which leads to the sign-in's address."))
        do {
            return (try browser.open(page.url), page)
        } catch {
            page.remove()
            throw error
        }
    }

    /// What the user is told once the browser was launched: the address it was given (a
    /// page's path, or the start address, which only this user's programs can use), and what to
    /// do when the browser cannot open it.
    static func launchNotice(_ lead: String, page: LaunchPage?, startURL: String, words: AdviceWords) -> String {
        guard let page else { return "\(lead) If it does not open, visit:\n\n  \(startURL)\n" }
        return "\(lead) If it does not open, visit:\n\n  \(page.url)\n\n"
            + "A browser that cannot open that file (a snap or Flatpak browser cannot read hidden folders): press Ctrl-C "
            + "and \(words.noBrowser).\n"
    }
}

extension BrowserSignInFlow.Result {
    /// What the browser shows once the exchange is done.
    var page: HTTPResponse {
        switch self {
        case .signedIn(let record): ResultPage.success(signedInAs: record.displayLabel)
        case .accountExists: ResultPage.failure(accountExistsSentence)
        }
    }

    var isSignedIn: Bool {
        if case .signedIn = self { return true }
        return false
    }

    /// The same words as `page`, for the hosted flow's page.
    var pageHeading: String {
        switch self {
        case .signedIn(let record): "Signed in as \(record.displayLabel)"
        case .accountExists: "Sign-in failed"
        }
    }

    var pageText: String {
        switch self {
        case .signedIn: ResultPage.closeTabSentence
        case .accountExists: accountExistsSentence + ResultPage.failureSuffix
        }
    }

    private var accountExistsSentence: String {
        guard case .accountExists(let response) = self else { return "" }
        return "An account already exists for \(response.email ?? "this email") with a different sign-in method."
    }
}

extension SignInRecord {
    var displayLabel: String { TerminalText.safe(account.email ?? account.displayName ?? account.localId ?? "your account") }
}

extension FBAuthError {
    /// A sentence for the browser page: the same words as the terminal, no secrets.
    var pageSentence: String { message.prefix(1).uppercased() + message.dropFirst() + "." }
}

extension Duration {
    var wholeSeconds: Int64 { components.seconds }
}

/// A watch begun when a flow starts, handed to its first wait, which ends it as it ends its
/// own: after the wait, Ctrl-C at a prompt (a second factor's code) stops the process as usual.
/// A later wait (an email link's next try) begins a watch of its own.
final class HeldInterrupts: InterruptSource, @unchecked Sendable {
    private let source: InterruptSource
    private let lock = Lock()
    private var held: InterruptWatch?

    init(beginning source: InterruptSource) {
        self.source = source
        held = source.begin()
    }

    func begin() -> InterruptWatch? {
        let watch = lock.withLock { () -> InterruptWatch? in
            defer { held = nil }
            return held
        }
        return watch ?? source.begin()
    }

    /// Ends the watch when no wait took it (the flow failed before waiting).
    func endUnused() {
        lock.withLock { () -> InterruptWatch? in
            defer { held = nil }
            return held
        }?.end()
    }
}
