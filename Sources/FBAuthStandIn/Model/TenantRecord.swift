/// A tenant as the Admin API made it (`projects/P/tenants`): its resource, read back as it was
/// set (as Google's emulator keeps it), and the settings the emulator acts on, typed and made
/// from the resource whenever it changes, so that no sign-in reads the resource itself.
struct TenantRecord: Equatable, Sendable {
    private let stored: [String: JSONValue]
    private(set) var settings: Settings
    /// The resource as it was set.
    var resource: [String: Any] { stored.object }

    struct Settings: Equatable, Sendable {
        /// `disableAuth`: no sign-in and no user (`PROJECT_DISABLED`).
        var disablesAuth: Bool
        /// `allowPasswordSignup`, `enableEmailLinkSignin`, `enableAnonymousUser`: off unless set.
        var allowsPasswords: Bool
        var allowsEmailLinks: Bool
        var allowsAnonymousUsers: Bool
        /// `mfaConfig`: enabled (or mandatory) with `PHONE_SMS` among its providers.
        var allowsSMSSecondFactors: Bool
        /// Production's fixed test numbers and their codes.
        var testPhoneNumbers: [String: String]
    }

    /// `resource`, its test phone numbers checked as production checks them.
    init(resource: [String: Any]) throws(APIError) {
        try Backend.checkTestPhoneNumbers(resource["testPhoneNumbers"], field: "testPhoneNumbers")
        guard let stored = JSONValue.members(resource) else { throw .internalError("INTERNAL : a tenant that is no JSON") }
        self.stored = stored
        let flag = { (name: String) in resource[name] as? Bool == true }
        let mfa = resource["mfaConfig"] as? [String: Any] ?? [:]
        settings = Settings(
            disablesAuth: flag("disableAuth"), allowsPasswords: flag("allowPasswordSignup"),
            allowsEmailLinks: flag("enableEmailLinkSignin"), allowsAnonymousUsers: flag("enableAnonymousUser"),
            allowsSMSSecondFactors: ["ENABLED", "MANDATORY"].contains(mfa["state"] as? String ?? "") && (mfa["enabledProviders"] as? [String] ?? []).contains("PHONE_SMS"),
            testPhoneNumbers: (resource["testPhoneNumbers"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String })
    }
}
