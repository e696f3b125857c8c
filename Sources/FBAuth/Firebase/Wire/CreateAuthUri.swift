/// `accounts:createAuthUri` (Identity Toolkit v1 reference; firebase-tools
/// `src/emulator/auth/schema.ts`). Only documented fields are sent: the real service rejects
/// unknown ones.
public struct CreateAuthUriRequest: Encodable, Sendable, Equatable {
    public var providerId: String?
    /// The redirect URI: the loopback listener's, or `http://localhost` for email look-ups.
    public var continueUri: String
    public var customParameter: [String: String]?
    /// Extra scopes, as the hosted handler sends them: `{"PROVIDER":"scope1,scope2"}`.
    public var oauthScope: String?
    public var tenantId: String?
    /// An email to look up sign-in methods for.
    public var identifier: String?
    /// `CODE_FLOW` for Google's authorization-code flow.
    public var authFlowType: String?

    public init(providerId: String? = nil, continueUri: String, customParameter: [String: String]? = nil,
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

public struct CreateAuthUriResponse: Decodable, Sendable, Equatable {
    public var authUri: String?
    public var sessionId: String?
    public var providerId: String?
    public var registered: Bool?
    public var signinMethods: [String]?
    public var allProviders: [String]?

    enum CodingKeys: String, CodingKey {
        case authUri, sessionId, providerId, registered, signinMethods, allProviders
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        authUri = c.string(.authUri)
        sessionId = c.string(.sessionId)
        providerId = c.string(.providerId)
        registered = c.bool(.registered)
        signinMethods = c.strings(.signinMethods)
        allProviders = c.strings(.allProviders)
    }
}
