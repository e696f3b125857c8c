import FBAuthAdmin

/// What an OIDC provider's authorization endpoint returns (firebase-admin's `OAuthResponseType`):
/// exactly one of the two, where both are given.
public struct OAuthResponseType: Sendable, Equatable {
    /// The ID token flow.
    public var idToken: Bool?
    /// The code flow (which needs the client secret).
    public var code: Bool?

    /// The flows given.
    public init(idToken: Bool? = nil, code: Bool? = nil) { (self.idToken, self.code) = (idToken, code) }
}

/// An OpenID Connect provider (firebase-admin's `OIDCAuthProviderConfig`), as created and as read.
public struct OIDCAuthProviderConfig: Sendable, Equatable {
    /// `oidc.` and the provider's name.
    public var providerId: String
    /// The name shown in the console.
    public var displayName: String?
    /// Whether users may sign in with it.
    public var enabled: Bool
    /// The provider's client id, the audience of its ID tokens.
    public var clientId: String
    /// The provider's issuer URL, where its discovery document is.
    public var issuer: String
    /// The client secret, for the code flow.
    public var clientSecret: String?
    /// The flow the provider uses.
    public var responseType: OAuthResponseType?

    /// A provider with the values given.
    public init(providerId: String, displayName: String? = nil, enabled: Bool = false, clientId: String, issuer: String,
                clientSecret: String? = nil, responseType: OAuthResponseType? = nil) {
        (self.providerId, self.displayName, self.enabled, self.clientId) = (providerId, displayName, enabled, clientId)
        (self.issuer, self.clientSecret, self.responseType) = (issuer, clientSecret, responseType)
    }
}

/// A SAML provider (firebase-admin's `SAMLAuthProviderConfig`), as created and as read.
public struct SAMLAuthProviderConfig: Sendable, Equatable {
    /// `saml.` and the provider's name.
    public var providerId: String
    /// The name shown in the console.
    public var displayName: String?
    /// Whether users may sign in with it.
    public var enabled: Bool
    /// The identity provider's entity id.
    public var idpEntityId: String
    /// The identity provider's single sign-on URL.
    public var ssoURL: String
    /// The identity provider's X.509 certificates (several, for key rotation).
    public var x509Certificates: [String]
    /// The relying party's (Firebase's) entity id.
    public var rpEntityId: String
    /// Firebase's callback URL (`https://PROJECT.firebaseapp.com/__/auth/handler`).
    public var callbackURL: String?
    /// Whether requests to the identity provider are signed.
    public var enableRequestSigning: Bool?

    /// A provider with the values given.
    public init(providerId: String, displayName: String? = nil, enabled: Bool = false, idpEntityId: String, ssoURL: String, x509Certificates: [String],
                rpEntityId: String, callbackURL: String?, enableRequestSigning: Bool? = nil) {
        (self.providerId, self.displayName, self.enabled, self.idpEntityId, self.ssoURL) = (providerId, displayName, enabled, idpEntityId, ssoURL)
        (self.x509Certificates, self.rpEntityId, self.callbackURL, self.enableRequestSigning) = (x509Certificates, rpEntityId, callbackURL, enableRequestSigning)
    }
}

/// A provider configuration of either kind (firebase-admin's `AuthProviderConfig`).
public enum AuthProviderConfig: Sendable, Equatable {
    /// An OpenID Connect provider (`oidc.…`).
    case oidc(OIDCAuthProviderConfig)
    /// A SAML provider (`saml.…`).
    case saml(SAMLAuthProviderConfig)

    /// The provider's id (`oidc.…`, `saml.…`).
    public var providerId: String {
        switch self {
        case .oidc(let config): config.providerId
        case .saml(let config): config.providerId
        }
    }

