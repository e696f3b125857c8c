import Foundation
import LoopbackHTTP

/// The OAuth authorization-code flow run through Firebase (firebase-protocol.md, "Consequences" 1):
/// listen on loopback → `createAuthUri` → open `authUri` → receive the redirect →
/// `signInWithIdp` with the URL exactly as received → answer the browser → `accounts:lookup`.
/// Firebase holds the provider's client secret and performs the code exchange.
public struct BrowserSignInFlow: Sendable {
    let client: FirebaseAuthClient
    let browser: BrowserLauncher
    let console: Console
    let clock: WallClock
    let tenantId: String?

    public init(client: FirebaseAuthClient, browser: BrowserLauncher, console: Console, clock: WallClock, tenantId: String?) {
        self.client = client
        self.browser = browser
        self.console = console
        self.clock = clock
        self.tenantId = tenantId
    }

    public enum Result: Sendable {
        case signedIn(SignInRecord)
        /// `needConfirmation`: the provider's email belongs to an account with other methods.
        case accountExists(SignInWithIdpResponse)
    }

    public func run(_ options: FlowOptions, purpose: FlowPurpose) throws(FBAuthError) -> Result {
        // Listen first: the redirect URI, port included, goes into createAuthUri.
        let receiver = try RedirectReceiver(port: options.port, host: options.redirectHost)
        defer { receiver.close() }

        let authorization: CreateAuthUriResponse
        do {
            authorization = try client.createAuthUri(CreateAuthUriRequest(
                providerId: options.providerId, continueUri: receiver.redirectURI,
                customParameter: options.customParameterObject, oauthScope: options.oauthScope, tenantId: tenantId))
        } catch .server(let error, _) where error.httpStatus == 501 && client.endpoints.isEmulator {
            // The Firebase Auth emulator does not run identity-provider redirects.
            receiver.close()
            return try EmulatorClaimsSignIn(client: client, console: console, clock: clock, tenantId: tenantId)
                .run(options, purpose: purpose)
        }
        guard let authURI = authorization.authUri, let sessionId = authorization.sessionId else {
            throw .badResponse(host: client.endpoints.identityToolkitHost, reason: "createAuthUri returned no authUri or sessionId")
        }
        let matcher = CallbackMatcher(
            redirectPath: RedirectReceiver.callbackPath,
            binding: CallbackMatcher.binding(forAuthorizationURL: authURI), port: receiver.port)

        present(authURI, options: options)
        let callback = try awaitCallback(receiver, matcher: matcher, options: options)

        if case .providerError(let code, let description) = callback.verdict {
            let what = "\(options.providerId) answered \(code)" + (description.map { ": \($0)" } ?? "")
            callback.respond(ResultPage.failure("The provider answered: \(description ?? code)."))
            throw .flowIncomplete("\(purpose.action) did not complete: \(what)")
        }
        do {
            let response = try client.signInWithIdp(SignInWithIdpRequest(
                requestUri: callback.requestURI, postBody: callback.postBody, sessionId: sessionId,
                idToken: purpose.linkToken, tenantId: tenantId, autoCreate: purpose.autoCreate), action: purpose.action)
            let result = try SignInCompletion(client: client, clock: clock, tenantId: tenantId)
                .complete(response, providerId: options.providerId, purpose: purpose)
            callback.respond(result.page)
            return result
        } catch {
            callback.respond(ResultPage.failure(error.pageSentence))
            if case .network(let host, let reason) = error {
                // The exchange is never retried: the authorization code is single-use.
                throw .network(host: host, reason: "\(reason); the authorization code cannot be used twice, so run the command again")
            }
            throw error
        }
    }

    private func present(_ url: String, options: FlowOptions) {
        console.say("Sign in with \(options.providerId) in your browser. If it does not open, visit:\n\n  \(url)\n")
        guard options.openBrowser else { return }
        do {
            try browser.open(url)
        } catch {
            console.say("fbauth: could not open a browser (\(error.reason)); open the address above yourself.")
        }
    }

    private func awaitCallback(_ receiver: RedirectReceiver, matcher: CallbackMatcher, options: FlowOptions) throws(FBAuthError) -> RedirectReceiver.Callback {
        let deadline = ContinuousClock.now.advanced(by: options.timeout)
        while true {
            switch receiver.wait(for: matcher, until: deadline) {
            case .callback(let callback):
                return callback
            case .deadlineReached:
                throw .flowIncomplete("no answer from the browser within \(options.timeout.wholeSeconds) s; run the command again (or raise --timeout)")
            case .readable:
                continue
            }
        }
    }
}

extension BrowserSignInFlow.Result {
    /// What the browser shows once the exchange is done.
    var page: HTTPResponse {
        switch self {
        case .signedIn(let record):
            ResultPage.success(signedInAs: record.account.email ?? record.account.displayName ?? record.account.localId ?? "your account")
        case .accountExists(let response):
            ResultPage.failure("An account already exists for \(response.email ?? "this email") with a different sign-in method.")
        }
    }
}

extension FBAuthError {
    /// A sentence for the browser page: the same words as the terminal, no secrets.
    var pageSentence: String { message.prefix(1).uppercased() + message.dropFirst() + "." }
}

extension Duration {
    var wholeSeconds: Int64 { components.seconds }
}
