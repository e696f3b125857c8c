import FBAuthAdmin
import FBAuthHTTP

/// The settings tenants and the project share, as firebase-admin names them (`auth-config.ts`).
/// Each is read from and written to firebase-admin-node's client form, which the engine checks
/// and turns into the Admin API's.
protocol ConfigJSON {
    var json: JSONValue { get }
    init(json: JSONValue)
}

extension JSONValue {
    var bool: Bool? { if case .bool(let flag) = self { flag } else { nil } }
    var double: Double? {
        switch self {
        case .integer(let number): Double(number)
        case .number(let number): number
        default: nil
        }
    }
    var int: Int? { double.flatMap { $0.rounded() == $0 && abs($0) < 1e15 ? Int($0) : nil } }
    var array: [JSONValue] { if case .array(let items) = self { items } else { [] } }
}

/// An object of the values given, those that are nil left out.
func jsonObject(_ fields: [String: JSONValue?]) -> JSONValue { .object(fields.compactMapValues { $0 }) }

/// Whether a tenant's users sign in with email (firebase-admin's `EmailSignInProviderConfig`).
public struct EmailSignInProviderConfig: Sendable, Equatable, ConfigJSON {
    /// Whether email sign-in is on.
    public var enabled: Bool
    /// Whether a password is needed (false: email links too).
    public var passwordRequired: Bool?

    /// The settings given.
    public init(enabled: Bool, passwordRequired: Bool? = nil) { (self.enabled, self.passwordRequired) = (enabled, passwordRequired) }
    init(json: JSONValue) { (enabled, passwordRequired) = (json["enabled"]?.bool ?? false, json["passwordRequired"]?.bool) }
    var json: JSONValue { jsonObject(["enabled": .bool(enabled), "passwordRequired": passwordRequired.map(JSONValue.bool)]) }
}

/// Whether multi-factor sign-in is on (firebase-admin's `MultiFactorConfigState`).
public enum MultiFactorConfigState: String, Sendable {
    /// On.
    case enabled = "ENABLED"
    /// Off.
    case disabled = "DISABLED"
}

/// A kind of second factor (firebase-admin's `AuthFactorType`).
public enum AuthFactorType: String, Sendable {
    /// A code by SMS.
    case phone
}

/// TOTP's settings (firebase-admin's `TotpMultiFactorProviderConfig`).
public struct TotpMultiFactorProviderConfig: Sendable, Equatable {
    /// How many 30-second windows either side of now a code may be from (0 to 10).
    public var adjacentIntervals: Int?
    /// The settings given.
    public init(adjacentIntervals: Int? = nil) { self.adjacentIntervals = adjacentIntervals }
}

/// A second-factor provider's settings (firebase-admin's `MultiFactorProviderConfig`).
public struct MultiFactorProviderConfig: Sendable, Equatable, ConfigJSON {
    /// Whether the provider is on.
    public var state: MultiFactorConfigState
    /// TOTP's settings (TOTP is the only such provider).
    public var totpProviderConfig: TotpMultiFactorProviderConfig?

    /// The settings given.
    public init(state: MultiFactorConfigState, totpProviderConfig: TotpMultiFactorProviderConfig? = nil) {
        (self.state, self.totpProviderConfig) = (state, totpProviderConfig)
    }
    init(json: JSONValue) {
        state = MultiFactorConfigState(rawValue: json["state"]?.stringValue ?? "") ?? .disabled
        totpProviderConfig = json["totpProviderConfig"].map { TotpMultiFactorProviderConfig(adjacentIntervals: $0["adjacentIntervals"]?.int) }
    }
    var json: JSONValue {
        jsonObject(["state": .string(state.rawValue),
                    "totpProviderConfig": totpProviderConfig.map { jsonObject(["adjacentIntervals": $0.adjacentIntervals.map { .integer(Int64($0)) }]) }])
    }
}

