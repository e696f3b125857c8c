/// `accounts:createAuthUri` (Identity Toolkit v1 reference; firebase-tools
/// `src/emulator/auth/schema.ts`). Only documented fields are sent: the real service rejects
/// unknown ones.
internal struct CreateAuthUriRequest: Encodable, Sendable, Equatable {
    internal var providerId: String?
    /// The redirect URI: the loopback listener's, or `http://localhost` for email look-ups.
    internal var continueUri: String
    internal var customParameter: [String: String]?
    /// Extra scopes, as the hosted handler sends them: `{"PROVIDER":"scope1,scope2"}`.
    internal var oauthScope: String?
    internal var tenantId: String?
    /// An email to look up sign-in methods for.
    internal var identifier: String?
    /// `CODE_FLOW` for Google's authorization-code flow.
    internal var authFlowType: String?

    internal init(providerId: String? = nil, continueUri: String, customParameter: [String: String]? = nil,
                oauthScope: String? = nil, tenantId: String? = nil, identifier: String? = nil, authFlowType: String? = nil) {
        self.authFlowType = authFlowType
        self.providerId = providerId
        self.continueUri = continueUri
        self.customParameter = customParameter
        self.oauthScope = oauthScope
        self.tenantId = tenantId
        self.identifier = identifier
    }
}

internal struct CreateAuthUriResponse: Decodable, Sendable, Equatable {
    internal var authUri: String?
    internal var sessionId: String?
    internal var providerId: String?
    internal var registered: Bool?
    internal var signinMethods: [String]?
    internal var allProviders: [String]?

    enum CodingKeys: String, CodingKey {
        case authUri, sessionId, providerId, registered, signinMethods, allProviders
    }

    internal init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        authUri = c.string(.authUri)
        sessionId = c.string(.sessionId)
        providerId = c.string(.providerId)
        registered = c.bool(.registered)
        signinMethods = c.strings(.signinMethods)
        allProviders = c.strings(.allProviders)
    }
}
