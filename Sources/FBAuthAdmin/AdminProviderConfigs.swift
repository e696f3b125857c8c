import FBAuthHTTP
import FBAuthSupport
import FBAuthVerification

/// An OpenID Connect or SAML provider configuration as firebase-admin-node's `OIDCConfig` and
/// `SAMLConfig` read one from the Admin API.
package enum AdminProviderConfig: Sendable, Equatable {
    case oidc(OIDC)
    case saml(SAML)

    package struct OIDC: Sendable, Equatable {
        package var providerId: String
        package var displayName: String?
        package var enabled: Bool
        package var issuer: String
        package var clientId: String
        package var clientSecret: String?
        package var responseType: ResponseType?
    }

    package struct SAML: Sendable, Equatable {
        package var providerId: String
        package var displayName: String?
        package var enabled: Bool
        package var idpEntityId: String
        package var ssoURL: String
        package var x509Certificates: [String]
        package var rpEntityId: String
        package var callbackURL: String?
        package var enableRequestSigning: Bool
    }

    /// What an OIDC provider's authorization endpoint returns (`OAuthResponseType`).
    package struct ResponseType: Sendable, Equatable {
        package var idToken: Bool?
        package var code: Bool?
        package init(idToken: Bool?, code: Bool?) { (self.idToken, self.code) = (idToken, code) }
    }

    package var providerId: String {
        switch self {
        case .oidc(let config): config.providerId
        case .saml(let config): config.providerId
        }
    }

    /// The configuration in `resource`, named `projects/P[/tenants/T]/COLLECTION/ID`.
    init(_ resource: JSONValue, kind: AdminProviderKind) throws(TokenRefusal) {
        let invalid = AdminErrors.client("INTERNAL_ERROR", message: "INTERNAL ASSERT FAILED: Invalid \(kind.name) configuration response")
        guard let name = resource["name"]?.stringValue, let range = name.firstRange(of: "/\(kind.collection)/"),
              case let id = String(name[range.upperBound...]), id.hasPrefix(kind.prefix) else { throw invalid }
        switch kind {
        case .oidc:
            guard let issuer = resource["issuer"]?.stringValue, !issuer.isEmpty, let clientId = resource["clientId"]?.stringValue, !clientId.isEmpty else { throw invalid }
            var responseType: ResponseType?
            if case .object(let types)? = resource["responseType"] {
                responseType = ResponseType(idToken: types["idToken"].flatMap(Self.bool), code: types["code"].flatMap(Self.bool))
            }
            self = .oidc(OIDC(providerId: id, displayName: resource["displayName"]?.stringValue, enabled: resource["enabled"] == .bool(true), issuer: issuer,
                              clientId: clientId, clientSecret: resource["clientSecret"]?.stringValue, responseType: responseType))
        case .saml:
            guard let idp = resource["idpConfig"], let idpEntityId = idp["idpEntityId"]?.stringValue, !idpEntityId.isEmpty,
                  let ssoURL = idp["ssoUrl"]?.stringValue, !ssoURL.isEmpty,
                  let sp = resource["spConfig"], let rpEntityId = sp["spEntityId"]?.stringValue, !rpEntityId.isEmpty else { throw invalid }
            var certificates: [String] = []
            if case .array(let entries)? = idp["idpCertificates"] {
                certificates = entries.compactMap { $0["x509Certificate"]?.stringValue }
            }
            self = .saml(SAML(providerId: id, displayName: resource["displayName"]?.stringValue, enabled: resource["enabled"] == .bool(true),
                              idpEntityId: idpEntityId, ssoURL: ssoURL, x509Certificates: certificates, rpEntityId: rpEntityId,
                              callbackURL: sp["callbackUri"]?.stringValue, enableRequestSigning: idp["signRequest"] == .bool(true)))
        }
    }

    private static func bool(_ value: JSONValue) -> Bool? { if case .bool(let flag) = value { flag } else { nil } }
}

