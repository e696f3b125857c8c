#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

extension Backend {
    static let createAuthUriFields: Set<String> = [
        "providerId", "continueUri", "customParameter", "oauthScope", "sessionId", "tenantId", "authFlowType",
        "context", "hostedDomain", "identifier", "appId", "oauthConsumerKey", "openidRealm", "otaApp",
    ]

    /// `accounts:createAuthUri` (the Identity Toolkit v1 reference, accounts.createAuthUri;
    /// firebase-tools src/emulator/auth/schema.ts): either an authorization URL at a fake
    /// provider, or (with `identifier`) the sign-in methods of an email.
    func createAuthUri(_ body: JSONBody) throws(APIError) -> [String: Any] {
        let providerId = try body.string("providerId")
        let identifier = try body.string("identifier")
        // Google's emulator says the bare codes.
        let terse = configuration.profile.has(.googleErrorWords)
        guard providerId != nil || identifier != nil else {
            throw .badRequest(terse ? "MISSING_IDENTIFIER" : "MISSING_IDENTIFIER : Either identifier or providerId must be specified")
        }
        guard let continueUri = try body.string("continueUri"), !continueUri.isEmpty else { throw .badRequest("MISSING_CONTINUE_URI") }
        guard let continueURL = URL(string: continueUri), let scheme = continueURL.scheme, ["http", "https"].contains(scheme),
            continueURL.host != nil
        else {
            throw .badRequest(terse ? "INVALID_CONTINUE_URI" : "INVALID_CONTINUE_URI : Invalid parameter value for redirect_uri: not an absolute URL")
        }
        guard continueURL.fragment == nil, !continueUri.contains("#") else {
            throw .badRequest("INVALID_CONTINUE_URI : Invalid parameter value for redirect_uri: fragment not allowed.")
        }
        guard !FormEncoding.decode(continueURL.query ?? "").contains(where: { $0.name == "state" }) else {
            throw .badRequest("INVALID_CONTINUE_URI : The continue URI cannot contain the reserved state query parameter.")
        }
        let tenantId = try body.string("tenantId")

        if let identifier {
            var answer = try signInMethods(for: identifier, tenantId: tenantId)
            answer["sessionId"] = try body.string("sessionId") ?? RandomToken.make(bytes: 20)
            return answer
        }
        if configuration.profile.has(.noOAuthCodeFlow) {
            throw APIError(httpStatus: 501, message: "Sign-in with IDP is not yet supported.", status: "NOT_IMPLEMENTED", reason: "unimplemented")
        }
        let provider = providerId!
        guard Self.isProviderID(provider) else { throw .badRequest("INVALID_PROVIDER_ID : Provider Id is not supported.") }
        let customParameters = try body.stringMap("customParameter") ?? [:]
        let scopes = Self.scopes(fromOAuthScope: try body.string("oauthScope"), providerId: provider)
        let sessionId = try body.string("sessionId") ?? RandomToken.make(bytes: 20)
        // Google's default is the ID-token flow; the code flow must be asked for.
        let authFlowType = try body.string("authFlowType")
        let idTokenFlow = provider == "google.com" && authFlowType != "CODE_FLOW"
        let authUri = try startAuthorization(
            provider: provider, continueUri: continueUri, scopes: scopes, customParameters: customParameters,
            tenantId: tenantId, sessionId: sessionId, handlerRequest: nil, idTokenFlow: idTokenFlow)
        return [
            "kind": "identitytoolkit#CreateAuthUriResponse",
            "authUri": authUri,
            "providerId": provider,
            "sessionId": sessionId,
        ]
    }

    /// `oauthScope` in either form production receives: space-delimited (the v1 reference) or
    /// the hosted handler's JSON object keyed by provider with comma-joined scopes.
    static func scopes(fromOAuthScope text: String?, providerId: String) -> [String] {
        guard let text, !text.isEmpty else { return [] }
        if text.hasPrefix("{"), let object = JSONText.parse(Data(text.utf8)) as? [String: Any] {
            return (object[providerId] as? String ?? "").split(separator: ",").map(String.init)
        }
        return text.split(separator: " ").map(String.init)
    }

