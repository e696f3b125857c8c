#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// The page fbauth serves on `http://localhost:PORT/` in the hosted flow. It loads the Firebase
/// JS SDK (modular build), starts `signInWithPopup`, and lets Firebase's hosted handler run the
/// provider's flow on its registered https redirect. When the handler is done, the SDK sends
/// the result to `accounts:signInWithIdp` through `fetch`; the page takes that request body,
/// posts it to fbauth, and never sends it to Firebase: fbauth performs the exchange, so the
/// page never holds a Firebase token.
///
/// What this relies on in the SDK (firebase/firebase-js-sdk, packages/auth/src):
/// - `core/util/fetch_provider.ts`: `FetchProvider.fetch()` returns `self.fetch` on every call
///   (the browser entry never calls `FetchProvider.initialize`), so a `fetch` replaced after the
///   SDK loaded sees every API request;
/// - `api/index.ts`, `_performApiRequest`: the request is a POST with a JSON string body to
///   `…/v1/accounts:signInWithIdp?key=…`;
/// - `core/strategies/abstract_popup_redirect_operation.ts` and `core/strategies/idp.ts`
///   (`_buildIdpRequest`): the body carries the handler's `requestUri`, `sessionId`,
///   `postBody` and `tenantId`;
/// - `core/util/handler.ts`, `_getRedirectUrl`: the popup opens
///   `https://AUTH_DOMAIN/__/auth/handler` (with `connectAuthEmulator`, the emulator's
///   `/emulator/auth/handler`) with the provider id, `scopes` and `customParameters`;
/// - `platform_browser/strategies/popup.ts`: a closed popup ends in
///   `auth/popup-closed-by-user`, a blocked one in `auth/popup-blocked`.
internal struct HostedPage {
    /// The SDK version the page loads from gstatic unless `FBAUTH_FIREBASE_JS_URL` says otherwise.
    internal static let sdkVersion = "12.18.0"
    static let defaultSDKBase = "https://www.gstatic.com/firebasejs/\(sdkVersion)"