/// Multi-factor sign-in (firebase-admin's `MultiFactorConfig`).
public struct MultiFactorConfig: Sendable, Equatable, ConfigJSON {
    /// Whether it is on.
    public var state: MultiFactorConfigState
    /// The kinds of second factor users may enroll.
    public var factorIds: [AuthFactorType]?
    /// The providers' settings (TOTP).
    public var providerConfigs: [MultiFactorProviderConfig]?

    /// The settings given.
    public init(state: MultiFactorConfigState, factorIds: [AuthFactorType]? = nil, providerConfigs: [MultiFactorProviderConfig]? = nil) {
        (self.state, self.factorIds, self.providerConfigs) = (state, factorIds, providerConfigs)
    }
    init(json: JSONValue) {
        state = MultiFactorConfigState(rawValue: json["state"]?.stringValue ?? "") ?? .disabled
        factorIds = json["factorIds"].map { $0.array.compactMap { $0.stringValue.flatMap(AuthFactorType.init(rawValue:)) } }
        providerConfigs = json["providerConfigs"].map { $0.array.map(MultiFactorProviderConfig.init(json:)) }
    }
    var json: JSONValue {
        jsonObject(["state": .string(state.rawValue), "factorIds": factorIds.map { .array($0.map { .string($0.rawValue) }) },
                    "providerConfigs": providerConfigs.map { .array($0.map(\.json)) }])
    }
}

/// Whether the password policy is enforced (firebase-admin's `PasswordPolicyEnforcementState`).
public enum PasswordPolicyEnforcementState: String, Sendable {
    /// New passwords must meet the policy.
    case enforce = "ENFORCE"
    /// The policy is not applied.
    case off = "OFF"
}

/// What a password must have (firebase-admin's `CustomStrengthOptionsConfig`).
public struct CustomStrengthOptionsConfig: Sendable, Equatable, ConfigJSON {
    /// An upper-case letter.
    public var requireUppercase: Bool?
    /// A lower-case letter.
    public var requireLowercase: Bool?
    /// A character that is neither a letter nor a digit.
    public var requireNonAlphanumeric: Bool?
    /// A digit.
    public var requireNumeric: Bool?
    /// At least this many characters (6 to 30; nil: 6).
    public var minLength: Int?
    /// At most this many (up to 4096; nil: 4096).
    public var maxLength: Int?

    /// The constraints given.
    public init(requireUppercase: Bool? = nil, requireLowercase: Bool? = nil, requireNonAlphanumeric: Bool? = nil, requireNumeric: Bool? = nil,
                minLength: Int? = nil, maxLength: Int? = nil) {
        (self.requireUppercase, self.requireLowercase, self.requireNonAlphanumeric) = (requireUppercase, requireLowercase, requireNonAlphanumeric)
        (self.requireNumeric, self.minLength, self.maxLength) = (requireNumeric, minLength, maxLength)
    }
    init(json: JSONValue) {
        (requireUppercase, requireLowercase, requireNonAlphanumeric) = (json["requireUppercase"]?.bool, json["requireLowercase"]?.bool, json["requireNonAlphanumeric"]?.bool)
        (requireNumeric, minLength, maxLength) = (json["requireNumeric"]?.bool, json["minLength"]?.int, json["maxLength"]?.int)
    }
    var json: JSONValue {
        jsonObject(["requireUppercase": requireUppercase.map(JSONValue.bool), "requireLowercase": requireLowercase.map(JSONValue.bool),
                    "requireNonAlphanumeric": requireNonAlphanumeric.map(JSONValue.bool), "requireNumeric": requireNumeric.map(JSONValue.bool),
                    "minLength": minLength.map { .integer(Int64($0)) }, "maxLength": maxLength.map { .integer(Int64($0)) }])
    }
}

