import FBAuthAdmin
import FBAuthHTTP
import Foundation

/// An Identity Platform tenant (firebase-admin's `Tenant`).
public struct Tenant: Sendable, Equatable {
    /// The tenant's id, which Identity Platform made.
    public let tenantId: String
    /// The tenant's name.
    public let displayName: String?
    /// Whether its users may sign in anonymously.
    public let anonymousSignInEnabled: Bool
    /// Whether they may sign in with a password.
    public let passwordSignInEnabled: Bool
    /// Whether they may sign in with an email link.
    public let emailLinkSignInEnabled: Bool
    /// Email sign-in, as firebase-admin's `emailSignInConfig` has it (the two flags above).
    public let emailSignInConfig: EmailSignInProviderConfig?
    /// Multi-factor sign-in.
    public let multiFactorConfig: MultiFactorConfig?
    /// Phone numbers that sign in with a fixed code, without an SMS: number → 6-digit code.
    public let testPhoneNumbers: [String: String]?
    /// Where SMS codes may be sent.
    public let smsRegionConfig: SmsRegionConfig?
    /// reCAPTCHA Enterprise's protection.
    public let recaptchaConfig: RecaptchaConfig?
    /// The password policy.
    public let passwordPolicyConfig: PasswordPolicyConfig?
    /// Email enumeration protection.
    public let emailPrivacyConfig: EmailPrivacyConfig?
    private let engine: AdminTenant

    init(_ tenant: AdminTenant) {
        engine = tenant
        emailSignInConfig = tenant.settings["emailSignInConfig"].map(EmailSignInProviderConfig.init(json:))
        multiFactorConfig = tenant.settings["multiFactorConfig"].map(MultiFactorConfig.init(json:))
        testPhoneNumbers = tenant.settings["testPhoneNumbers"].map { numbers in
            guard case .object(let pairs) = numbers else { return [:] }
            return pairs.compactMapValues(\.stringValue)
        }
        smsRegionConfig = tenant.settings["smsRegionConfig"].map(SmsRegionConfig.init(json:))
        recaptchaConfig = tenant.settings["recaptchaConfig"].map(RecaptchaConfig.init(json:))
        passwordPolicyConfig = tenant.settings["passwordPolicyConfig"].map(PasswordPolicyConfig.init(json:))
        emailPrivacyConfig = tenant.settings["emailPrivacyConfig"].map(EmailPrivacyConfig.init(json:))
        tenantId = tenant.tenantId
        displayName = tenant.displayName
        anonymousSignInEnabled = tenant.anonymousSignInEnabled
        passwordSignInEnabled = tenant.passwordSignInEnabled
        emailLinkSignInEnabled = tenant.emailLinkSignInEnabled
    }

    /// The tenant as firebase-admin-node's `Tenant.toJSON()` gives it.
    public func toJSON() -> [String: Any] { foundationJSON(engine.json) }
}

/// What to set of a tenant, to create or update one (firebase-admin's `CreateTenantRequest` and
/// `UpdateTenantRequest`, their `emailSignInConfig` as two flags). Nil leaves a setting as it is.
public struct TenantRequest: Sendable {
    /// The tenant's name: 4 to 20 letters, digits and hyphens, starting with a letter.
    public var displayName: String?
    /// Whether its users may sign in anonymously.
    public var anonymousSignInEnabled: Bool?
    /// Whether they may sign in with a password.
    public var passwordSignInEnabled: Bool?
    /// Whether they may sign in with an email link.
    public var emailLinkSignInEnabled: Bool?
    /// Email sign-in, as firebase-admin's `emailSignInConfig` sets it (instead of the two flags).
    public var emailSignInConfig: EmailSignInProviderConfig?
    /// Multi-factor sign-in.
    public var multiFactorConfig: MultiFactorConfig?
    /// Test phone numbers and their 6-digit codes, at most 10; `.some(nil)` removes them all.
    public var testPhoneNumbers: [String: String]??
    /// Where SMS codes may be sent.
    public var smsRegionConfig: SmsRegionConfig?
    /// reCAPTCHA Enterprise's protection.
    public var recaptchaConfig: RecaptchaConfig?
    /// The password policy.
    public var passwordPolicyConfig: PasswordPolicyConfig?
    /// Email enumeration protection.
    public var emailPrivacyConfig: EmailPrivacyConfig?

