#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP
import FBAuthSupport

/// The page fbauth serves on `http://localhost:PORT` (an authorized domain, which the project's
/// reCAPTCHA keys allow) to prove that a person makes a request (an SMS code, a password
/// sign-in), as the Firebase JS SDK does in an app's page (firebase-js-sdk
/// `platform_browser/recaptcha/recaptcha_enterprise_verifier.ts` and `recaptcha_verifier.ts`):
/// reCAPTCHA Enterprise's `grecaptcha.enterprise.execute(siteKey, {action})` when the project
/// enforces it, else (phone numbers only) a reCAPTCHA v2 checkbox. The token goes to fbauth's
/// listener, which sends it with the request.
struct RecaptchaPage {
    enum Version: String { case enterprise, v2 }

    var version: Version
    var siteKey: String
    /// `mfaSmsSignIn`, `mfaSmsEnrollment`, `signInWithPassword`, `signUpPassword`, `getOobCode`.
    var action: String
    var language: String? = nil

    /// What the person confirms, in the page's title ("the SMS request").
    var request: String {
        switch action {
        case "signInWithPassword": "the password sign-in"
        case "signUpPassword": "the new password"
        case "getOobCode": "the email request"
        default: "the SMS request"
        }
    }

    /// What fbauth does with the token, while the page waits.
    private var handOverText: String {
        action.hasPrefix("mfaSms") ? "Asking Firebase for the SMS." : "Sending the request to Firebase."
    }

    /// Google's scripts (what `_recaptchaEnterpriseScriptUrl` and the v2 loader use).
    static let enterpriseScript = "https://www.google.com/recaptcha/enterprise.js"
    static let v2Script = "https://www.google.com/recaptcha/api.js"

