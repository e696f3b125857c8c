#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// The default browser flow: Firebase's hosted auth handler receives the provider's redirect,
/// on the https address every provider of a Firebase project already has registered
/// (`https://AUTH_DOMAIN/__/auth/handler`); fbauth's page on `http://localhost:PORT` drives it
/// with the Firebase JS SDK (`HostedPage`) and hands fbauth what the handler returned. fbauth
/// then calls `accounts:signInWithIdp` itself, as in the loopback flow.
struct HostedHandlerFlow {
    let flow: BrowserSignInFlow

    private var client: FirebaseAuthClient { flow.client }
    private var observer: SignInObserver { flow.observer }

    func run(_ options: FlowOptions, purpose: FlowPurpose) throws(FBAuthError) -> BrowserSignInFlow.Result {
        let authDomain = try resolveAuthDomain(options)
        let receiver = try RedirectReceiver(port: options.port, host: .localhost)
        defer { receiver.close() }
        let page = HostedPage(
            sdkBase: flow.firebaseJSBase, apiKey: client.apiKey, authDomain: authDomain, tenantId: flow.tenantId,
            emulatorURL: client.endpoints.emulatorHost.map { "http://\($0)" }, providerId: options.providerId,
            scopes: options.scopes, customParameters: options.customParameterObject ?? [:], language: client.identity.language)
        let routes = RoutesBox(HostedPageRoutes(
            nonce: flow.secrets.make(bytes: 16), cookie: flow.secrets.make(bytes: 32), port: receiver.port, page: page.response))
        let startURL = routes.value.startURL
        let (launched, launchPage) = present(startURL, options: options, port: receiver.port)
        defer { launchPage?.remove() }

        let wait = BrowserWait<(HostedIdpResponse, HeldRequest)>(
            observer: observer, interrupts: flow.interrupts, hintAfter: flow.hintAfter,
            launched: launched, showsStatusLine: flow.showsWaitingLine, address: launchPage?.url ?? startURL,
            instructions: { url, _ in Self.manualInstructions(url: url, port: receiver.port) },
            serve: { [observer] (deadline, watching) throws(FBAuthError) in
                try Self.serve(receiver, routes: routes, observer: observer, providerId: options.providerId, until: deadline, watching: watching)
            },
            paste: nil)
        let (idpResponse, held) = try wait.wait(timeout: options.timeout)
        do {
            let result = try flow.exchange(
                requestUri: idpResponse.requestUri, postBody: idpResponse.postBody, sessionId: idpResponse.sessionId,
                providerId: options.providerId, purpose: purpose)
            held.respond(Self.outcome(ok: result.isSignedIn, heading: result.pageHeading, text: result.pageText))
            return result
        } catch {
            held.respond(Self.outcome(ok: false, heading: "Sign-in failed", text: error.pageSentence + ResultPage.failureSuffix))
            throw error
        }
    }

    /// `--auth-domain`, else `FBAUTH_AUTH_DOMAIN`, else `PROJECT_ID.firebaseapp.com` with the
    /// project id from the app config or from the project configuration of the API key. The
    /// page's host, localhost, must be an authorized domain of the project (checked first, so
    /// that the user does not meet Firebase's refusal in the browser).
    func resolveAuthDomain(_ options: FlowOptions) throws(FBAuthError) -> String {
        let config = try client.projectConfig()
        try AuthorizedDomains.require("localhost", config: config)
        if let domain = options.authDomain ?? flow.authDomain { return domain }
        if let projectId = flow.projectId { return AuthDomain.default(projectId: projectId) }
        guard let projectId = config.projectId, !projectId.isEmpty else {
            throw .badResponse(host: client.endpoints.identityToolkitHost, reason: "the project configuration names no projectId; pass --auth-domain")
        }
        return AuthDomain.default(projectId: projectId)
    }

