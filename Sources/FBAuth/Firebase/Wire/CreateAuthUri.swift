/// `accounts:createAuthUri` (Identity Toolkit v1 reference; firebase-tools
/// `src/emulator/auth/schema.ts`). Only documented fields are sent: the real service rejects
/// unknown ones.
package struct CreateAuthUriRequest: Encodable, Sendable, Equatable {
    package var providerId: String?
    /// The redirect URI: the loopback listener's, or `http://localhost` for email look-ups.
    package var continueUri: String
    package var customParameter: [String: String]?
    /// Extra scopes, as the hosted handler sends them: `{"PROVIDER":"scope1,scope2"}`.
    package var oauthScope: String?
    package var tenantId: String?
    /// An email to look up sign-in methods for.
    package var identifier: String?
    /// `CODE_FLOW` for Google's authorization-code flow.
    package var authFlowType: String?

    package init(providerId: String? = nil, continueUri: String, customParameter: [String: String]? = nil,
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

package struct CreateAuthUriResponse: Decodable, Sendable, Equatable {
    package var authUri: String?
    package var sessionId: String?
    package var providerId: String?
    package var registered: Bool?
    package var signinMethods: [String]?
    package var allProviders: [String]?

    enum CodingKeys: String, CodingKey {
        case authUri, sessionId, providerId, registered, signinMethods, allProviders
    }

    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        authUri = c.string(.authUri)
        sessionId = c.string(.sessionId)
        providerId = c.string(.providerId)
        registered = c.bool(.registered)
        signinMethods = c.strings(.signinMethods)
        allProviders = c.strings(.allProviders)
    }
}