/// The two kinds, by the prefix of their ids (`oidc.`, `saml.`) and their collections.
package enum AdminProviderKind: Sendable {
    case oidc, saml

    var prefix: String { self == .oidc ? "oidc." : "saml." }
    var collection: String { self == .oidc ? "oauthIdpConfigs" : "inboundSamlConfigs" }
    var idParameter: String { self == .oidc ? "oauthIdpConfigId" : "inboundSamlConfigId" }
    var name: String { self == .oidc ? "OIDC" : "SAML" }

    /// The kind an id names (`OIDCConfig.isProviderId`), when it is one an Admin API path can
    /// carry: letters, digits, `.`, `-` and `_`.
    package init(of providerId: String) throws(TokenRefusal) {
        guard providerId.utf8.allSatisfy({ RevocationCheck.isIDCharacter($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") }) else {
            throw AdminErrors.client("INVALID_PROVIDER_ID")
        }
        if providerId.hasPrefix("oidc.") { self = .oidc } else if providerId.hasPrefix("saml.") { self = .saml } else { throw AdminErrors.client("INVALID_PROVIDER_ID") }
    }
}

/// A provider configuration to create, or what to change of one (firebase-admin-node
/// `OIDCAuthProviderConfig`, `SAMLAuthProviderConfig` and their `Update…Request`s): nil is
/// not given. Checked as `OIDCConfig.validate` and `SAMLConfig.validate` check it.
package struct AdminProviderChange: Sendable {
    package var kind: AdminProviderKind
    package var displayName: String?
    package var enabled: Bool?
    // OIDC
    package var issuer: String?
    package var clientId: String?
    package var clientSecret: String?
    package var responseType: AdminProviderConfig.ResponseType?
    // SAML
    package var idpEntityId: String?
    package var ssoURL: String?
    package var x509Certificates: [String]?
    package var rpEntityId: String?
    package var callbackURL: String?
    package var enableRequestSigning: Bool?

    package init(kind: AdminProviderKind) { self.kind = kind }

    /// The server's request (`buildServerRequest`); `update`: what is not given is left alone.
    func request(update: Bool) throws(TokenRefusal) -> [String: JSONValue] {
        var fields: [String: JSONValue] = [:]
        fields["enabled"] = enabled.map(JSONValue.bool)
        fields["displayName"] = displayName.map(JSONValue.string)
        switch kind {
        case .oidc:
            if !(update && clientId == nil) {
                guard let clientId, !clientId.isEmpty else {
                    throw AdminErrors.client(clientId == nil ? "MISSING_OAUTH_CLIENT_ID" : "INVALID_OAUTH_CLIENT_ID", message: "\"OIDCAuthProviderConfig.clientId\" must be a valid non-empty string.")
                }
                fields["clientId"] = .string(clientId)
            }
            if !(update && issuer == nil) {
                guard let issuer, Self.isURL(issuer) else {
                    throw AdminErrors.client(issuer == nil || issuer == "" ? "MISSING_ISSUER" : "INVALID_CONFIG", message: "\"OIDCAuthProviderConfig.issuer\" must be a valid URL string.")
                }
                fields["issuer"] = .string(issuer)
            }
            if let clientSecret {
                guard !clientSecret.isEmpty else { throw AdminErrors.client("INVALID_CONFIG", message: "\"OIDCAuthProviderConfig.clientSecret\" must be a valid string.") }
                fields["clientSecret"] = .string(clientSecret)
            }
            if let responseType {
                if responseType.code == true, clientSecret == nil {
                    throw AdminErrors.client("MISSING_OAUTH_CLIENT_SECRET", message: "The OAuth configuration client secret is required to enable OIDC code flow.")
                }
                let given = [responseType.idToken, responseType.code].compactMap { $0 }
                if given.count > 1, given.filter({ $0 }).count != 1 {
                    throw AdminErrors.client("INVALID_OAUTH_RESPONSETYPE", message: "Only exactly one OAuth responseType should be set to true.")
                }
                var types: [String: JSONValue] = [:]
                types["idToken"] = responseType.idToken.map(JSONValue.bool)
                types["code"] = responseType.code.map(JSONValue.bool)
                fields["responseType"] = .object(types)
            }
        case .saml:
            if !(update && idpEntityId == nil), (idpEntityId ?? "").isEmpty {
                throw AdminErrors.client("INVALID_CONFIG", message: "\"SAMLAuthProviderConfig.idpEntityId\" must be a valid non-empty string.")
            }
            if !(update && ssoURL == nil), !Self.isURL(ssoURL ?? "") {
                throw AdminErrors.client("INVALID_CONFIG", message: "\"SAMLAuthProviderConfig.ssoURL\" must be a valid URL string.")
            }
            if !(update && rpEntityId == nil), (rpEntityId ?? "").isEmpty {
                throw AdminErrors.client(rpEntityId == nil || rpEntityId == "" ? "MISSING_SAML_RELYING_PARTY_CONFIG" : "INVALID_CONFIG",
                                         message: "\"SAMLAuthProviderConfig.rpEntityId\" must be a valid non-empty string.")
            }
            if !(update && callbackURL == nil), !Self.isURL(callbackURL ?? "") {
                throw AdminErrors.client("INVALID_CONFIG", message: "\"SAMLAuthProviderConfig.callbackURL\" must be a valid URL string.")
            }
            if !(update && x509Certificates == nil), x509Certificates == nil || x509Certificates!.contains(where: \.isEmpty) {
                throw AdminErrors.client("INVALID_CONFIG", message: "\"SAMLAuthProviderConfig.x509Certificates\" must be a valid array of X509 certificate strings.")
            }
            if idpEntityId != nil || ssoURL != nil || x509Certificates != nil || enableRequestSigning != nil {
                var idp: [String: JSONValue] = [:]
                idp["idpEntityId"] = idpEntityId.map(JSONValue.string)
                idp["ssoUrl"] = ssoURL.map(JSONValue.string)
                idp["signRequest"] = enableRequestSigning.map(JSONValue.bool)
                idp["idpCertificates"] = x509Certificates.map { .array($0.map { .object(["x509Certificate": .string($0)]) }) }
                fields["idpConfig"] = .object(idp)
            }
            if rpEntityId != nil || callbackURL != nil {
                var sp: [String: JSONValue] = [:]
                sp["spEntityId"] = rpEntityId.map(JSONValue.string)
                sp["callbackUri"] = callbackURL.map(JSONValue.string)
                fields["spConfig"] = .object(sp)
            }
        }
        return fields
    }

    /// An http or https URL (`validator.isURL`, as photo URLs are checked).
    static func isURL(_ text: String) -> Bool {
        do { try AdminChecks.photoURL(text); return true } catch { return false }
    }
}

/// firebase-admin-node's provider-configuration methods, on the Admin API's v2
/// `oauthIdpConfigs` and `inboundSamlConfigs`, of the project or of its tenant.
extension AdminAPI {
    /// The most `listProviderConfigs` asks for in one page (`MAX_LIST_PROVIDER_CONFIGURATION_PAGE_SIZE`).
    package static let maxListProviderConfigs = 100

    package func createProviderConfig(_ providerId: String, _ change: AdminProviderChange) throws(TokenRefusal) -> AdminProviderConfig {
        let kind = try AdminProviderKind(of: providerId)
        guard kind == change.kind else { throw AdminErrors.client("INVALID_PROVIDER_ID") }
        let answer = try scopedResource("POST", kind.collection, body: .object(try change.request(update: false)), query: [(kind.idParameter, providerId)])
        return try AdminProviderConfig(answer, kind: kind)
    }

    package func getProviderConfig(_ providerId: String) throws(TokenRefusal) -> AdminProviderConfig {
        let kind = try AdminProviderKind(of: providerId)
        return try AdminProviderConfig(scopedResource("GET", "\(kind.collection)/\(providerId)"), kind: kind)
    }

    package func listProviderConfigs(_ kind: AdminProviderKind, maxResults: Int = AdminAPI.maxListProviderConfigs, pageToken: String? = nil) throws(TokenRefusal) -> (configs: [AdminProviderConfig], pageToken: String?) {
        guard (1...Self.maxListProviderConfigs).contains(maxResults) else {
            throw AdminErrors.client("INVALID_ARGUMENT", message: "Required \"maxResults\" must be a positive integer that does not exceed \(Self.maxListProviderConfigs).")
        }
        if let pageToken, pageToken.isEmpty { throw AdminErrors.client("INVALID_PAGE_TOKEN") }
        var query = [("pageSize", String(maxResults))]
        if let pageToken { query.append(("pageToken", pageToken)) }
        let answer = try scopedResource("GET", kind.collection, query: query)
        var configs: [AdminProviderConfig] = []
        if case .array(let found)? = answer[kind.collection] {
            for config in found { configs.append(try AdminProviderConfig(config, kind: kind)) }
        }
        let next = answer["nextPageToken"]?.stringValue
        return (configs, configs.isEmpty || next?.isEmpty != false ? nil : next)
    }

    /// Changes what `change` gives, and nothing else (an update mask of those fields).
    package func updateProviderConfig(_ providerId: String, _ change: AdminProviderChange) throws(TokenRefusal) -> AdminProviderConfig {
        let kind = try AdminProviderKind(of: providerId)
        guard kind == change.kind else { throw AdminErrors.client("INVALID_PROVIDER_ID") }
        let fields = try change.request(update: true)
        let mask = Self.updateMask(.object(fields))
        guard !mask.isEmpty else { throw AdminErrors.client("INVALID_CONFIG", message: "Request is missing \"UpdateAuthProviderRequest\" configuration.") }
        let answer = try scopedResource("PATCH", "\(kind.collection)/\(providerId)", body: .object(fields), query: [("updateMask", mask.joined(separator: ","))])
        return try AdminProviderConfig(answer, kind: kind)
    }

    package func deleteProviderConfig(_ providerId: String) throws(TokenRefusal) {
        let kind = try AdminProviderKind(of: providerId)
        _ = try scopedResource("DELETE", "\(kind.collection)/\(providerId)")
    }

    /// The paths of every value `resource` sets, objects walked into (firebase-admin-node
    /// `generateUpdateMask`): `idpConfig.ssoUrl`, `enabled`; an array is one value.
    /// `terminal` paths are one value, whatever they hold.
    static func updateMask(_ resource: JSONValue, root: String = "", terminal: Set<String> = []) -> [String] {
        guard case .object(let fields) = resource else { return [] }
        return fields.keys.sorted().flatMap { key -> [String] in
            let path = root.isEmpty ? key : "\(root).\(key)"
            let inner = terminal.contains(path) ? [] : updateMask(fields[key]!, root: path, terminal: terminal)
            return inner.isEmpty ? [path] : inner
        }
    }
}
