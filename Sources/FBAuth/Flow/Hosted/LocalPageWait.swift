import LoopbackHTTP

/// Serves a page of fbauth's on `http://localhost:PORT` and waits until its script posts a
/// result: the hosted flow's page (Firebase's handler), the reCAPTCHA page (a phone number's
/// verification). The browser fbauth launches is led there through a `LaunchPage` and a
/// `StartGate`; with `--no-browser`, or where none can be opened, the start address is shown.
struct LocalPageWait<Result> {
    let flow: BrowserSignInFlow
    /// `Sign in with Yahoo`: the user's task, for the messages.
    let task: String
    /// The first sentence when a browser was launched (after `task`).
    let launchedDetail: String
    /// What a failure the page reports (a Firebase JS SDK `auth/…` code) means.
    let pageFailure: (_ code: String, _ message: String) -> FBAuthError
    /// Progress the page reports (`popup-blocked`).
    var onStatus: (String) -> Void = { _ in }
    /// The last sentence of the manual instructions: what to do where no browser can reach the page.
    var lastResort: String?
    /// The provider signed in with, for advice on `--loopback`; nil for other pages.
    var providerId: String?

    private var observer: SignInObserver { flow.observer }

    /// Serves `page` until it posts a result `decodeResult` accepts; returns it with the request
    /// that carried it, which the caller answers (`LocalPageAnswer.outcome`) once it has acted.
    func run(page: HTTPResponse, port: UInt16, openBrowser: Bool, timeout: Duration,
             decodeResult: @escaping ([UInt8]) -> Result?) throws(FBAuthError) -> (Result, HeldRequest) {
        let receiver = try RedirectReceiver(port: port, host: .localhost, guard: flow.listenerGuard)
        defer { receiver.close() }
        let routes = Box(LocalPageRoutes(
            nonce: flow.secrets.make(bytes: 16), cookie: flow.secrets.make(bytes: 32), port: receiver.port, page: page, decodeResult: decodeResult))
        let startURL = routes.value.startURL
        let (launched, launchPage) = try present(startURL, openBrowser: openBrowser, receiver: receiver)
        defer { launchPage?.remove() }
        let wait = BrowserWait<(Result, HeldRequest)>(
            observer: observer, interrupts: flow.interrupts, hintAfter: flow.hintAfter,
            launched: launched, showsStatusLine: flow.showsWaitingLine, address: launchPage?.url ?? startURL,
            instructions: { url, _ in manualInstructions(url: url, port: receiver.port) },
            serve: { (deadline, watching) throws(FBAuthError) in try serve(receiver, routes: routes, until: deadline, watching: watching) },
            paste: nil)
        return try wait.wait(timeout: timeout)
    }

    private enum Taken { case result(Result), failure(code: String, message: String), replay(HTTPResponse) }

    /// One round of the listener: answers the page and strays, and stops at the page's result
    /// or reported failure.
    private func serve(_ receiver: RedirectReceiver, routes: Box<LocalPageRoutes<Result>>, until deadline: ContinuousClock.Instant,
                       watching: [Int32]) throws(FBAuthError) -> ListenerEvent<(Result, HeldRequest)> {
        let event = receiver.serve(until: deadline, watching: watching) { (request: HTTPRequest) -> RedirectReceiver.Route<Taken> in
            switch routes.value.classify(request) {
            case .respond(let response): return .respond(response)
            case .refuseReplay(let response): return .take(.replay(response))
            case .result(let result): return .take(.result(result))
            case .failure(let code, let message): return .take(.failure(code: code, message: message))
            case .status(let state):
                onStatus(state)
                return .respond(LocalPageAnswer.received)
            }
        }
        switch event {
        case .taken(.result(let result), let held):
            return .delivered((result, held))
        case .taken(.replay(let response), let held):
            held.respond(response)
            throw StartGate.replayError(observer)
        case .taken(.failure(let code, let message), let held):
            held.respond(LocalPageAnswer.received)
            throw pageFailure(code, message)
        case .deadlineReached:
            return .deadlineReached
        case .readable(let fd):
            return .readable(fd)
        }
    }

    /// Opens the browser on the start address through a `LaunchPage`; with `--no-browser`, or
    /// where no browser can be opened, shows the start address for the user to open.
    private func present(_ url: String, openBrowser: Bool, receiver: RedirectReceiver) throws(FBAuthError) -> (LaunchedBrowser?, LaunchPage?) {
        let port = receiver.port
        // Over SSH without a display the browser is elsewhere: say what works before waiting.
        if openBrowser, flow.headless.isRemote {
            observer.notice("\(task): open this address in a browser that reaches this machine:\n\n  \(url)\n")
            observer.notice(manualInstructions(url: nil, port: port))
            return (nil, nil)
        }
        if openBrowser {
            do {
                let (launched, page) = try flow.launch(url, receiver: receiver)
                observer.notice(BrowserSignInFlow.launchNotice("\(task) in your browser\(launchedDetail).", page: page, startURL: url, words: flow.headless.words))
                return (launched, page)
            } catch {
                try flow.headless.requireAWayBack(observer, noBrowser: error.reason)
                observer.notice("fbauth: no browser can be opened here (\(error.reason)).")
            }
        }
        observer.notice("\(task): open this address in a browser on this machine:\n\n  \(url)\n")
        observer.notice(manualInstructions(url: nil, port: port))
        return (nil, nil)
    }

    func manualInstructions(url: String?, port: UInt16) -> String {
        var text = url.map { "Open this address in a browser:\n\n  \($0)\n\n" } ?? ""
        text += flow.headless.forLocalPage(port: port, providerId: providerId) + " The address works once."
        return providerId == nil ? text + " " + (lastResort ?? "Where no browser can reach this machine at all, use \(flow.headless.words.twoStep).") : text
    }
}

/// State shared by the rounds of a wait.
final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}
