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
        let page = HostedPage(
            sdkBase: flow.firebaseJSBase, apiKey: client.apiKey, authDomain: authDomain, tenantId: flow.tenantId,
            emulatorURL: client.endpoints.emulatorHost.map { "http://\($0)" }, providerId: options.providerId,
            scopes: options.scopes, customParameters: options.customParameterObject ?? [:], language: client.identity.language,
            appCheck: try client.appCheck?())
        let name = ProviderNames.name(of: options.providerId)
        var wait = LocalPageWait<HostedIdpResponse>(
            flow: flow, task: "Sign in with \(name)", launchedDetail: " (through Firebase's sign-in page)",
            pageFailure: { [words = flow.headless.words] code, message in
                Self.pageFailure(code: code, message: message, providerId: options.providerId, words: words)
            })
        wait.providerId = options.providerId
        wait.onStatus = { [observer] state in
            if state == "popup-blocked" {
                observer.notice("The browser blocked the sign-in window; click “Continue with \(name)” on the page.")
            }
        }
        let (idpResponse, held) = try wait.run(page: page.response, port: options.port, openBrowser: options.openBrowser,
                                               timeout: options.timeout, decodeResult: HostedIdpResponse.decode)
        do {
            let result = try flow.exchange(
                requestUri: idpResponse.requestUri, postBody: idpResponse.postBody, sessionId: idpResponse.sessionId,
                providerId: options.providerId, purpose: purpose)
            held.respond(LocalPageAnswer.outcome(ok: result.isSignedIn, heading: result.pageHeading, text: result.pageText))
            return result
        } catch {
            held.respond(LocalPageAnswer.outcome(ok: false, heading: "Sign-in failed", text: error.pageSentence + ResultPage.failureSuffix))
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
        // An emulator serves its own handler whatever the domain says (its project number will do).
        guard let projectId = config.namedProjectId ?? (client.endpoints.isEmulator ? config.projectId.flatMap { $0.isEmpty ? nil : $0 } : nil) else {
            throw .badResponse(host: client.endpoints.identityToolkitHost, reason: "the project configuration names no project id (only a number, or nothing); give \(flow.headless.words.authDomain)")
        }
        return AuthDomain.default(projectId: projectId)
    }

    /// An error the page reported (a Firebase JS SDK `auth/…` code), as fbauth reports it.
    static func pageFailure(code: String, message: String, providerId: String, words: AdviceWords = AdviceWords()) -> FBAuthError {
        switch code {
        case "auth/popup-closed-by-user", "auth/cancelled-popup-request", "auth/user-cancelled":
            return .flowIncomplete("the sign-in window was closed before the sign-in finished; run the command again")
        case "auth/unauthorized-domain":
            return .failed(.unauthorizedDomain, "Firebase refused the sign-in page: localhost is not an authorized domain of this project (Firebase console → Authentication → Settings → Authorized domains) [\(code)]")
        case "auth/operation-not-allowed":
            return .failed(.operationNotAllowed, "\(providerId) sign-in is not enabled for this project (Firebase console → Authentication → Sign-in method) [\(code)]")
        case "fbauth/sdk-unavailable":
            // The browser could not reach gstatic: a network problem, as any other (exit 6).
            return .failed(.networkError, "\(message) Check the network, or use \(words.sdkCopy), or sign in with \(words.loopback) where the provider (or an Auth emulator) accepts it",
                           remedy: .loadTheSDKElsewhere)
        default:
            return .failed(.webInternalError, "the browser page reported an error: \(message.isEmpty ? code : message) [\(code)]")
        }
    }
}

/// What the browser page of the hosted flow hands to fbauth: the body the Firebase JS SDK was
/// about to send to `accounts:signInWithIdp` (firebase-js-sdk
/// `packages/auth/src/core/strategies/idp.ts`, `_buildIdpRequest`), minus what only the SDK
/// would add.
internal struct HostedIdpResponse: Sendable, Equatable, Decodable {
    /// The URL Firebase's handler received from the provider (code and state included).
    internal var requestUri: String
    /// The session id the handler passed to `createAuthUri`.
    internal var sessionId: String?
    /// The form body of a POST callback (`response_mode=form_post`), when there was one.
    internal var postBody: String?
    internal var tenantId: String?

    /// The hosted page's result: a JSON body whose `requestUri` is an http(s) URL.
    static func decode(_ body: [UInt8]) -> HostedIdpResponse? {
        guard let response = try? JSONDecoder().decode(HostedIdpResponse.self, from: Data(body)),
            let url = URLComponents(string: response.requestUri), ["http", "https"].contains(url.scheme?.lowercased() ?? "")
        else { return nil }
        return response
    }
}