    /// One round of the listener: answers the page and strays, reports what the user should
    /// know, and stops at the page's result or reported failure.
    private static func serve(_ receiver: RedirectReceiver, routes: RoutesBox, observer: SignInObserver, providerId: String,
                              until deadline: ContinuousClock.Instant, watching: [Int32]) throws(FBAuthError) -> ListenerEvent<(HostedIdpResponse, HeldRequest)> {
        enum Taken { case result(HostedIdpResponse), failure(code: String, message: String), replay(HTTPResponse) }
        let event = receiver.serve(until: deadline, watching: watching) { (request: HTTPRequest) -> RedirectReceiver.Route<Taken> in
            switch routes.value.classify(request) {
            case .respond(let response):
                return .respond(response)
            case .refuseReplay(let response):
                return .take(.replay(response))
            case .result(let response):
                return .take(.result(response))
            case .failure(let code, let message):
                return .take(.failure(code: code, message: message))
            case .status(let state):
                if state == "popup-blocked" {
                    observer.notice("The browser blocked the sign-in window; click “Continue with \(ProviderNames.name(of: providerId))” on the page.")
                }
                return .respond(HostedPageRoutes.json(200, ["ok": true]))
            }
        }
        switch event {
        case .taken(.result(let response), let held):
            return .delivered((response, held))
        case .taken(.replay(let response), let held):
            held.respond(response)
            throw StartGate.replayError(observer)
        case .taken(.failure(let code, let message), let held):
            held.respond(HostedPageRoutes.json(200, ["ok": true]))
            throw pageFailure(code: code, message: message, providerId: providerId)
        case .deadlineReached:
            return .deadlineReached
        case .readable(let fd):
            return .readable(fd)
        }
    }

    /// An error the page reported (a Firebase JS SDK `auth/…` code), as fbauth reports it.
    static func pageFailure(code: String, message: String, providerId: String) -> FBAuthError {
        switch code {
        case "auth/popup-closed-by-user", "auth/cancelled-popup-request", "auth/user-cancelled":
            return .flowIncomplete("the sign-in window was closed before the sign-in finished; run the command again")
        case "auth/unauthorized-domain":
            return .failed(.unauthorizedDomain, "Firebase refused the sign-in page: localhost is not an authorized domain of this project (Firebase console → Authentication → Settings → Authorized domains) [\(code)]")
        case "auth/operation-not-allowed":
            return .failed(.operationNotAllowed, "\(providerId) sign-in is not enabled for this project (Firebase console → Authentication → Sign-in method) [\(code)]")
        case "fbauth/sdk-unavailable":
            return .failed(.webInternalError, "\(message) Check the network, or set FBAUTH_FIREBASE_JS_URL to a copy of the SDK")
        default:
            return .failed(.webInternalError, "the browser page reported an error: \(message.isEmpty ? code : message) [\(code)]")
        }
    }

    static func outcome(ok: Bool, heading: String, text: String) -> HTTPResponse {
        HostedPageRoutes.json(200, ["ok": .bool(ok), "heading": .string(heading), "text": .string(text)])
    }

    /// Opens the browser on the start address through a `LaunchPage`; with `--no-browser`, or
    /// where no browser can be opened, shows the start address for the user to open.
    private func present(_ url: String, options: FlowOptions, port: UInt16) -> (LaunchedBrowser?, LaunchPage?) {
        let name = ProviderNames.name(of: options.providerId)
        guard options.openBrowser else {
            observer.notice("Sign in with \(name): open this address in a browser on this machine:\n\n  \(url)\n")
            observer.notice(Self.manualInstructions(url: nil, port: port))
            return (nil, nil)
        }
        do {
            let (launched, page) = try flow.launch(url)
            observer.notice(BrowserSignInFlow.launchNotice("Sign in with \(name) in your browser (through Firebase's sign-in page).", page: page))
            return (launched, page)
        } catch {
            observer.notice("fbauth: no browser can be opened here (\(error.reason)).")
            observer.notice("Sign in with \(name): open this address in a browser on this machine:\n\n  \(url)\n")
            observer.notice(Self.manualInstructions(url: nil, port: port))
            return (nil, nil)
        }
    }

    static func manualInstructions(url: String?, port: UInt16) -> String {
        var text = url.map { "Open this address in a browser:\n\n  \($0)\n\n" } ?? ""
        text += "A browser on another machine needs the port forwarded first (ssh -L \(port):localhost:\(port) THIS-HOST); "
        text += "the address works once. Where no browser can reach this machine at all, use --loopback --print-url."
        return text
    }
}

/// The routes' state, shared by the rounds of the wait.
private final class RoutesBox {
    var value: HostedPageRoutes
    init(_ value: HostedPageRoutes) { self.value = value }
}
