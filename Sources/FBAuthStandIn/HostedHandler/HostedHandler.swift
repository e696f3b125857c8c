#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// The handler the Firebase JS SDK opens in its popup when connected to an Auth emulator
/// (`/emulator/auth/handler`, firebase-tools `src/emulator/auth/handlers.ts`), and the helper
/// iframe that relays its result to the page (`/emulator/auth/iframe`).
///
/// Google's emulator shows a fake account picker there. The stand-in instead does what
/// Firebase's production handler (`https://PROJECT.firebaseapp.com/__/auth/handler`) does: it
/// starts the provider's code flow (as `createAuthUri` would), the fake provider asks for
/// consent and redirects back here, and the result goes to the page as the SDK's auth event
/// `{type, eventId, urlResponse, sessionId, postBody, tenantId}`, whose `urlResponse` and
/// `sessionId` then redeem the code in `signInWithIdp`. With the profile's `noOAuthCodeFlow`, the
/// page is the emulator's account picker and the event carries fake claims.
extension Backend {
    static let handlerPath = "/emulator/auth/handler"
    static let iframePath = "/emulator/auth/iframe"

    func hostedHandler(_ request: HTTPRequest) -> HTTPResponse {
        var query: [String: String] = [:]
        for item in request.queryItems where query[item.name] == nil { query[item.name] = item.value }
        if let binding = query["state"] ?? query["oauth_token"] ?? query["denied"], let pending = pendingAuthorizations[binding],
            let handlerRequest = pending.handlerRequest
        {
            // The provider's redirect back: hand the whole URL to the page that started it.
            let event: [String: Any] = [
                "type": handlerRequest.authType, "eventId": handlerRequest.eventId ?? JSONNull(),
                "urlResponse": baseURL + request.originForm, "sessionId": pending.sessionId, "postBody": "",
                "tenantId": pending.tenantId ?? JSONNull(), "error": JSONNull(),
            ]
            return HandlerPage.relay(event: event, apiKey: handlerRequest.apiKey, appName: handlerRequest.appName)
        }
        guard let apiKey = query["apiKey"], !apiKey.isEmpty, let providerId = query["providerId"], !providerId.isEmpty else {
            return JSONResponse.make(400, ["authEmulator": ["error": "missing apiKey or providerId query parameters"]])
        }
        guard let appName = query["appName"], !appName.isEmpty else {
            // The SDK's popup always names its app; the native SDKs' deep-link delivery is not served here.
            return HandlerPage.error("Missing one of appName / clientId / appId / apn / ibi query params.")
        }
        if let valid = configuration.validAPIKeys, !valid.contains(apiKey) {
            return HandlerPage.error("API key not valid. Please pass a valid API key.")
        }
        if let tenant = query["tid"] ?? query["tenantId"], !TenantID.isValid(tenant) {
            return HandlerPage.error("The tenant id must be \(TenantID.form).")
        }
        if configuration.appCheck != nil, !configuration.profile.has(.handlerSkipsAppCheck) {
            // Production's handler sends the `#fac=` token as X-Firebase-AppCheck on its own
            // requests; a fragment never reaches a server, so this page hands it over first.
            guard let token = query[HandlerPage.appCheckParameter] else { return HandlerPage.appCheckFromFragment }
            guard let expiry = appCheckTokens[token], expiry > now() else { return HandlerPage.error(AppCheckService.invalidToken.message) }
        }
        let handlerRequest = HandlerRequest(apiKey: apiKey, appName: appName, authType: query["authType"] ?? "", eventId: query["eventId"])
        if configuration.profile.has(.noOAuthCodeFlow) {
            let tenantId = query["tid"] ?? query["tenantId"]
            // As Google's widget: the provider accounts already known, to sign in as again.
            let known = accounts.accounts(inTenant: tenantId).flatMap(\.links).filter { $0.providerId == providerId }
                .sorted { $0.rawId < $1.rawId }
            return HandlerPage.accountPicker(providerId: providerId, handler: handlerRequest, tenantId: tenantId, known: known)
        }
        var customParameters: [String: String] = [:]
        if let text = query["customParameters"] {
            guard let object = JSONText.parse(Data(text.utf8)) as? [String: Any] else {
                return HandlerPage.error("customParameters is not a JSON object.")
            }
            for (key, value) in object { customParameters[key] = value as? String ?? "\(value)" }
        }
        let scopes = (query["scopes"] ?? "").split(separator: ",").map(String.init)
        do {
            let authUri = try startAuthorization(
                provider: providerId, continueUri: baseURL + Self.handlerPath, scopes: scopes, customParameters: customParameters,
                tenantId: query["tid"], sessionId: RandomToken.make(bytes: 20), handlerRequest: handlerRequest)
            return .redirect(to: authUri)
        } catch {
            return HandlerPage.error(error.message)
        }
    }
}