/// The password policy (firebase-admin's `PasswordPolicyConfig`).
public struct PasswordPolicyConfig: Sendable, Equatable, ConfigJSON {
    /// Whether it is enforced (required when set).
    public var enforcementState: PasswordPolicyEnforcementState?
    /// Whether users whose password breaks it must change it at sign-in.
    public var forceUpgradeOnSignin: Bool?
    /// What a password must have (required when enforced).
    public var constraints: CustomStrengthOptionsConfig?

    /// The policy given.
    public init(enforcementState: PasswordPolicyEnforcementState? = nil, forceUpgradeOnSignin: Bool? = nil, constraints: CustomStrengthOptionsConfig? = nil) {
        (self.enforcementState, self.forceUpgradeOnSignin, self.constraints) = (enforcementState, forceUpgradeOnSignin, constraints)
    }
    init(json: JSONValue) {
        enforcementState = json["enforcementState"]?.stringValue.flatMap(PasswordPolicyEnforcementState.init(rawValue:))
        forceUpgradeOnSignin = json["forceUpgradeOnSignin"]?.bool
        constraints = json["constraints"].map(CustomStrengthOptionsConfig.init(json:))
    }
    var json: JSONValue {
        jsonObject(["enforcementState": enforcementState.map { .string($0.rawValue) }, "forceUpgradeOnSignin": forceUpgradeOnSignin.map(JSONValue.bool),
                    "constraints": constraints?.json])
    }
}

/// How reCAPTCHA Enterprise protects a sign-in method (firebase-admin's `RecaptchaProviderEnforcementState`).
public enum RecaptchaProviderEnforcementState: String, Sendable {
    /// Not protected.
    case off = "OFF"
    /// Assessed and logged, never refused.
    case audit = "AUDIT"
    /// Refused when reCAPTCHA says so.
    case enforce = "ENFORCE"
}

/// What a reCAPTCHA rule does (firebase-admin's `RecaptchaAction`).
public enum RecaptchaAction: String, Sendable {
    /// Refuse the request.
    case block = "BLOCK"
}

/// Where a reCAPTCHA key is used (firebase-admin's `RecaptchaKeyClientType`).
public enum RecaptchaKeyClientType: String, Sendable {
    /// A web app's key.
    case web = "WEB"
    /// An iOS app's key.
    case ios = "IOS"
    /// An Android app's key.
    case android = "ANDROID"
}

/// A reCAPTCHA rule by score (firebase-admin's `RecaptchaManagedRule`).
public struct RecaptchaManagedRule: Sendable, Equatable {
    /// The score (0 to 1) up to which the action is taken.
    public var endScore: Double
    /// The action.
    public var action: RecaptchaAction?
    /// The rule given.
    public init(endScore: Double, action: RecaptchaAction? = nil) { (self.endScore, self.action) = (endScore, action) }
}

/// A reCAPTCHA SMS toll-fraud rule (firebase-admin's `RecaptchaTollFraudManagedRule`).
public struct RecaptchaTollFraudManagedRule: Sendable, Equatable {
    /// The score (0 to 1) from which the action is taken.
    public var startScore: Double
    /// The action.
    public var action: RecaptchaAction?
    /// The rule given.
    public init(startScore: Double, action: RecaptchaAction? = nil) { (self.startScore, self.action) = (startScore, action) }
}

/// A reCAPTCHA key (firebase-admin's `RecaptchaKey`).
public struct RecaptchaKey: Sendable, Equatable {
    /// The key's resource name.
    public var key: String
    /// Where it is used.
    public var type: RecaptchaKeyClientType?
    /// The key given.
    public init(key: String, type: RecaptchaKeyClientType? = nil) { (self.key, self.type) = (key, type) }
}