    var response: HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer")],
                     body: Array(html.utf8))
    }

    var html: String {
        let onload = "fbauthRecaptchaReady"
        var script = version == .enterprise
            ? Self.enterpriseScript + "?render=" + FormEncoding.percentEncode(siteKey) + "&onload=" + onload
            : Self.v2Script + "?render=explicit&onload=" + onload
        if let language { script += "&hl=" + FormEncoding.percentEncode(language) }
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>fbauth: confirm \(request)</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <style>body{font-family:system-ui,sans-serif;margin:4em auto;max-width:36em;padding:0 1em}</style></head>
            <body><h1 id="heading">Confirm \(request)</h1>
            <p id="text">\(version == .enterprise ? "Checking that a person makes this request…" : "Tick the box; the code is then sent by SMS.")</p>
            <div id="recaptcha"></div>
            <script type="application/json" id="fbauth-config">\(configJSON)</script>
            <script>\(Self.pageScript)</script>
            <script src="\(ResultPage.escape(script))" async defer onerror="fbauthRecaptchaFailed()"></script>
            </body></html>

            """
    }

    var configJSON: String {
        let config: JSONValue = .object(["siteKey": .string(siteKey), "action": .string(action), "version": .string(version.rawValue),
                                         "sending": .string(handOverText), "title": .string("Confirm " + request)])
        return String(decoding: config.sortedData(), as: UTF8.self)
            .replacing("<", with: "\\u003c").replacing(">", with: "\\u003e").replacing("&", with: "\\u0026")
    }

    static let pageScript = """

        var config = JSON.parse(document.getElementById('fbauth-config').textContent);
        var done = false;
        function show(title, sentence) {
          document.getElementById('heading').textContent = title;
          document.getElementById('text').textContent = sentence;
        }
        function tell(path, body) {
          return fetch(path, {method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify(body), credentials: 'same-origin', cache: 'no-store'}).then(function (r) { return r.json(); });
        }
        function finished(state) { document.documentElement.dataset.fbauth = state; }
        function handOver(token) {
          if (done || !token) return;
          done = true;
          show('Sending…', config.sending);
          tell('\(LocalPageRoutes<String>.resultPath)', {token: token}).then(function (outcome) {
            show(outcome.heading, outcome.text);
            finished(outcome.ok ? 'verified' : 'failed');
          }, function () { show('Failed', 'fbauth did not answer; the terminal says why.'); finished('failed'); });
        }
        function fbauthRecaptchaFailed(message) {
          if (done) return;
          done = true;
          message = message || 'reCAPTCHA could not be loaded from www.google.com.';
          show('Failed', message + ' You can close this tab; details are in the terminal.');
          tell('\(LocalPageRoutes<String>.failurePath)', {code: 'fbauth/recaptcha-unavailable', message: message})
            .then(function () { finished('failed'); }, function () { finished('failed'); });
        }
        window.fbauthRecaptchaReady = function () {
          try {
            if (config.version === 'enterprise') {
              grecaptcha.enterprise.ready(function () {
                grecaptcha.enterprise.execute(config.siteKey, {action: config.action}).then(handOver,
                  function () { fbauthRecaptchaFailed('reCAPTCHA did not confirm this request.'); });
              });
            } else {
              grecaptcha.render('recaptcha', {sitekey: config.siteKey, callback: handOver,
                'expired-callback': function () { show(config.title, 'The check expired; tick the box again.'); }});
            }
          } catch (e) { fbauthRecaptchaFailed('reCAPTCHA failed: ' + e); }
        };

        """

    /// The page's result: `{"token": "…"}`, a token of visible ASCII.
    static func decodeToken(_ body: [UInt8]) -> String? {
        guard let token = JSONValue.parse(Data(body))?["token"]?.stringValue, TokenAlphabet.visible.accepts(token) else { return nil }
        return token
    }
}

/// Proves that a person asks for an SMS code, as the project's `GET /v2/recaptchaConfig` says:
/// reCAPTCHA Enterprise when it protects phone numbers (enforced or audited), else reCAPTCHA
/// v2 with the site key of `/v1/recaptchaParams`, both through `RecaptchaPage` in the browser;
/// nothing where the server has no reCAPTCHA configuration (Google's Auth emulator, which must
/// be sent no reCAPTCHA fields).
internal struct RecaptchaPhoneVerifier: PhoneVerifier {
    let step: RecaptchaBrowserStep

    internal init(flow: BrowserSignInFlow, port: UInt16 = 0, openBrowser: Bool = true, timeout: Duration = .seconds(300)) {
        step = RecaptchaBrowserStep(flow: flow, port: port, openBrowser: openBrowser, timeout: timeout)
    }

    internal func verification(for purpose: PhoneVerificationPurpose) throws(FBAuthError) -> PhoneVerificationFields {
        let flow = step.flow
        guard let config = try flow.client.recaptchaConfig(tenantId: flow.tenantId) else { return .none }
        if config.protects("PHONE_PROVIDER"), let siteKey = config.siteKey {
            return .enterprise(try step.token(RecaptchaPage(version: .enterprise, siteKey: siteKey, action: purpose.recaptchaAction)))
        }
        let siteKey = try flow.client.recaptchaV2SiteKey()
        return .v2(try step.token(RecaptchaPage(version: .v2, siteKey: siteKey, action: purpose.recaptchaAction),
                                  lastResort: "The reCAPTCHA step needs a browser on a machine that reaches this one; or use a TOTP second factor."))
    }
}

/// Serves a `RecaptchaPage` and waits for the token it posts.
struct RecaptchaBrowserStep: Sendable {
    let flow: BrowserSignInFlow
    let port: UInt16
    let openBrowser: Bool
    let timeout: Duration

    func token(_ page: RecaptchaPage, lastResort: String = "The reCAPTCHA step needs a browser on a machine that reaches this one.") throws(FBAuthError) -> String {
        var recaptchaPage = page
        recaptchaPage.language = flow.client.identity.language
        // Ctrl-C is watched from the start, as in `BrowserSignInFlow.run`.
        let interrupts = HeldInterrupts(beginning: flow.interrupts)
        defer { interrupts.endUnused() }
        var watched = flow
        watched.interrupts = interrupts
        var wait = LocalPageWait<String>(
            flow: watched, task: "Confirm \(page.request) (reCAPTCHA)", launchedDetail: "",
            pageFailure: { code, message in .failed(.webInternalError, "the reCAPTCHA page reported an error: \(message.isEmpty ? code : message) [\(code)]") })
        wait.lastResort = lastResort
        let (token, held) = try wait.run(page: recaptchaPage.response, port: port, openBrowser: openBrowser, timeout: timeout,
                                         decodeResult: RecaptchaPage.decodeToken)
        held.respond(LocalPageAnswer.outcome(ok: true, heading: "Confirmed", text: "The request is on its way to Firebase; " + ResultPage.closeTabSentence))
        return token
    }
}

/// Tokens from `RecaptchaPage` in the browser.
internal struct BrowserRecaptchaTokens: RecaptchaTokenSource {
    let step: RecaptchaBrowserStep

    internal init(flow: BrowserSignInFlow, openBrowser: Bool = true, timeout: Duration = .seconds(300)) {
        step = RecaptchaBrowserStep(flow: flow, port: 0, openBrowser: openBrowser, timeout: timeout)
    }

    internal func enterpriseToken(siteKey: String, action: String) throws(FBAuthError) -> String {
        try step.token(RecaptchaPage(version: .enterprise, siteKey: siteKey, action: action))
    }
}