/// The handler's and the helper iframe's HTML. Scripts keep to what every browser runs.
enum HandlerPage {
    static func html(_ status: Int, _ body: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/html; charset=utf-8")], body: Array(body.utf8))
    }

    /// The query parameter this stand-in's handler page passes the `#fac=` token in.
    static let appCheckParameter = "fbauthStandInAppCheck"

    /// Reads the App Check token from the fragment and asks again with it in the query.
    static let appCheckFromFragment = html(200, """
        <!doctype html>
        <meta charset="utf-8"><title>Signing in…</title>
        <script>
        var fac = new URLSearchParams(location.hash.slice(1)).get('fac') || '';
        location.replace(location.pathname + location.search + '&\(appCheckParameter)=' + encodeURIComponent(fac));
        </script>

        """)

    static func error(_ text: String) -> HTTPResponse {
        html(400, "<!doctype html><meta charset=\"utf-8\"><title>Error</title><p style=\"color:red\">\(ProviderPage.escape(text))</p>\n")
    }

    /// JSON for use inside a `<script>` element.
    static func scriptJSON(_ object: Any) -> String {
        let data = JSONText.data(object, escapingSlashes: true)
        return String(decoding: data, as: UTF8.self).replacing("<", with: "\\u003c")
    }

    /// Delivers the event to the opener's helper iframe of the same app, as the emulator's
    /// widget does (`sendAuthEventViaIframeRelay` in firebase-tools `widget_ui.ts`).
    static func relay(event: [String: Any], apiKey: String, appName: String) -> HTTPResponse {
        html(200, """
            <!doctype html>
            <meta charset="utf-8"><title>Signing in…</title>
            <p id="status">Returning to the app…</p>
            <script>
            var authEvent = \(scriptJSON(event));
            var apiKey = \(scriptJSON(apiKey)), appName = \(scriptJSON(appName));
            \(relayScript)
            </script>

            """)
    }

    static let relayScript = """
        function sendAuthEvent(authEvent) {
          var sent = false;
          var frames = window.opener ? window.opener.frames : [];
          for (var i = 0; i < frames.length; i++) {
            try {
              var query = new URLSearchParams(frames[i].location.search);
              if (query.get('apiKey') === apiKey && query.get('appName') === appName) {
                frames[i].postMessage({data: {authEvent: authEvent, storageKey: apiKey + ':' + appName},
                  eventId: String(Math.floor(Math.random() * 1e15)), eventType: 'sendAuthEvent'}, '*');
                sent = true;
              }
            } catch (e) { /* a frame of another origin */ }
          }
          document.getElementById('status').textContent = sent
            ? 'Done. This window closes by itself.' : 'The page that started this sign-in is gone.';
        }
        sendAuthEvent(authEvent);
        """

    /// The helper iframe: receives the handler's event and hands it to the SDK in the parent
    /// page through Google's iframe library, as the emulator's `/emulator/auth/iframe` does.
    static let iframe = html(200, """
        <!doctype html>
        <meta charset="utf-8"><title>Auth Emulator Helper Iframe</title>
        <script>
        var query = new URLSearchParams(location.search);
        var storageKey = query.get('apiKey') + ':' + query.get('appName');
        var parentContainer = null, queued = null;
        window.addEventListener('message', function (e) {
          if (!e.data || e.data.eventType !== 'sendAuthEvent' || e.source.opener !== window.parent) return;
          if (!e.data.data || e.data.data.storageKey !== storageKey) return;
          if (parentContainer) send(e.data.data.authEvent); else queued = e.data.data.authEvent;
        });
        function send(authEvent) {
          parentContainer.send('authEvent', {type: 'authEvent',
            authEvent: authEvent || {type: 'unknown', error: {code: 'auth/no-auth-event'}}},
            function () {}, gapi.iframes.CROSS_ORIGIN_IFRAMES_FILTER);
        }
        window.gapi_onload = function () {
          gapi.load('gapi.iframes', {callback: function () {
            parentContainer = gapi.iframes.getContext().getParentIframe();
            parentContainer.register('webStorageSupport', function () {
              return {status: 'ACK', webStorageSupport: true};
            }, gapi.iframes.CROSS_ORIGIN_IFRAMES_FILTER);
            send(queued);
            queued = null;
          }});
        };
        </script>
        <script src="https://apis.google.com/js/api.js"></script>

        """)