/// reCAPTCHA Enterprise's protection (firebase-admin's `RecaptchaConfig`).
public struct RecaptchaConfig: Sendable, Equatable, ConfigJSON {
    /// For email and password sign-ins.
    public var emailPasswordEnforcementState: RecaptchaProviderEnforcementState?
    /// For phone sign-ins.
    public var phoneEnforcementState: RecaptchaProviderEnforcementState?
    /// The rules by score.
    public var managedRules: [RecaptchaManagedRule]?
    /// The keys (read only: Firebase makes them).
    public var recaptchaKeys: [RecaptchaKey]?
    /// Whether reCAPTCHA's account defender is used.
    public var useAccountDefender: Bool?
    /// Whether phone sign-ins use the bot score.
    public var useSmsBotScore: Bool?
    /// Whether phone sign-ins use SMS toll-fraud protection.
    public var useSmsTollFraudProtection: Bool?
    /// The toll-fraud rules.
    public var smsTollFraudManagedRules: [RecaptchaTollFraudManagedRule]?

    /// The settings given.
    public init(emailPasswordEnforcementState: RecaptchaProviderEnforcementState? = nil, phoneEnforcementState: RecaptchaProviderEnforcementState? = nil,
                managedRules: [RecaptchaManagedRule]? = nil, recaptchaKeys: [RecaptchaKey]? = nil, useAccountDefender: Bool? = nil, useSmsBotScore: Bool? = nil,
                useSmsTollFraudProtection: Bool? = nil, smsTollFraudManagedRules: [RecaptchaTollFraudManagedRule]? = nil) {
        (self.emailPasswordEnforcementState, self.phoneEnforcementState, self.managedRules, self.recaptchaKeys) = (emailPasswordEnforcementState, phoneEnforcementState, managedRules, recaptchaKeys)
        (self.useAccountDefender, self.useSmsBotScore, self.useSmsTollFraudProtection) = (useAccountDefender, useSmsBotScore, useSmsTollFraudProtection)
        self.smsTollFraudManagedRules = smsTollFraudManagedRules
    }
    init(json: JSONValue) {
        emailPasswordEnforcementState = json["emailPasswordEnforcementState"]?.stringValue.flatMap(RecaptchaProviderEnforcementState.init(rawValue:))
        phoneEnforcementState = json["phoneEnforcementState"]?.stringValue.flatMap(RecaptchaProviderEnforcementState.init(rawValue:))
        managedRules = json["managedRules"].map { $0.array.map { RecaptchaManagedRule(endScore: $0["endScore"]?.double ?? 0, action: $0["action"]?.stringValue.flatMap(RecaptchaAction.init(rawValue:))) } }
        recaptchaKeys = json["recaptchaKeys"].map { $0.array.map { RecaptchaKey(key: $0["key"]?.stringValue ?? "", type: $0["type"]?.stringValue.flatMap(RecaptchaKeyClientType.init(rawValue:))) } }
        (useAccountDefender, useSmsBotScore, useSmsTollFraudProtection) = (json["useAccountDefender"]?.bool, json["useSmsBotScore"]?.bool, json["useSmsTollFraudProtection"]?.bool)
        smsTollFraudManagedRules = json["smsTollFraudManagedRules"].map {
            $0.array.map { RecaptchaTollFraudManagedRule(startScore: $0["startScore"]?.double ?? 0, action: $0["action"]?.stringValue.flatMap(RecaptchaAction.init(rawValue:))) }
        }
    }
    var json: JSONValue {
        jsonObject([
            "emailPasswordEnforcementState": emailPasswordEnforcementState.map { .string($0.rawValue) }, "phoneEnforcementState": phoneEnforcementState.map { .string($0.rawValue) },
            "managedRules": managedRules.map { .array($0.map { jsonObject(["endScore": .number($0.endScore), "action": $0.action.map { .string($0.rawValue) }]) }) },
            "recaptchaKeys": recaptchaKeys.map { .array($0.map { jsonObject(["key": .string($0.key), "type": $0.type.map { .string($0.rawValue) }]) }) },
            "useAccountDefender": useAccountDefender.map(JSONValue.bool), "useSmsBotScore": useSmsBotScore.map(JSONValue.bool),
            "useSmsTollFraudProtection": useSmsTollFraudProtection.map(JSONValue.bool),
            "smsTollFraudManagedRules": smsTollFraudManagedRules.map { .array($0.map { jsonObject(["startScore": .number($0.startScore), "action": $0.action.map { .string($0.rawValue) }]) }) },
        ])
    }
}

