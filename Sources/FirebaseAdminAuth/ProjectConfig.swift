import FBAuthAdmin
import FBAuthHTTP

/// The project's Authentication settings (firebase-admin's `ProjectConfig`).
public struct ProjectConfig: Sendable, Equatable {
    /// Where SMS codes may be sent.
    public let smsRegionConfig: SmsRegionConfig?
    /// Multi-factor sign-in.
    public let multiFactorConfig: MultiFactorConfig?
    /// reCAPTCHA Enterprise's protection.
    public let recaptchaConfig: RecaptchaConfig?
    /// The password policy.
    public let passwordPolicyConfig: PasswordPolicyConfig?
    /// Email enumeration protection.
    public let emailPrivacyConfig: EmailPrivacyConfig?
    /// Mobile email links.
    public let mobileLinksConfig: MobileLinksConfig?

    init(_ client: [String: JSONValue]) {
        smsRegionConfig = client["smsRegionConfig"].map(SmsRegionConfig.init(json:))
        multiFactorConfig = client["multiFactorConfig"].map(MultiFactorConfig.init(json:))
        recaptchaConfig = client["recaptchaConfig"].map(RecaptchaConfig.init(json:))
        passwordPolicyConfig = client["passwordPolicyConfig"].map(PasswordPolicyConfig.init(json:))
        emailPrivacyConfig = client["emailPrivacyConfig"].map(EmailPrivacyConfig.init(json:))
        mobileLinksConfig = client["mobileLinksConfig"].map(MobileLinksConfig.init(json:))
    }

    /// The settings as firebase-admin-node's `ProjectConfig.toJSON()` gives them.
    public func toJSON() -> [String: Any] {
        foundationJSON(jsonObject(["smsRegionConfig": smsRegionConfig?.json, "multiFactorConfig": multiFactorConfig?.json, "recaptchaConfig": recaptchaConfig?.json,
                                   "passwordPolicyConfig": passwordPolicyConfig?.json, "emailPrivacyConfig": emailPrivacyConfig?.json,
                                   "mobileLinksConfig": mobileLinksConfig?.json]))
    }
}

/// What to change of the project's settings (firebase-admin's `UpdateProjectConfigRequest`): nil is left as it is.
public struct UpdateProjectConfigRequest: Sendable {
    /// Where SMS codes may be sent.
    public var smsRegionConfig: SmsRegionConfig?
    /// Multi-factor sign-in.
    public var multiFactorConfig: MultiFactorConfig?
    /// reCAPTCHA Enterprise's protection.
    public var recaptchaConfig: RecaptchaConfig?
    /// The password policy.
    public var passwordPolicyConfig: PasswordPolicyConfig?
    /// Email enumeration protection.
    public var emailPrivacyConfig: EmailPrivacyConfig?
    /// Mobile email links.
    public var mobileLinksConfig: MobileLinksConfig?

    /// A change of the settings given.
    public init(smsRegionConfig: SmsRegionConfig? = nil, multiFactorConfig: MultiFactorConfig? = nil, recaptchaConfig: RecaptchaConfig? = nil,
                passwordPolicyConfig: PasswordPolicyConfig? = nil, emailPrivacyConfig: EmailPrivacyConfig? = nil, mobileLinksConfig: MobileLinksConfig? = nil) {
        (self.smsRegionConfig, self.multiFactorConfig, self.recaptchaConfig) = (smsRegionConfig, multiFactorConfig, recaptchaConfig)
        (self.passwordPolicyConfig, self.emailPrivacyConfig, self.mobileLinksConfig) = (passwordPolicyConfig, emailPrivacyConfig, mobileLinksConfig)
    }

    var client: [String: JSONValue] {
        ["smsRegionConfig": smsRegionConfig?.json, "multiFactorConfig": multiFactorConfig?.json, "recaptchaConfig": recaptchaConfig?.json,
         "passwordPolicyConfig": passwordPolicyConfig?.json, "emailPrivacyConfig": emailPrivacyConfig?.json, "mobileLinksConfig": mobileLinksConfig?.json]
            .compactMapValues { $0 }
    }
}

/// The project's settings, as firebase-admin's `ProjectConfigManager` manages them.
public struct ProjectConfigManager: Sendable {
    let auth: AdminAuth

    /// The project's settings now.
    public func getProjectConfig() async throws -> ProjectConfig {
        try await auth.adminCall(project: true) { ProjectConfig(try $0.getProjectConfig()) }
    }

    /// Changes what `projectConfigOptions` gives, and nothing else; the settings as they are then.
    public func updateProjectConfig(_ projectConfigOptions: UpdateProjectConfigRequest) async throws -> ProjectConfig {
        let client = projectConfigOptions.client
        return try await auth.adminCall(project: true) { ProjectConfig(try $0.updateProjectConfig(client)) }
    }
}

extension AdminAuth {
    /// The project's settings.
    public func projectConfigManager() -> ProjectConfigManager { ProjectConfigManager(auth: self) }
}