    /// Records an authorization waiting for the provider and returns the URL that starts it.
    func startAuthorization(provider: String, continueUri: String, scopes: [String], customParameters: [String: String],
                            tenantId: String?, sessionId: String, handlerRequest: HandlerRequest?, idTokenFlow: Bool = false) throws(APIError) -> String {
        if let reserved = customParameters.keys.first(where: { ["client_id", "response_type", "scope", "redirect_uri", "state"].contains($0) }) {
            throw .badRequest("INVALID_ARGUMENT : Custom parameter \(reserved) is reserved and cannot be set.")
        }
        let isOAuth1 = provider == "twitter.com"
        let binding = isOAuth1 ? RandomToken.make(bytes: 18) : RandomToken.make(bytes: 32)
        pendingAuthorizations[binding] = PendingAuthorization(
            providerId: provider, sessionId: sessionId, continueUri: continueUri, tenantId: tenantId,
            binding: binding, scopes: scopes, customParameters: customParameters, createdAt: now(), handlerRequest: handlerRequest,
            idTokenFlow: idTokenFlow)
        return authorizationURL(provider: provider, binding: binding, continueUri: continueUri, scopes: scopes, customParameters: customParameters,
                                responseType: idTokenFlow ? "id_token" : "code")
    }

    /// The provider's authorization URL, in the shape each real provider uses.
    private func authorizationURL(provider: String, binding: String, continueUri: String, scopes: [String], customParameters: [String: String],
                                  responseType: String) -> String {
        var parameters = customParameters
        let extra = { (parameters: [String: String]) in parameters.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) } }
        if provider == "twitter.com" {
            return "\(baseURL)/fake-idp/twitter.com/oauth/authenticate?" + FormEncoding.encode([("oauth_token", binding)] + extra(parameters))
        }
        var path = "/fake-idp/\(provider)/authorize"
        if provider == "microsoft.com" {
            path = "/fake-idp/microsoft.com/\(parameters.removeValue(forKey: "tenant") ?? "common")/oauth2/v2.0/authorize"
        }
        let defaultScopes = provider == "github.com" ? ["user:email"] : ["openid", "email", "profile"]
        var items: [(name: String, value: String)] = [
            ("client_id", "fake-\(provider)-client"), ("redirect_uri", continueUri), ("response_type", responseType),
            ("scope", (defaultScopes + scopes).joined(separator: " ")), ("state", binding),
        ]
        items += extra(parameters)
        return baseURL + path + "?" + FormEncoding.encode(items)
    }

    private func signInMethods(for email: String, tenantId: String?) throws(APIError) -> [String: Any] {
        guard email.contains("@"), !email.hasPrefix("@"), !email.hasSuffix("@") else { throw .badRequest("INVALID_IDENTIFIER") }
        var answer: [String: Any] = ["kind": "identitytoolkit#CreateAuthUriResponse"]
        guard !configuration.emailEnumerationProtection else { return answer }
        answer["registered"] = false
        answer["allProviders"] = [String]()
        answer["signinMethods"] = [String]()
        let lowered = email.lowercased()
        guard configuration.oneAccountPerEmail else {
            // Several users may share the address: only its password methods are told.
            // Found by its address or a provider's, as long as the user has an address of its own.
            let candidates = accounts.accounts(withEmail: lowered, tenantId: tenantId) + accounts.accounts(withProviderEmail: lowered, tenantId: tenantId)
            guard let account = candidates.first(where: { $0.email != nil }) else { return answer }
            answer["registered"] = true
            if account.hasPassword || account.emailLinkSignIn {
                answer["allProviders"] = ["password"]
                answer["signinMethods"] = Self.passwordMethods(of: account)
            }
            return answer
        }
        // Found by the account's email or by a linked provider's email.
        let owner = account(withEmail: email, tenantId: tenantId) ?? accounts.accounts(withProviderEmail: lowered, tenantId: tenantId).first
        guard let account = owner else { return answer }
        let others = account.links.map(\.providerId).filter { $0 != "phone" }
        let hasPassword = account.hasPassword || account.emailLinkSignIn
        answer["registered"] = true
        answer["allProviders"] = (hasPassword ? ["password"] : []) + others
        answer["signinMethods"] = (hasPassword ? Self.passwordMethods(of: account) : []) + others
        return answer
    }

    /// `password` and `emailLink`, as the user may use them.
    private static func passwordMethods(of account: Account) -> [String] {
        (account.hasPassword ? ["password"] : []) + (account.emailLinkSignIn ? ["emailLink"] : [])
    }

    static func isProviderID(_ id: String) -> Bool {
        id.contains(".") && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }
}