    /// Whether the page may load the SDK from `base` (`FBAUTH_FIREBASE_JS_URL`): the code there
    /// runs with the page's authority over the sign-in, so only `https://`, or `http://` to this
    /// machine (a test's copy), with no credentials, query or fragment, and nothing a page or a
    /// terminal would read differently (spaces, quotes, control characters).
    internal static func isAllowedSDKBase(_ base: String) -> Bool {
        guard base.utf8.allSatisfy({ (0x21...0x7E).contains($0) && !"\"'<>\\`".utf8.contains($0) }),
            let url = URLComponents(string: base), let host = url.host, !host.isEmpty,
            url.user == nil, url.password == nil, url.query == nil, url.fragment == nil
        else { return false }
        switch url.scheme?.lowercased() {
        case "https": return true
        case "http": return ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host.lowercased())
        default: return false
        }
    }

    var sdkBase: String
    var apiKey: String
    var authDomain: String
    var tenantId: String?
    /// `http://HOST:PORT` of the Auth emulator, when fbauth talks to one.
    var emulatorURL: String?
    var providerId: String
    var scopes: [String]
    var customParameters: [String: String]
    /// `auth.languageCode`: the handler and the provider's pages in the user's language.
    var language: String? = nil
    /// The App Check token the SDK hands the handler in `#fac=` (firebase-js-sdk packages/auth
    /// core/util/handler.ts `_getRedirectUrl`), through App Check's custom provider; nil: none.
    var appCheck: ExchangedAppCheckToken? = nil

    var response: HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", "text/html; charset=utf-8"),
                ("X-Frame-Options", "DENY"),
                ("Referrer-Policy", "no-referrer"),
            ],
            body: Array(html.utf8))
    }

    var html: String {
        let name = ResultPage.escape(ProviderNames.name(of: providerId))
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>fbauth: sign in with \(name)</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <style>body{font-family:system-ui,sans-serif;margin:4em auto;max-width:36em;padding:0 1em}
            button{font-size:1.1em;padding:.5em 1.2em}</style></head>
            <body><h1 id="heading">Sign in with \(name)</h1>
            <p id="text">A sign-in window opens. Finish there; fbauth completes the sign-in in the terminal.</p>
            <p><button id="continue" hidden>Continue with \(name)</button></p>
            <script type="application/json" id="fbauth-config">\(configJSON)</script>
            <script type="module">\(Self.script)</script>
            </body></html>

            """
    }

    /// The page's settings as JSON that is safe inside a `<script>` element.
    var configJSON: String {
        var config: [String: JSONValue] = [
            "sdk": .string(sdkBase.hasSuffix("/") ? String(sdkBase.dropLast()) : sdkBase),
            "apiKey": .string(apiKey), "authDomain": .string(authDomain), "providerId": .string(providerId),
            "providerName": .string(ProviderNames.name(of: providerId)), "scopes": .array(scopes.map(JSONValue.string)),
            "customParameters": .object(customParameters.mapValues(JSONValue.string)),
        ]
        if let tenantId { config["tenantId"] = .string(tenantId) }
        if let emulatorURL { config["emulator"] = .string(emulatorURL) }
        if let language { config["language"] = .string(language) }
        if let appCheck {
            config["appCheck"] = .object(["token": .string(appCheck.token),
                                          "expireTimeMillis": .integer(Int64(appCheck.expirationTime.timeIntervalSince1970 * 1000))])
        }
        let data = JSONValue.object(config).sortedData()
        return String(decoding: data, as: UTF8.self)
            .replacing("<", with: "\\u003c").replacing(">", with: "\\u003e")
            .replacing("&", with: "\\u0026")
    }

    static let script = """

        const config = JSON.parse(document.getElementById('fbauth-config').textContent);
        const heading = document.getElementById('heading');
        const text = document.getElementById('text');
        const button = document.getElementById('continue');
        const pageFetch = window.fetch.bind(window);
        let handedOver = false;

        function show(title, sentence) { heading.textContent = title; text.textContent = sentence; }
        function finished(state) { document.documentElement.dataset.fbauth = state; }
        async function tell(path, body) {
          const answer = await pageFetch(path, {method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify(body), credentials: 'same-origin', cache: 'no-store'});
          return answer.json();
        }

        // fbauth, not this page, calls accounts:signInWithIdp. The SDK looks fetch up on every
        // call, so this sees its request; the body goes to fbauth and never to Firebase.
        window.fetch = (input, init) => {
          const url = typeof input === 'string' ? input : String((input && input.url) || input);
          if (!url.includes('/accounts:signInWithIdp')) return pageFetch(input, init);
          if (!handedOver) {
            handedOver = true;
            let request = {};
            try { request = JSON.parse((init && init.body) || '{}'); } catch (e) {}
            handOver(request);
          }
          // An error answer makes the SDK end its operation and close the popup.
          return Promise.resolve(new Response(JSON.stringify({error: {code: 400, message: 'FBAUTH_EXCHANGED_BY_CLI'}}),
            {status: 400, headers: {'Content-Type': 'application/json'}}));
        };

        async function handOver(request) {
          button.hidden = true;
          show('Finishing the sign-in…', 'fbauth is completing the sign-in in the terminal.');
          try {
            const outcome = await tell('\(LocalPageRoutes<HostedIdpResponse>.resultPath)', {requestUri: request.requestUri,
              sessionId: request.sessionId, postBody: request.postBody, tenantId: request.tenantId});
            show(outcome.heading, outcome.text);
            document.title = outcome.ok ? 'Signed in' : 'Sign-in failed';
            finished(outcome.ok ? 'signed-in' : 'failed');
          } catch (e) {
            show('Sign-in failed', 'fbauth did not answer; the terminal says why.');
            finished('failed');
          }
        }

        async function fail(code, message) {
          if (handedOver) return;
          handedOver = true;
          show('Sign-in failed', message + ' You can close this tab; details are in the terminal.');
          document.title = 'Sign-in failed';
          try { await tell('\(LocalPageRoutes<HostedIdpResponse>.failurePath)', {code, message}); } catch (e) {}
          finished('failed');
        }

        let auth, provider, sdk;
        try {
          const [app, authModule] = await Promise.all([
            import(config.sdk + '/firebase-app.js'), import(config.sdk + '/firebase-auth.js')]);
          sdk = authModule;
          const firebaseApp = app.initializeApp({apiKey: config.apiKey, authDomain: config.authDomain}, 'fbauth');
          if (config.appCheck) {
            // fbauth's App Check token, which the SDK puts in the handler's address (#fac=).
            const appCheck = await import(config.sdk + '/firebase-app-check.js');
            appCheck.initializeAppCheck(firebaseApp, {isTokenAutoRefreshEnabled: false, provider: new appCheck.CustomProvider({
              getToken: async () => ({token: config.appCheck.token, expireTimeMillis: config.appCheck.expireTimeMillis})})});
          }
          // In memory only: nothing stays in the browser's storage.
          auth = sdk.initializeAuth(firebaseApp, {persistence: sdk.inMemoryPersistence,
            popupRedirectResolver: sdk.browserPopupRedirectResolver});
          if (config.emulator) sdk.connectAuthEmulator(auth, config.emulator, {disableWarnings: true});
          if (config.tenantId) auth.tenantId = config.tenantId;
          if (config.language) auth.languageCode = config.language;
          provider = config.providerId.startsWith('saml.')
            ? new sdk.SAMLAuthProvider(config.providerId) : new sdk.OAuthProvider(config.providerId);
          if (provider.addScope) config.scopes.forEach((scope) => provider.addScope(scope));
          provider.setCustomParameters(config.customParameters);
        } catch (e) {
          await fail('fbauth/sdk-unavailable', 'The Firebase JavaScript SDK could not be loaded from ' + config.sdk + '.');
        }

        async function start(fromButton) {
          try {
            await sdk.signInWithPopup(auth, provider);
          } catch (error) {
            if (handedOver) return;
            if (error && error.code === 'auth/popup-blocked' && !fromButton) {
              show('Sign in with ' + config.providerName, 'The browser blocked the sign-in window. Continue here:');
              button.hidden = false;
              try { await tell('\(LocalPageRoutes<HostedIdpResponse>.statusPath)', {state: 'popup-blocked'}); } catch (e) {}
              return;
            }
            await fail((error && error.code) || 'unknown', (error && error.message) || String(error));
          }
        }

        button.addEventListener('click', () => {
          button.hidden = true;
          show('Sign in with ' + config.providerName, 'Finish in the sign-in window.');
          start(true);
        });
        if (auth) start(false);

        """
}