    init(_ config: AdminProviderConfig) {
        switch config {
        case .oidc(let oidc):
            self = .oidc(OIDCAuthProviderConfig(providerId: oidc.providerId, displayName: oidc.displayName, enabled: oidc.enabled, clientId: oidc.clientId,
                                                issuer: oidc.issuer, clientSecret: oidc.clientSecret,
                                                responseType: oidc.responseType.map { OAuthResponseType(idToken: $0.idToken, code: $0.code) }))
        case .saml(let saml):
            self = .saml(SAMLAuthProviderConfig(providerId: saml.providerId, displayName: saml.displayName, enabled: saml.enabled, idpEntityId: saml.idpEntityId,
                                                ssoURL: saml.ssoURL, x509Certificates: saml.x509Certificates, rpEntityId: saml.rpEntityId,
                                                callbackURL: saml.callbackURL, enableRequestSigning: saml.enableRequestSigning))
        }
    }

    /// A whole configuration is a change that gives every field.
    var engine: AdminProviderChange {
        switch self {
        case .oidc(let config):
            UpdateAuthProviderRequest.oidc(OIDCUpdateAuthProviderRequest(displayName: config.displayName, enabled: config.enabled, clientId: config.clientId,
                                                                         issuer: config.issuer, clientSecret: config.clientSecret,
                                                                         responseType: config.responseType)).engine
        case .saml(let config):
            UpdateAuthProviderRequest.saml(SAMLUpdateAuthProviderRequest(displayName: config.displayName, enabled: config.enabled, idpEntityId: config.idpEntityId,
                                                                         ssoURL: config.ssoURL, x509Certificates: config.x509Certificates,
                                                                         rpEntityId: config.rpEntityId, callbackURL: config.callbackURL,
                                                                         enableRequestSigning: config.enableRequestSigning)).engine
        }
    }
}

/// What to change of an OIDC provider (firebase-admin's `OIDCUpdateAuthProviderRequest`): nil is left as it is.
public struct OIDCUpdateAuthProviderRequest: Sendable {
    /// The new `displayName`; nil: left as it is.
    public var displayName: String?
    /// The new `enabled`; nil: left as it is.
    public var enabled: Bool?
    /// The new `clientId`; nil: left as it is.
    public var clientId: String?
    /// The new `issuer`; nil: left as it is.
    public var issuer: String?
    /// The new `clientSecret`; nil: left as it is.
    public var clientSecret: String?
    /// The new `responseType`; nil: left as it is.
    public var responseType: OAuthResponseType?

    /// A change of the values given.
    public init(displayName: String? = nil, enabled: Bool? = nil, clientId: String? = nil, issuer: String? = nil, clientSecret: String? = nil,
                responseType: OAuthResponseType? = nil) {
        (self.displayName, self.enabled, self.clientId, self.issuer, self.clientSecret, self.responseType) = (displayName, enabled, clientId, issuer, clientSecret, responseType)
    }
}

/// What to change of a SAML provider (firebase-admin's `SAMLUpdateAuthProviderRequest`): nil is left as it is.
public struct SAMLUpdateAuthProviderRequest: Sendable {
    /// The new `displayName`; nil: left as it is.
    public var displayName: String?
    /// The new `enabled`; nil: left as it is.
    public var enabled: Bool?
    /// The new `idpEntityId`; nil: left as it is.
    public var idpEntityId: String?
    /// The new `ssoURL`; nil: left as it is.
    public var ssoURL: String?
    /// The new `x509Certificates`; nil: left as it is.
    public var x509Certificates: [String]?
    /// The new `rpEntityId`; nil: left as it is.
    public var rpEntityId: String?
    /// The new `callbackURL`; nil: left as it is.
    public var callbackURL: String?
    /// The new `enableRequestSigning`; nil: left as it is.
    public var enableRequestSigning: Bool?

    /// A change of the values given.
    public init(displayName: String? = nil, enabled: Bool? = nil, idpEntityId: String? = nil, ssoURL: String? = nil, x509Certificates: [String]? = nil,
                rpEntityId: String? = nil, callbackURL: String? = nil, enableRequestSigning: Bool? = nil) {
        (self.displayName, self.enabled, self.idpEntityId, self.ssoURL) = (displayName, enabled, idpEntityId, ssoURL)
        (self.x509Certificates, self.rpEntityId, self.callbackURL, self.enableRequestSigning) = (x509Certificates, rpEntityId, callbackURL, enableRequestSigning)
    }
}