    /// A request setting what is given.
    public init(displayName: String? = nil, anonymousSignInEnabled: Bool? = nil, passwordSignInEnabled: Bool? = nil, emailLinkSignInEnabled: Bool? = nil,
                emailSignInConfig: EmailSignInProviderConfig? = nil, multiFactorConfig: MultiFactorConfig? = nil, testPhoneNumbers: [String: String]?? = nil,
                smsRegionConfig: SmsRegionConfig? = nil, recaptchaConfig: RecaptchaConfig? = nil, passwordPolicyConfig: PasswordPolicyConfig? = nil,
                emailPrivacyConfig: EmailPrivacyConfig? = nil) {
        (self.emailSignInConfig, self.multiFactorConfig, self.testPhoneNumbers, self.smsRegionConfig) = (emailSignInConfig, multiFactorConfig, testPhoneNumbers, smsRegionConfig)
        (self.recaptchaConfig, self.passwordPolicyConfig, self.emailPrivacyConfig) = (recaptchaConfig, passwordPolicyConfig, emailPrivacyConfig)
        self.displayName = displayName
        self.anonymousSignInEnabled = anonymousSignInEnabled
        self.passwordSignInEnabled = passwordSignInEnabled
        self.emailLinkSignInEnabled = emailLinkSignInEnabled
    }

    var engine: AdminTenantChange {
        var change = AdminTenantChange()
        (change.displayName, change.anonymousSignInEnabled) = (displayName, anonymousSignInEnabled)
        (change.passwordSignInEnabled, change.emailLinkSignInEnabled) = (passwordSignInEnabled, emailLinkSignInEnabled)
        var settings: [String: JSONValue] = [:]
        settings["emailSignInConfig"] = emailSignInConfig?.json
        settings["multiFactorConfig"] = multiFactorConfig?.json
        if let numbers = testPhoneNumbers { settings["testPhoneNumbers"] = .object((numbers ?? [:]).mapValues(JSONValue.string)) }
        settings["smsRegionConfig"] = smsRegionConfig?.json
        settings["recaptchaConfig"] = recaptchaConfig?.json
        settings["passwordPolicyConfig"] = passwordPolicyConfig?.json
        settings["emailPrivacyConfig"] = emailPrivacyConfig?.json
        change.settings = settings
        return change
    }
}

/// A page of `listTenants`, and the token of the next page (nil: the last).
public struct ListTenantsResult: Sendable {
    /// This page's tenants.
    public let tenants: [Tenant]
    /// The token of the next page; nil on the last.
    public let pageToken: String?
}

/// The project's tenants, as firebase-admin's `TenantManager` manages them.
public struct TenantManager: Sendable {
    let auth: AdminAuth

    /// Creates a tenant.
    public func createTenant(_ properties: TenantRequest) async throws -> Tenant {
        let change = properties.engine
        return try await auth.adminCall(project: true) { try Tenant($0.createTenant(change)) }
    }

    /// The tenant of `tenantId`; `auth/tenant-not-found` when there is none.
    public func getTenant(_ tenantId: String) async throws -> Tenant {
        try await auth.adminCall(project: true) { try Tenant($0.getTenant(tenantId)) }
    }

    /// A page of at most `maxResults` tenants (1 to 1,000), from `pageToken`.
    public func listTenants(maxResults: Int = 1000, pageToken: String? = nil) async throws -> ListTenantsResult {
        try await auth.adminCall(project: true) { api in
            let page = try api.listTenants(maxResults: maxResults, pageToken: pageToken)
            return ListTenantsResult(tenants: page.tenants.map(Tenant.init), pageToken: page.pageToken)
        }
    }

    /// Changes what `properties` sets, and nothing else.
    public func updateTenant(_ tenantId: String, _ properties: TenantRequest) async throws -> Tenant {
        let change = properties.engine
        return try await auth.adminCall(project: true) { try Tenant($0.updateTenant(tenantId, change)) }
    }

    /// The Auth of the tenant's users and tokens (firebase-admin's `authForTenant`): every user
    /// operation in the tenant, and only the tenant's ID tokens verified.
    public func authForTenant(_ tenantId: String) throws -> TenantAwareAuth {
        guard !tenantId.isEmpty else { throw AdminAuthError(AdminErrors.client("INVALID_TENANT_ID")) }
        return TenantAwareAuth(tenantId: tenantId, of: auth)
    }

    /// Deletes the tenant (and its users).
    public func deleteTenant(_ tenantId: String) async throws {
        try await auth.adminCall(project: true) { try $0.deleteTenant(tenantId) }
    }
}

extension AdminAuth {
    /// The project's tenants.
    public func tenantManager() -> TenantManager { TenantManager(auth: self) }
}

/// A tenant's users and tokens (firebase-admin's `TenantAwareAuth`), from
/// `tenantManager().authForTenant(_:)`: every method of `AdminAuth` works in the tenant; ID
/// tokens and session cookies of another tenant, or of the project, are
/// `auth/mismatching-tenant-id`; custom tokens carry the tenant; imported users go to it.
public final class TenantAwareAuth: AdminAuth, @unchecked Sendable {
    /// The tenant's id.
    public let tenantId: String

    init(tenantId: String, of base: AdminAuth) {
        self.tenantId = tenantId
        super.init(tenant: tenantId, of: base)
    }
}