    /// The official emulator's account picker, reduced to what a test or a user needs: an
    /// email, and the fake claims it becomes.
    static func accountPicker(providerId: String, handler: HandlerRequest, tenantId: String?, known: [ProviderLink]) -> HTTPResponse {
        // firebase-tools src/emulator/auth/handlers.ts: each known account carries its claims,
        // URL-encoded, in data-id-token.
        let reuse = known.map { (link: ProviderLink) -> String in
            var claims: [String: Any] = ["sub": link.rawId, "iss": "", "aud": "", "exp": 0, "iat": 0, "email_verified": true]
            claims["name"] = link.displayName
            claims["screen_name"] = link.screenName
            claims["email"] = link.email
            claims["picture"] = link.photoUrl
            let token = FormEncoding.percentEncode(String(decoding: JSONText.data(claims), as: UTF8.self))
            return "<li class=\"js-reuse-account\" data-id-token=\"\(token)\">\(ProviderPage.escape(link.displayName ?? "(No display name)")) "
                + "<span id=\"reuse-email\">\(ProviderPage.escape(link.email ?? ""))</span></li>"
        }.joined(separator: "\n")
        return html(200, """
            <!doctype html>
            <meta charset="utf-8"><title>Auth Emulator IDP Login Widget</title>
            <h1>Sign-in with \(ProviderPage.escape(providerId)) <small>(fbauth stand-in, emulator mode)</small></h1>
            <p id="status"></p>
            <ul id="accounts-list">\(reuse)
            <li class="js-new-account" id="add-account-button">Add new account</li></ul>
            <form id="main-form"><label>Email <input id="email-input" type="text"></label>
            <label>Display name <input id="display-name-input" type="text"></label>
            <label>Screen name <input id="screen-name-input" type="text"></label>
            <label>Profile photo URL <input id="profile-photo-input" type="text"></label>
            <button id="sign-in" type="submit">Sign in with \(ProviderPage.escape(providerId))</button></form>
            <script>
            var apiKey = \(scriptJSON(handler.apiKey)), appName = \(scriptJSON(handler.appName));
            var providerId = \(scriptJSON(providerId)), authType = \(scriptJSON(handler.authType));
            var eventId = \(scriptJSON(handler.eventId ?? "")), tenantId = \(scriptJSON(tenantId ?? ""));
            \(relayScript.replacing("sendAuthEvent(authEvent);", with: ""))
            document.querySelectorAll('.js-reuse-account').forEach(function (el) {
              el.addEventListener('click', function (e) {
                e.preventDefault();
                finish(el.dataset.idToken);
              });
            });
            function finish(urlEncodedClaims) {
              var url = location.href.split('?')[0] + '?providerId=' + encodeURIComponent(providerId) + '&id_token=' + urlEncodedClaims;
              sendAuthEvent({type: authType, eventId: eventId || null, urlResponse: url,
                sessionId: 'ValueNotUsedByAuthEmulator', postBody: '', tenantId: tenantId || null, error: null});
            }
            document.getElementById('main-form').addEventListener('submit', function (e) {
              e.preventDefault();
              var value = function (id) { return document.getElementById(id).value || undefined; };
              var sub = '';
              for (var i = 0; i < 40; i++) sub += Math.floor(Math.random() * 10);
              // The claims of Google's widget (createFakeClaims), spaces in names included.
              var claims = JSON.stringify({sub: sub, iss: '', aud: '', exp: 0, iat: 0,
                name: value('display-name-input'), screen_name: value('screen-name-input'),
                email: value('email-input'), email_verified: true, picture: value('profile-photo-input')});
              finish(encodeURIComponent(claims));
            });
            </script>

            """)
    }
}