/// A change of either kind (firebase-admin's `UpdateAuthProviderRequest`).
public enum UpdateAuthProviderRequest: Sendable {
    /// A change of an OpenID Connect provider.
    case oidc(OIDCUpdateAuthProviderRequest)
    /// A change of a SAML provider.
    case saml(SAMLUpdateAuthProviderRequest)

    var engine: AdminProviderChange {
        switch self {
        case .oidc(let update):
            var change = AdminProviderChange(kind: .oidc)
            (change.displayName, change.enabled, change.clientId, change.issuer) = (update.displayName, update.enabled, update.clientId, update.issuer)
            (change.clientSecret, change.responseType) = (update.clientSecret, update.responseType.map { .init(idToken: $0.idToken, code: $0.code) })
            return change
        case .saml(let update):
            var change = AdminProviderChange(kind: .saml)
            (change.displayName, change.enabled, change.idpEntityId, change.ssoURL) = (update.displayName, update.enabled, update.idpEntityId, update.ssoURL)
            (change.x509Certificates, change.rpEntityId, change.callbackURL) = (update.x509Certificates, update.rpEntityId, update.callbackURL)
            change.enableRequestSigning = update.enableRequestSigning
            return change
        }
    }
}

/// Which configurations to list (firebase-admin's `AuthProviderConfigFilter`).
public struct AuthProviderConfigFilter: Sendable {
    /// The kind of provider (`AuthProviderConfigFilter.type` in firebase-admin).
    public enum ProviderConfigType: String, Sendable {
        /// OpenID Connect providers.
        case oidc
        /// SAML providers.
        case saml
    }

    /// OIDC or SAML.
    public var type: ProviderConfigType
    /// At most this many (1 to 100; nil: 100).
    public var maxResults: Int?
    /// The page to start from; nil: the first.
    public var pageToken: String?

    /// A filter of the kind given.
    public init(type: ProviderConfigType, maxResults: Int? = nil, pageToken: String? = nil) { (self.type, self.maxResults, self.pageToken) = (type, maxResults, pageToken) }
}

/// A page of provider configurations (firebase-admin's `ListProviderConfigResults`).
public struct ListProviderConfigResults: Sendable {
    /// This page's configurations.
    public let providerConfigs: [AuthProviderConfig]
    /// The token of the next page; nil on the last.
    public let pageToken: String?
}

/// The OIDC and SAML providers users sign in with, of the project (or, in a `TenantAwareAuth`,
/// of the tenant), as firebase-admin's `BaseAuth` manages them.
extension AdminAuth {
    /// Creates a provider configuration; its id's prefix (`oidc.`, `saml.`) must be its kind's.
    public func createProviderConfig(_ config: AuthProviderConfig) async throws -> AuthProviderConfig {
        let (providerId, change) = (config.providerId, config.engine)
        return try await adminCall { try AuthProviderConfig($0.createProviderConfig(providerId, change)) }
    }

    /// The configuration of `providerId`; `auth/configuration-not-found` when there is none.
    public func getProviderConfig(_ providerId: String) async throws -> AuthProviderConfig {
        try await adminCall { try AuthProviderConfig($0.getProviderConfig(providerId)) }
    }

    /// A page of the configurations of one kind.
    public func listProviderConfigs(_ options: AuthProviderConfigFilter) async throws -> ListProviderConfigResults {
        try await adminCall { api in
            let page = try api.listProviderConfigs(options.type == .oidc ? .oidc : .saml, maxResults: options.maxResults ?? AdminAPI.maxListProviderConfigs,
                                                   pageToken: options.pageToken)
            return ListProviderConfigResults(providerConfigs: page.configs.map(AuthProviderConfig.init), pageToken: page.pageToken)
        }
    }

    /// Changes what `updatedConfig` gives, and nothing else.
    public func updateProviderConfig(_ providerId: String, _ updatedConfig: UpdateAuthProviderRequest) async throws -> AuthProviderConfig {
        let change = updatedConfig.engine
        return try await adminCall { try AuthProviderConfig($0.updateProviderConfig(providerId, change)) }
    }

    /// Deletes the configuration of `providerId`.
    public func deleteProviderConfig(_ providerId: String) async throws {
        try await adminCall { try $0.deleteProviderConfig(providerId) }
    }
}
