import LoopbackHTTP

/// Decides whether a request that reached the loopback listener is the provider's redirect
/// for this flow. A pure function of the request, so it can be tested and fuzzed alone.
///
/// The authorization URL that Firebase returns carries the value the provider will send back:
/// `state` for OAuth 2 providers, `oauth_token` for OAuth 1.0a (Twitter). Only a request on
/// the redirect path that carries that same value is accepted; anything else is answered with
/// a 4xx and the wait goes on.
package struct CallbackMatcher: Sendable, Equatable {
    package enum Binding: Sendable, Equatable {
        case state(String)
        case oauthToken(String)
        /// The authorization URL carried neither (unusual); any callback with a result is taken.
        case none
    }

    package let redirectPath: String
    package let binding: Binding
    /// `Host` header values a genuine browser sends for our redirect URI (a guard against DNS
    /// rebinding: a page elsewhere cannot make the browser post to us under another name).
    package let acceptedHosts: Set<String>
    /// Parameters of which one must be present for a result: the OAuth providers' codes and
    /// tokens, or an email link's `oobCode`.
    package let resultKeys: [String]

    package static let oauthResultKeys = ["code", "oauth_verifier", "id_token", "access_token", "SAMLResponse"]

    package init(redirectPath: String, binding: Binding, port: UInt16, resultKeys: [String] = oauthResultKeys) {
        self.redirectPath = redirectPath
        self.binding = binding
        self.resultKeys = resultKeys
        let names = ["localhost", "127.0.0.1", "[::1]"]
        // Browsers leave out the default port.
        acceptedHosts = Set(names.map { "\($0):\(port)" } + (port == 80 ? names : []))
    }

    /// Reads the binding from the authorization URL's query.
    package static func binding(forAuthorizationURL url: String) -> Binding {
        let query = url.firstIndex(of: "?").map { String(url[url.index(after: $0)...]) } ?? ""
        let items = FormEncoding.decode(String(query.prefix { $0 != "#" }))
        if let state = items.first(where: { $0.name == "state" })?.value, !state.isEmpty { return .state(state) }
        if let token = items.first(where: { $0.name == "oauth_token" })?.value, !token.isEmpty { return .oauthToken(token) }
        return .none
    }

    package enum Verdict: Sendable, Equatable {
        /// The provider's answer for this flow: exchange it.
        case authorized(parameters: [String: String])
        /// The provider reported an error for this flow (e.g. the user denied consent).
        case providerError(code: String, description: String?)
        /// Not the callback; answer with this status and keep waiting.
        case rejected(status: Int, reason: String)
    }

    package func classify(_ request: HTTPRequest) -> Verdict {
        guard request.path == redirectPath else { return .rejected(status: 404, reason: "not found") }
        guard request.method == "GET" || request.method == "POST" else {
            return .rejected(status: 405, reason: "method not allowed")
        }
        guard let host = request.header("Host")?.lowercased(), acceptedHosts.contains(host) else {
            return .rejected(status: 400, reason: "unexpected Host header")
        }
        // Providers that answer with `response_mode=form_post` put the result in the body.
        let items = request.queryItems + (request.method == "POST" ? request.formItems : [])
        var parameters: [String: String] = [:]
        for item in items where parameters[item.name] == nil { parameters[item.name] = item.value }

        switch binding {
        case .state(let expected):
            guard parameters["state"] == expected else {
                return .rejected(status: 400, reason: parameters["state"] == nil ? "missing state" : "state does not match this sign-in")
            }
        case .oauthToken(let expected):
            // OAuth 1.0a: a denial comes back as `denied=<request token>`.
            if parameters["denied"] == expected {
                return .providerError(code: "access_denied", description: "the user denied access")
            }
            guard parameters["oauth_token"] == expected else {
                return .rejected(status: 400, reason: parameters["oauth_token"] == nil ? "missing oauth_token" : "oauth_token does not match this sign-in")
            }
        case .none:
            break
        }
        if let error = parameters["error"] {
            return .providerError(code: error, description: parameters["error_description"])
        }
        guard resultKeys.contains(where: { parameters[$0] != nil }) else {
            return .rejected(status: 400, reason: "the redirect carries no authorization result")
        }
        return .authorized(parameters: parameters)
    }
}