/// SMS to every region but these (firebase-admin's `AllowByDefault`).
public struct AllowByDefault: Sendable, Equatable {
    /// The regions (ISO 3166 codes) no code is sent to.
    public var disallowedRegions: [String]
    /// The regions given.
    public init(disallowedRegions: [String]) { self.disallowedRegions = disallowedRegions }
}

/// SMS to these regions only (firebase-admin's `AllowlistOnly`).
public struct AllowlistOnly: Sendable, Equatable {
    /// The regions (ISO 3166 codes) codes are sent to.
    public var allowedRegions: [String]
    /// The regions given.
    public init(allowedRegions: [String]) { self.allowedRegions = allowedRegions }
}

/// Where SMS codes may be sent (firebase-admin's `SmsRegionConfig`, a union of
/// `AllowByDefaultWrap` and `AllowlistOnlyWrap`).
public enum SmsRegionConfig: Sendable, Equatable, ConfigJSON {
    /// Everywhere but some regions.
    case allowByDefault(AllowByDefault)
    /// Only some regions.
    case allowlistOnly(AllowlistOnly)

    init(json: JSONValue) {
        if let only = json["allowlistOnly"] {
            self = .allowlistOnly(AllowlistOnly(allowedRegions: only["allowedRegions"]?.array.compactMap(\.stringValue) ?? []))
        } else {
            self = .allowByDefault(AllowByDefault(disallowedRegions: json["allowByDefault"]?["disallowedRegions"]?.array.compactMap(\.stringValue) ?? []))
        }
    }
    var json: JSONValue {
        switch self {
        case .allowByDefault(let rule): .object(["allowByDefault": .object(["disallowedRegions": .array(rule.disallowedRegions.map(JSONValue.string))])])
        case .allowlistOnly(let rule): .object(["allowlistOnly": .object(["allowedRegions": .array(rule.allowedRegions.map(JSONValue.string))])])
        }
    }
}

/// Email enumeration protection (firebase-admin's `EmailPrivacyConfig`).
public struct EmailPrivacyConfig: Sendable, Equatable, ConfigJSON {
    /// Whether it is on: sign-in errors and `fetchSignInMethodsForEmail` no longer tell who has an account.
    public var enableImprovedEmailPrivacy: Bool?
    /// The setting given.
    public init(enableImprovedEmailPrivacy: Bool? = nil) { self.enableImprovedEmailPrivacy = enableImprovedEmailPrivacy }
    init(json: JSONValue) { enableImprovedEmailPrivacy = json["enableImprovedEmailPrivacy"]?.bool }
    var json: JSONValue { jsonObject(["enableImprovedEmailPrivacy": enableImprovedEmailPrivacy.map(JSONValue.bool)]) }
}

/// The domain of mobile email links (firebase-admin's `MobileLinksDomain`).
public enum MobileLinksDomain: String, Sendable {
    /// The project's Firebase Hosting domain.
    case hostingDomain = "HOSTING_DOMAIN"
    /// The Firebase Dynamic Links domain, shut down in 2025.
    case firebaseDynamicLinkDomain = "FIREBASE_DYNAMIC_LINK_DOMAIN"
}

/// Mobile email links (firebase-admin's `MobileLinksConfig`).
public struct MobileLinksConfig: Sendable, Equatable, ConfigJSON {
    /// Their domain.
    public var domain: MobileLinksDomain?
    /// The setting given.
    public init(domain: MobileLinksDomain? = nil) { self.domain = domain }
    init(json: JSONValue) { domain = json["domain"]?.stringValue.flatMap(MobileLinksDomain.init(rawValue:)) }
    var json: JSONValue { jsonObject(["domain": domain.map { .string($0.rawValue) }]) }
}
