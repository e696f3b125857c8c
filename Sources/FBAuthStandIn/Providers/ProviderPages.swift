#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// The fake providers' web pages: the authorization endpoint shows a consent page; the
/// consent form redirects to the redirect URI with a code (OAuth 2) or verifier (OAuth 1.0a),
/// or with the provider's denial.
extension Backend {
    /// `GET /fake-idp/<provider>/authorize`, `/fake-idp/microsoft.com/<tenant>/oauth2/v2.0/authorize`
    /// and Twitter's `/fake-idp/twitter.com/oauth/authenticate`.
    func authorizationPage(_ request: HTTPRequest) -> HTTPResponse {
        let segments = request.path.split(separator: "/").map(String.init)
        guard segments.count >= 3 else { return ProviderPage.error(404, "Unknown page.") }
        let providerId = segments[1]
        var parameters: [String: String] = [:]
        for item in request.queryItems where parameters[item.name] == nil { parameters[item.name] = item.value }
        let tenant = providerId == "microsoft.com" && segments.count >= 4 ? segments[2] : nil
        authorizations.append(RecordedAuthorization(providerId: providerId, tenant: tenant, parameters: parameters))

        let binding = providerId == "twitter.com" ? parameters["oauth_token"] : parameters["state"]
        guard let binding, let pending = pendingAuthorizations[binding], pending.providerId == providerId else {
            return ProviderPage.error(400, "This authorization request is unknown or has expired.")
        }
        if providerId != "twitter.com" {
            // What a real provider checks before showing consent.
            guard parameters["client_id"] == "fake-\(providerId)-client" else { return ProviderPage.error(400, "invalid_client") }
            guard parameters["redirect_uri"] == pending.continueUri else {
                return ProviderPage.error(400, "redirect_uri does not match the registered redirect URI.")
            }
            guard parameters["response_type"] == (pending.idTokenFlow ? "id_token" : "code") else {
                return ProviderPage.error(400, "unsupported_response_type")
            }
        }
        // Scripts and tests without a person: consent at once, as the account the request
        // hints (`login_hint`, fbauth's `--email`) or the one the emulator was given.
        if let automatic = configuration.autoConsentEmail {
            return allow(flow: binding, pending: pending, email: parameters["login_hint"].flatMap { $0.contains("@") ? $0 : nil } ?? automatic)
        }
        return ProviderPage.consent(
            providerId: providerId, flow: binding, email: parameters["login_hint"] ?? "",
            scopes: pending.scopes, redirectURI: pending.continueUri)
    }

    /// `POST /fake-idp/consent` with `flow`, `email` and `decision` (allow or deny).
    func consent(_ request: HTTPRequest) -> HTTPResponse {
        var form: [String: String] = [:]
        for item in request.formItems where form[item.name] == nil { form[item.name] = item.value }
        guard let flow = form["flow"], let pending = pendingAuthorizations[flow] else {
            return ProviderPage.error(400, "This authorization request is unknown or has expired.")
        }
        let isOAuth1 = pending.providerId == "twitter.com"
        guard form["decision"] == "allow" else {
            // The hosted handler passes the denial on to signInWithIdp, which ends the authorization.
            if pending.handlerRequest == nil { pendingAuthorizations[flow] = nil }
            let denial: [(name: String, value: String)] = isOAuth1
                ? [("denied", flow)]
                : [("error", "access_denied"), ("error_description", "The user denied the request."), ("state", flow)]
            return .redirect(to: Self.appending(denial, to: pending.continueUri))
        }
        let email = (form["email"] ?? "").trimmed()
        guard email.contains("@"), email.count <= 254 else {
            return ProviderPage.consent(
                providerId: pending.providerId, flow: flow, email: email, scopes: pending.scopes,
                redirectURI: pending.continueUri, problem: "Enter an email address.")
        }
        return allow(flow: flow, pending: pending, email: email)
    }

    /// The provider's answer once the user allowed, signed in as `email`: a code (or, for
    /// OAuth 1.0a, a verifier; for the ID-token flow, the token) sent back to the redirect URI.
    private func allow(flow: String, pending: PendingAuthorization, email: String) -> HTTPResponse {
        let isOAuth1 = pending.providerId == "twitter.com"
        let identity = ProviderIdentity.make(
            providerId: pending.providerId, email: email, tenant: pending.customParameters["tenant"],
            mintToken: { RandomToken.make(bytes: 24) })
        let grant = RandomToken.make(bytes: 24)
        grants[grant] = IssuedGrant(binding: flow, identity: identity)
        if pending.idTokenFlow {
            // The ID-token flow answers in the fragment, which never reaches a server.
            return .redirect(to: pending.continueUri + "#" + FormEncoding.encode([("id_token", grant), ("state", flow)]))
        }
        let result: [(name: String, value: String)] = isOAuth1
            ? [("oauth_token", flow), ("oauth_verifier", grant)]
            : [("code", grant), ("state", flow)]
        return .redirect(to: Self.appending(result, to: pending.continueUri))
    }

    static func appending(_ items: [(name: String, value: String)], to uri: String) -> String {
        uri + (uri.contains("?") ? "&" : "?") + FormEncoding.encode(items)
    }
}

/// The fake providers' HTML.
enum ProviderPage {
    static func consent(providerId: String, flow: String, email: String, scopes: [String], redirectURI: String, problem: String? = nil) -> HTTPResponse {
        let name = escape(providerId)
        let scopeList = scopes.isEmpty ? "" : "<p>Extra permissions: \(escape(scopes.joined(separator: ", ")))</p>"
        let warning = problem.map { "<p class=\"problem\">\(escape($0))</p>" } ?? ""
        return .html(200, """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Sign in with \(name) (fake)</title>
            <style>body{font-family:system-ui,sans-serif;margin:4em auto;max-width:30em;padding:0 1em}
            .problem{color:#b00}button{margin-right:1em}</style></head>
            <body><h1>\(name) <small>(fbauth stand-in)</small></h1>
            <p>An app wants to sign you in and will be sent back to <code>\(escape(redirectURI))</code>.</p>
            \(scopeList)\(warning)
            <form method="post" action="/fake-idp/consent" data-fbauth-consent>
            <input type="hidden" name="flow" value="\(escape(flow))">
            <label>Email <input type="email" name="email" value="\(escape(email))" required></label>
            <p><button type="submit" name="decision" value="allow">Allow</button>
            <button type="submit" name="decision" value="deny" formnovalidate>Deny</button></p>
            </form></body></html>

            """)
    }

    static func error(_ status: Int, _ text: String) -> HTTPResponse {
        .html(status, "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Error</title></head><body><p>\(escape(text))</p></body></html>\n")
    }

    static func escape(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;")
            .replacing(">", with: "&gt;").replacing("\"", with: "&quot;")
            .replacing("'", with: "&#39;")
    }
}
