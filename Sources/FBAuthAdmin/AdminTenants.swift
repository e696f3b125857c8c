import FBAuthHTTP
import FBAuthVerification

/// An Identity Platform tenant as firebase-admin-node's `Tenant` reads one.
package struct AdminTenant: Sendable, Equatable {
    package var tenantId: String
    package var displayName: String?
    package var anonymousSignInEnabled: Bool
    /// `emailSignInConfig.enabled` (`allowPasswordSignup`).
    package var passwordSignInEnabled: Bool
    /// `emailSignInConfig.passwordRequired` false (`enableEmailLinkSignin`).
    package var emailLinkSignInEnabled: Bool
    /// The rest of its settings in firebase-admin-node's client form (`emailSignInConfig`,
    /// `multiFactorConfig`, `testPhoneNumbers`, `smsRegionConfig`, `recaptchaConfig`,
    /// `passwordPolicyConfig`, `emailPrivacyConfig`).
    package var settings: [String: JSONValue] = [:]

    init(_ resource: JSONValue) throws(TokenRefusal) {
        // `name` is projects/P/tenants/ID (firebase-admin-node `getTenantIdFromResourceName`).
        guard let name = resource["name"]?.stringValue, let range = name.firstRange(of: "/tenants/"), case let id = String(name[range.upperBound...]), !id.isEmpty else {
            throw AdminErrors.client("INTERNAL_ERROR", message: "INTERNAL ASSERT FAILED: Invalid tenant response")
        }
        tenantId = id
        displayName = resource["displayName"]?.stringValue
        anonymousSignInEnabled = resource["enableAnonymousUser"] == .bool(true)
        passwordSignInEnabled = resource["allowPasswordSignup"] == .bool(true)
        emailLinkSignInEnabled = resource["enableEmailLinkSignin"] == .bool(true)
        settings = try AdminAuthConfigs.tenantClient(resource)
    }

    /// The tenant as firebase-admin-node's `Tenant.toJSON()` writes it.
    package var json: JSONValue {
        var fields = settings
        fields["tenantId"] = .string(tenantId)
        fields["displayName"] = displayName.map(JSONValue.string)
        fields["anonymousSignInEnabled"] = .bool(anonymousSignInEnabled)
        return .object(fields)
    }
}

/// What to set of a tenant (firebase-admin-node `CreateTenantRequest`, `UpdateTenantRequest`).
package struct AdminTenantChange: Sendable {
    package var displayName: String?
    package var anonymousSignInEnabled: Bool?
    package var passwordSignInEnabled: Bool?
    package var emailLinkSignInEnabled: Bool?
    /// The other settings, in firebase-admin-node's client form (`UpdateTenantRequest`'s
    /// `multiFactorConfig`, `testPhoneNumbers`, … as JSON), checked as it checks them.
    package var settings: [String: JSONValue] = [:]

    package init() {}

    /// The resource's fields, and their names for an update mask.
    func fields() throws(TokenRefusal) -> [String: JSONValue] {
        var fields: [String: JSONValue] = [:]
        if let displayName {
            // As Identity Platform requires: a letter, then letters, digits and hyphens, 4 to 20 in all.
            let scalars = Array(displayName.unicodeScalars)
            guard (4...20).contains(scalars.count), scalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") }),
                  scalars.first?.properties.isAlphabetic == true
            else {
                throw AdminErrors.client("INVALID_ARGUMENT", message: "\"displayName\" must be 4 to 20 letters, digits and hyphens, starting with a letter.")
            }
            fields["displayName"] = .string(displayName)
        }
        if let anonymousSignInEnabled { fields["enableAnonymousUser"] = .bool(anonymousSignInEnabled) }
        if let passwordSignInEnabled { fields["allowPasswordSignup"] = .bool(passwordSignInEnabled) }
        if let emailLinkSignInEnabled { fields["enableEmailLinkSignin"] = .bool(emailLinkSignInEnabled) }
        fields.merge(try AdminAuthConfigs.tenantServer(settings)) { $1 }
        return fields
    }
}

/// firebase-admin-node's `TenantManager`, on the Admin API's v2 tenants.
extension AdminAPI {
    /// The most `listTenants` asks for in one page (`MAX_LIST_TENANT_PAGE_SIZE`).
    package static let maxListTenants = 1000

    package func createTenant(_ change: AdminTenantChange) throws(TokenRefusal) -> AdminTenant {
        try AdminTenant(projectResource("POST", "tenants", body: .object(try change.fields())))
    }

    package func getTenant(_ tenantId: String) throws(TokenRefusal) -> AdminTenant {
        guard AdminChecks.isTenantID(tenantId) else { throw AdminErrors.client("INVALID_TENANT_ID") }
        return try AdminTenant(projectResource("GET", "tenants/\(tenantId)"))
    }

    package func listTenants(maxResults: Int = AdminAPI.maxListTenants, pageToken: String? = nil) throws(TokenRefusal) -> (tenants: [AdminTenant], pageToken: String?) {
        guard (1...Self.maxListTenants).contains(maxResults) else {
            throw AdminErrors.client("INVALID_ARGUMENT", message: "Required \"maxResults\" must be a positive non-zero number that does not exceed the allowed \(Self.maxListTenants).")
        }
        if let pageToken, pageToken.isEmpty { throw AdminErrors.client("INVALID_PAGE_TOKEN") }
        var query = [("pageSize", String(maxResults))]
        if let pageToken { query.append(("pageToken", pageToken)) }
        let answer = try projectResource("GET", "tenants", query: query)
        var tenants: [AdminTenant] = []
        if case .array(let found)? = answer["tenants"] {
            for tenant in found { tenants.append(try AdminTenant(tenant)) }
        }
        let next = answer["nextPageToken"]?.stringValue
        return (tenants, next?.isEmpty == false ? next : nil)
    }

    /// Changes what `change` sets, and nothing else (an update mask of those fields).
    package func updateTenant(_ tenantId: String, _ change: AdminTenantChange) throws(TokenRefusal) -> AdminTenant {
        guard AdminChecks.isTenantID(tenantId) else { throw AdminErrors.client("INVALID_TENANT_ID") }
        let fields = try change.fields()
        guard !fields.isEmpty else { throw AdminErrors.client("INVALID_ARGUMENT", message: "\"UpdateTenantRequest\" must set something.") }
        // As firebase-admin-node: nested settings by their paths, test phone numbers whole.
        let mask = Self.updateMask(.object(fields), terminal: ["testPhoneNumbers"])
        return try AdminTenant(projectResource("PATCH", "tenants/\(tenantId)", body: .object(fields), query: [("updateMask", mask.joined(separator: ","))]))
    }

    package func deleteTenant(_ tenantId: String) throws(TokenRefusal) {
        guard AdminChecks.isTenantID(tenantId) else { throw AdminErrors.client("INVALID_TENANT_ID") }
        _ = try projectResource("DELETE", "tenants/\(tenantId)")
    }
}
