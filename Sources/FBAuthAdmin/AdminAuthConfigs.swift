import FBAuthHTTP
import FBAuthVerification

/// The settings tenants and the project share (firebase-admin-node `auth-config.ts`): multi-factor,
/// password policy, reCAPTCHA, SMS regions, email privacy, mobile links and email sign-in, each
/// between firebase-admin-node's client form (`MultiFactorConfig`, …, as JSON) and the Admin
/// API's (`mfaConfig`, …), checked on the way out as `*.validate` checks them, in its words.
package enum AdminAuthConfigs {
    static func invalid(_ message: String, code: String = "INVALID_CONFIG") -> TokenRefusal { AdminErrors.client(code, message: message) }

    static func fields(_ value: JSONValue, _ name: String, allowed: Set<String>) throws(TokenRefusal) -> [String: JSONValue] {
        guard case .object(let fields) = value else { throw invalid("\"\(name)\" must be a non-null object.") }
        if let unknown = fields.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw invalid("\"\(unknown)\" is not a valid \(name) parameter.")
        }
        return fields
    }

    static func bool(_ fields: [String: JSONValue], _ key: String, _ path: String) throws(TokenRefusal) -> Bool? {
        switch fields[key] {
        case nil: return nil
        case .bool(let flag)?: return flag
        default: throw invalid("\"\(path).\(key)\" must be a boolean.")
        }
    }

    static func number(_ value: JSONValue?) -> Double? {
        switch value {
        case .integer(let number)?: Double(number)
        case .number(let number)?: number
        default: nil
        }
    }

    // MARK: - Multi-factor

    /// `MultiFactorConfig` → `MultiFactorAuthServerConfig` (`mfaConfig`, or the project's `mfa`).
    package static func multiFactorServer(_ client: JSONValue) throws(TokenRefusal) -> JSONValue {
        let fields = try fields(client, "MultiFactorConfig", allowed: ["state", "factorIds", "providerConfigs"])
        var request: [String: JSONValue] = [:]
        if let state = fields["state"] {
            guard state == "ENABLED" || state == "DISABLED" else { throw invalid("\"MultiFactorConfig.state\" must be either \"ENABLED\" or \"DISABLED\".") }
            request["state"] = state
        }
        if let ids = fields["factorIds"] {
            guard case .array(let factors) = ids else { throw invalid("\"MultiFactorConfig.factorIds\" must be an array of valid \"AuthFactorTypes\".") }
            request["enabledProviders"] = .array(try factors.map { (factor: JSONValue) throws(TokenRefusal) -> JSONValue in
                guard factor == "phone" else { throw invalid("\"\(factor.stringValue ?? "\(factor)")\" is not a valid \"AuthFactorType\".") }
                return "PHONE_SMS"
            })
        }
        if let configs = fields["providerConfigs"] {
            guard case .array(let entries) = configs else {
                throw invalid("\"MultiFactorConfig.providerConfigs\" must be an array of valid \"MultiFactorProviderConfig.\"")
            }
            for entry in entries {
                let provider = try self.fields(entry, "ProviderConfig", allowed: ["state", "totpProviderConfig"])
                guard provider["state"] == "ENABLED" || provider["state"] == "DISABLED" else {
                    throw invalid("\"MultiFactorConfig.providerConfigs.state\" must be either \"ENABLED\" or \"DISABLED\".")
                }
                guard let totp = provider["totpProviderConfig"] else { throw invalid("\"MultiFactorConfig.providerConfigs.totpProviderConfig\" must be defined.") }
                let intervals = try self.fields(totp, "TotpProviderConfig", allowed: ["adjacentIntervals"])["adjacentIntervals"]
                if let intervals, !(number(intervals).map { $0.rounded() == $0 && (0...10).contains($0) } ?? false) {
                    throw invalid("\"MultiFactorConfig.providerConfigs.totpProviderConfig.adjacentIntervals\" must be a valid number between 0 and 10 (both inclusive).",
                                  code: "INVALID_ARGUMENT")
                }
            }
            request["providerConfigs"] = configs
        }
        return .object(request)
    }

    /// The server's multi-factor settings in the client's form; unknown factor kinds are left out.
    package static func multiFactorClient(_ server: JSONValue) throws(TokenRefusal) -> JSONValue {
        guard let state = server["state"], state.stringValue != nil else {
            throw invalid("INTERNAL ASSERT FAILED: Invalid multi-factor configuration response", code: "INTERNAL_ERROR")
        }
        var factorIds: [JSONValue] = []
        if case .array(let providers)? = server["enabledProviders"] { factorIds = providers.filter { $0 == "PHONE_SMS" }.map { _ in "phone" } }
        var providerConfigs: [JSONValue] = []
        if case .array(let configs)? = server["providerConfigs"] {
            for config in configs {
                guard config["state"]?.stringValue != nil, let totp = config["totpProviderConfig"],
                      totp["adjacentIntervals"] == nil || number(totp["adjacentIntervals"]) != nil
                else { throw invalid("INTERNAL ASSERT FAILED: Invalid multi-factor configuration response", code: "INTERNAL_ERROR") }
                providerConfigs.append(config)
            }
        }
        return .object(["state": state, "factorIds": .array(factorIds), "providerConfigs": .array(providerConfigs)])
    }

    // MARK: - Password policy

    /// `PasswordPolicyConfig` → `PasswordPolicyAuthServerConfig`: the constraints as one policy
    /// version, with the defaults firebase-admin-node sends for what is not given.
    package static func passwordPolicyServer(_ client: JSONValue) throws(TokenRefusal) -> JSONValue {
        let fields = try fields(client, "PasswordPolicyConfig", allowed: ["enforcementState", "forceUpgradeOnSignin", "constraints"])
        let state = fields["enforcementState"]
        guard state == "ENFORCE" || state == "OFF" else { throw invalid("\"PasswordPolicyConfig.enforcementState\" must be either \"ENFORCE\" or \"OFF\".") }
        let force = try bool(fields, "forceUpgradeOnSignin", "PasswordPolicyConfig") ?? false
        var options: [String: JSONValue] = ["containsUppercaseCharacter": false, "containsLowercaseCharacter": false, "containsNonAlphanumericCharacter": false,
                                            "containsNumericCharacter": false, "minPasswordLength": .integer(6), "maxPasswordLength": .integer(4096)]
        if let given = fields["constraints"] {
            let constraints = try self.fields(given, "PasswordPolicyConfig.constraints",
                                              allowed: ["requireUppercase", "requireLowercase", "requireNumeric", "requireNonAlphanumeric", "minLength", "maxLength"])
            for (key, server) in [("requireUppercase", "containsUppercaseCharacter"), ("requireLowercase", "containsLowercaseCharacter"),
                                  ("requireNonAlphanumeric", "containsNonAlphanumericCharacter"), ("requireNumeric", "containsNumericCharacter")] {
                if let flag = try bool(constraints, key, "PasswordPolicyConfig.constraints") { options[server] = .bool(flag) }
            }
            let least = constraints["minLength"].map(number) ?? 6
            guard let least, least.rounded() == least, (6...30).contains(least) else {
                throw invalid("\"PasswordPolicyConfig.constraints.minLength\" must be an integer between 6 and 30, inclusive.")
            }
            let most = constraints["maxLength"].map(number) ?? 4096
            guard let most, most.rounded() == most, most >= least, most <= 4096 else {
                throw invalid("\"PasswordPolicyConfig.constraints.maxLength\" must be greater than or equal to minLength and at max 4096.")
            }
            (options["minPasswordLength"], options["maxPasswordLength"]) = (.integer(Int64(least)), .integer(Int64(most)))
        } else if state == "ENFORCE" {
            throw invalid("\"PasswordPolicyConfig.constraints\" must be defined.")
        }
        return .object(["passwordPolicyEnforcementState": state!, "forceUpgradeOnSignin": .bool(force),
                        "passwordPolicyVersions": .array([.object(["customStrengthOptions": .object(options)])])])
    }

    package static func passwordPolicyClient(_ server: JSONValue) throws(TokenRefusal) -> JSONValue {
        guard let state = server["passwordPolicyEnforcementState"] else {
            throw invalid("INTERNAL ASSERT FAILED: Invalid password policy configuration response", code: "INTERNAL_ERROR")
        }
        var constraints: [String: JSONValue] = [:]
        if case .array(let versions)? = server["passwordPolicyVersions"], let options = versions.last?["customStrengthOptions"] {
            constraints["requireLowercase"] = options["containsLowercaseCharacter"]
            constraints["requireUppercase"] = options["containsUppercaseCharacter"]
            constraints["requireNonAlphanumeric"] = options["containsNonAlphanumericCharacter"]
            constraints["requireNumeric"] = options["containsNumericCharacter"]
            constraints["minLength"] = options["minPasswordLength"]
            constraints["maxLength"] = options["maxPasswordLength"]
        }
        return .object(["enforcementState": state, "constraints": .object(constraints), "forceUpgradeOnSignin": .bool(server["forceUpgradeOnSignin"] == .bool(true))])
    }

    // MARK: - reCAPTCHA

    static let enforcementStates: [JSONValue] = ["OFF", "AUDIT", "ENFORCE"]

    /// `RecaptchaConfig` → `RecaptchaAuthServerConfig` (`smsTollFraudManagedRules` is the
    /// server's `tollFraudManagedRules`).
    package static func recaptchaServer(_ client: JSONValue) throws(TokenRefusal) -> JSONValue {
        var fields = try fields(client, "RecaptchaConfig", allowed: ["emailPasswordEnforcementState", "phoneEnforcementState", "managedRules", "recaptchaKeys",
                                                                    "useAccountDefender", "useSmsBotScore", "useSmsTollFraudProtection", "smsTollFraudManagedRules"])
        for key in ["emailPasswordEnforcementState", "phoneEnforcementState"] {
            if let state = fields[key], !enforcementStates.contains(state) {
                throw invalid("\"RecaptchaConfig.\(key)\" must be either \"OFF\", \"AUDIT\" or \"ENFORCE\".", code: "INVALID_RECAPTCHA_ENFORCEMENT_STATE")
            }
        }
        for key in ["useAccountDefender", "useSmsBotScore", "useSmsTollFraudProtection"] {
            if let value = fields[key] {
                guard case .bool = value else { throw invalid("\"RecaptchaConfig.\(key)\" must be a boolean value\".", code: "INVALID_ARGUMENT") }
            }
        }
        for (key, rule, score) in [("managedRules", "RecaptchaManagedRule", "endScore"), ("smsTollFraudManagedRules", "RecaptchaTollFraudManagedRule", "startScore")] {
            guard let given = fields[key] else { continue }
            guard case .array(let rules) = given else { throw invalid("\"RecaptchaConfig.\(key)\" must be an array of valid \"\(rule)\".", code: "INVALID_ARGUMENT") }
            for entry in rules {
                let ruleFields = try self.fields(entry, rule, allowed: [score, "action"])
                if let action = ruleFields["action"], action != "BLOCK" { throw invalid("\"\(rule).action\" must be \"BLOCK\".", code: "INVALID_RECAPTCHA_ACTION") }
                guard let value = number(ruleFields[score]), (0...1).contains(value) else {
                    throw invalid("\"\(rule).\(score)\" must be a number between 0 and 1.", code: "INVALID_ARGUMENT")
                }
            }
        }
        if let rules = fields.removeValue(forKey: "smsTollFraudManagedRules") { fields["tollFraudManagedRules"] = rules }
        return .object(fields)
    }

    package static func recaptchaClient(_ server: JSONValue) -> JSONValue {
        guard case .object(var fields) = server else { return .object([:]) }
        if let rules = fields.removeValue(forKey: "tollFraudManagedRules") { fields["smsTollFraudManagedRules"] = rules }
        return .object(fields)
    }

    // MARK: - SMS regions, email privacy, mobile links, email sign-in

    /// `SmsRegionConfig`: exactly one of `allowByDefault` and `allowlistOnly`, each a list of
    /// region codes.
    package static func smsRegions(_ client: JSONValue) throws(TokenRefusal) -> JSONValue {
        let fields = try fields(client, "SmsRegionConfig", allowed: ["allowByDefault", "allowlistOnly"])
        guard fields.count == 1 else { throw invalid("SmsRegionConfig cannot have both \"allowByDefault\" and \"allowlistOnly\" parameters.", code: "INVALID_ARGUMENT") }
        let (kind, list) = fields["allowByDefault"] != nil ? ("allowByDefault", "disallowedRegions") : ("allowlistOnly", "allowedRegions")
        let regions = try self.fields(fields[kind]!, "SmsRegionConfig.\(kind)", allowed: [list])[list]
        if let regions {
            guard case .array(let codes) = regions, codes.allSatisfy({ $0.stringValue != nil }) else {
                throw invalid("\"SmsRegionConfig.\(kind).\(list)\" must be a valid string array.", code: "INVALID_ARGUMENT")
            }
        }
        return client
    }

    package static func emailPrivacy(_ client: JSONValue) throws(TokenRefusal) -> JSONValue {
        let fields = try fields(client, "EmailPrivacyConfig", allowed: ["enableImprovedEmailPrivacy"])
        _ = try bool(fields, "enableImprovedEmailPrivacy", "EmailPrivacyConfig")
        return client
    }

    package static func mobileLinks(_ client: JSONValue) throws(TokenRefusal) -> JSONValue {
        let fields = try fields(client, "MobileLinksConfig", allowed: ["domain"])
        if let domain = fields["domain"], domain != "HOSTING_DOMAIN", domain != "FIREBASE_DYNAMIC_LINK_DOMAIN" {
            throw invalid("\"MobileLinksConfig.domain\" must be either \"HOSTING_DOMAIN\" or \"FIREBASE_DYNAMIC_LINK_DOMAIN\".")
        }
        return client
    }

    /// `EmailSignInProviderConfig` → the tenant's `allowPasswordSignup` and `enableEmailLinkSignin`.
    package static func emailSignInServer(_ client: JSONValue) throws(TokenRefusal) -> [String: JSONValue] {
        let fields = try fields(client, "EmailSignInConfig", allowed: ["enabled", "passwordRequired"])
        guard let enabled = try bool(fields, "enabled", "EmailSignInConfig") else { throw invalid("\"EmailSignInConfig.enabled\" must be a boolean.") }
        var request: [String: JSONValue] = ["allowPasswordSignup": .bool(enabled)]
        if let required = try bool(fields, "passwordRequired", "EmailSignInConfig") { request["enableEmailLinkSignin"] = .bool(!required) }
        return request
    }

    package static func emailSignInClient(_ server: JSONValue) -> JSONValue {
        .object(["enabled": .bool(server["allowPasswordSignup"] == .bool(true)), "passwordRequired": .bool(server["enableEmailLinkSignin"] != .bool(true))])
    }

    // MARK: - Tenants and the project

    /// `UpdateTenantRequest`'s settings (all but the name and flags `AdminTenantChange` has)
    /// in the Admin API's tenant form.
    package static func tenantServer(_ client: [String: JSONValue]) throws(TokenRefusal) -> [String: JSONValue] {
        var request: [String: JSONValue] = [:]
        if let config = client["emailSignInConfig"] { request.merge(try emailSignInServer(config)) { $1 } }
        if let config = client["multiFactorConfig"] { request["mfaConfig"] = try multiFactorServer(config) }
        if let numbers = client["testPhoneNumbers"] { request["testPhoneNumbers"] = try testPhoneNumbers(numbers) }
        if let config = client["smsRegionConfig"] { request["smsRegionConfig"] = try smsRegions(config) }
        if let config = client["recaptchaConfig"] { request["recaptchaConfig"] = try recaptchaServer(config) }
        if let config = client["passwordPolicyConfig"] { request["passwordPolicyConfig"] = try passwordPolicyServer(config) }
        if let config = client["emailPrivacyConfig"] { request["emailPrivacyConfig"] = try emailPrivacy(config) }
        return request
    }

    /// A tenant's settings in the client's form (`Tenant`'s getters).
    package static func tenantClient(_ server: JSONValue) throws(TokenRefusal) -> [String: JSONValue] {
        var client: [String: JSONValue] = ["emailSignInConfig": emailSignInClient(server)]
        if let config = server["mfaConfig"] { client["multiFactorConfig"] = try multiFactorClient(config) }
        if let numbers = server["testPhoneNumbers"] { client["testPhoneNumbers"] = numbers == .null ? .object([:]) : numbers }
        if let config = server["smsRegionConfig"] { client["smsRegionConfig"] = config }
        if let config = server["recaptchaConfig"] { client["recaptchaConfig"] = recaptchaClient(config) }
        if let config = server["passwordPolicyConfig"] { client["passwordPolicyConfig"] = try passwordPolicyClient(config) }
        if let config = server["emailPrivacyConfig"] { client["emailPrivacyConfig"] = config }
        return client
    }

    /// `UpdateProjectConfigRequest` in the Admin API's project `config` form.
    package static func projectServer(_ client: [String: JSONValue]) throws(TokenRefusal) -> [String: JSONValue] {
        var request: [String: JSONValue] = [:]
        if let config = client["smsRegionConfig"] { request["smsRegionConfig"] = try smsRegions(config) }
        if let config = client["multiFactorConfig"] { request["mfa"] = try multiFactorServer(config) }
        if let config = client["recaptchaConfig"] { request["recaptchaConfig"] = try recaptchaServer(config) }
        if let config = client["passwordPolicyConfig"] { request["passwordPolicyConfig"] = try passwordPolicyServer(config) }
        if let config = client["emailPrivacyConfig"] { request["emailPrivacyConfig"] = try emailPrivacy(config) }
        if let config = client["mobileLinksConfig"] { request["mobileLinksConfig"] = try mobileLinks(config) }
        return request
    }

    /// The project's configuration in the client's form (`ProjectConfig`).
    package static func projectClient(_ server: JSONValue) throws(TokenRefusal) -> [String: JSONValue] {
        var client: [String: JSONValue] = [:]
        if let config = server["smsRegionConfig"] { client["smsRegionConfig"] = config }
        if let config = server["mfa"] { client["multiFactorConfig"] = try multiFactorClient(config) }
        if let config = server["recaptchaConfig"] { client["recaptchaConfig"] = recaptchaClient(config) }
        if let config = server["passwordPolicyConfig"] { client["passwordPolicyConfig"] = try passwordPolicyClient(config) }
        if let config = server["emailPrivacyConfig"] { client["emailPrivacyConfig"] = config }
        if let config = server["mobileLinksConfig"] { client["mobileLinksConfig"] = config }
        return client
    }

    /// Test phone numbers and their codes: at most 10, each an E.164 number and a 6-digit code
    /// (firebase-admin-node `Tenant.validate`); null or empty clears them.
    static func testPhoneNumbers(_ value: JSONValue) throws(TokenRefusal) -> JSONValue {
        guard case .object(let numbers) = value else { return .object([:]) }
        guard numbers.count <= 10 else {
            throw AdminErrors.client("MAXIMUM_TEST_PHONE_NUMBER_EXCEEDED", message: "Maximum of 10 test phone number / code pairs can be configured.")
        }
        for (number, code) in numbers {
            do throws(TokenRefusal) { try AdminChecks.phoneNumber(number) } catch {
                throw AdminErrors.client("INVALID_TESTING_PHONE_NUMBER", message: "\"\(number.prefix(40))\" is not a valid E.164 standard compliant phone number.")
            }
            guard let text = code.stringValue, text.count == 6, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) else {
                throw AdminErrors.client("INVALID_TESTING_PHONE_NUMBER", message: "\"\(code.stringValue?.prefix(40) ?? "")\" is not a valid 6 digit code string.")
            }
        }
        return value
    }
}

extension AdminAPI {
    /// The project's configuration (`GET v2/projects/P/config`), in the client's form.
    package func getProjectConfig() throws(TokenRefusal) -> [String: JSONValue] {
        try AdminAuthConfigs.projectClient(projectResource("GET", "config"))
    }

    /// Changes what `client` gives of the project's configuration (an update mask of it).
    package func updateProjectConfig(_ client: [String: JSONValue]) throws(TokenRefusal) -> [String: JSONValue] {
        let request = try AdminAuthConfigs.projectServer(client)
        let mask = Self.updateMask(.object(request))
        return try AdminAuthConfigs.projectClient(projectResource("PATCH", "config", body: .object(request), query: [("updateMask", mask.joined(separator: ","))]))
    }
}
