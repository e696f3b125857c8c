import FBAuthStandIn
import FirebaseAdminAuth
import Foundation
import Testing

/// Issue 57: the project's and tenants' settings (`ProjectConfigManager`, `Tenant`'s
/// configurations), sent in the Admin API's form as firebase-admin-node builds it
/// (`auth-config.ts`: `mfa.enabledProviders`, one password-policy version with its defaults,
/// `tollFraudManagedRules`), read back in the client's, and refused before any request where
/// firebase-admin-node refuses them, in its words.
@Suite struct ProjectConfigTests {
    static func emulator() throws -> StandIn {
        let standIn = try StandIn(configuration: .googleEmulator(projectId: "demo-fbauth"))
        standIn.start()
        return standIn
    }

    static func body(_ standIn: StandIn, _ method: String, suffix: String) throws -> (body: [String: Any], query: String) {
        let request = try #require(standIn.requests.last { $0.method == method && $0.path.hasSuffix(suffix) })
        return (try #require(try JSONSerialization.jsonObject(with: Data(request.body.utf8)) as? [String: Any]), request.query?.removingPercentEncoding ?? "")
    }

    static let settings = UpdateProjectConfigRequest(
        smsRegionConfig: .allowlistOnly(AllowlistOnly(allowedRegions: ["US", "CA"])),
        multiFactorConfig: MultiFactorConfig(state: .enabled, factorIds: [.phone],
                                             providerConfigs: [MultiFactorProviderConfig(state: .enabled, totpProviderConfig: TotpMultiFactorProviderConfig(adjacentIntervals: 5))]),
        recaptchaConfig: RecaptchaConfig(emailPasswordEnforcementState: .audit, managedRules: [RecaptchaManagedRule(endScore: 0.3, action: .block)],
                                         useSmsTollFraudProtection: true, smsTollFraudManagedRules: [RecaptchaTollFraudManagedRule(startScore: 0.8, action: .block)]),
        passwordPolicyConfig: PasswordPolicyConfig(enforcementState: .enforce, constraints: CustomStrengthOptionsConfig(requireUppercase: true, minLength: 8)),
        emailPrivacyConfig: EmailPrivacyConfig(enableImprovedEmailPrivacy: true),
        mobileLinksConfig: MobileLinksConfig(domain: .hostingDomain))

    @Test func theProjectsSettingsGoInTheAPIsFormAndComeBackInTheClients() async throws {
        let standIn = try Self.emulator()
        defer { standIn.stop() }
        let auth = AdminAuth(projectID: "demo-fbauth", emulatorHost: standIn.hostAndPort, log: { _ in })
        let updated = try await auth.projectConfigManager().updateProjectConfig(Self.settings)

        // What went over the wire is what firebase-admin-node's buildServerRequest makes.
        let (sent, query) = try Self.body(standIn, "PATCH", suffix: "/config")
        let mfa = try #require(sent["mfa"] as? [String: Any])
        #expect(mfa["enabledProviders"] as? [String] == ["PHONE_SMS"] && mfa["state"] as? String == "ENABLED")
        let policy = try #require(sent["passwordPolicyConfig"] as? [String: Any])
        let options = try #require(((policy["passwordPolicyVersions"] as? [[String: Any]])?.first)?["customStrengthOptions"] as? [String: Any])
        #expect(policy["passwordPolicyEnforcementState"] as? String == "ENFORCE" && policy["forceUpgradeOnSignin"] as? Bool == false)
        #expect(options["minPasswordLength"] as? Int == 8 && options["maxPasswordLength"] as? Int == 4096 && options["containsUppercaseCharacter"] as? Bool == true
                    && options["containsLowercaseCharacter"] as? Bool == false, "\(options)")
        let recaptcha = try #require(sent["recaptchaConfig"] as? [String: Any])
        #expect(recaptcha["tollFraudManagedRules"] != nil && recaptcha["smsTollFraudManagedRules"] == nil)
        let mask = Set(query.replacingOccurrences(of: "updateMask=", with: "").split(separator: ",").map(String.init))
        #expect(mask.isSuperset(of: ["mfa.state", "mfa.enabledProviders", "mfa.providerConfigs", "passwordPolicyConfig.passwordPolicyVersions",
                                     "recaptchaConfig.tollFraudManagedRules", "smsRegionConfig.allowlistOnly.allowedRegions", "mobileLinksConfig.domain",
                                     "emailPrivacyConfig.enableImprovedEmailPrivacy"]), "\(mask.sorted())")

        // And what comes back is what was set, with the policy's defaults filled in.
        let read = try await auth.projectConfigManager().getProjectConfig()
        for config in [updated, read] {
            #expect(config.multiFactorConfig == Self.settings.multiFactorConfig)
            #expect(config.smsRegionConfig == Self.settings.smsRegionConfig && config.emailPrivacyConfig == Self.settings.emailPrivacyConfig
                        && config.mobileLinksConfig == Self.settings.mobileLinksConfig)
            #expect(config.recaptchaConfig == Self.settings.recaptchaConfig, "\(String(describing: config.recaptchaConfig))")
            #expect(config.passwordPolicyConfig == PasswordPolicyConfig(enforcementState: .enforce, forceUpgradeOnSignin: false,
                                                                        constraints: CustomStrengthOptionsConfig(requireUppercase: true, requireLowercase: false,
                                                                                                                 requireNonAlphanumeric: false, requireNumeric: false,
                                                                                                                 minLength: 8, maxLength: 4096)),
                    "\(String(describing: config.passwordPolicyConfig))")
        }
        let json = read.toJSON()
        #expect((json["multiFactorConfig"] as? [String: Any])?["factorIds"] as? [String] == ["phone"]
                    && (json["smsRegionConfig"] as? [String: Any])?["allowlistOnly"] != nil, "\(json)")
    }

    @Test func settingsThatDoNotFitAreRefusedBeforeAnyRequest() async throws {
        let standIn = try Self.emulator()
        defer { standIn.stop() }
        let auth = AdminAuth(projectID: "demo-fbauth", emulatorHost: standIn.hostAndPort, log: { _ in })
        let manager = auth.projectConfigManager()
        let before = standIn.requests.count
        let refused: [(UpdateProjectConfigRequest, String, String)] = [
            (UpdateProjectConfigRequest(multiFactorConfig: MultiFactorConfig(state: .enabled, providerConfigs: [
                MultiFactorProviderConfig(state: .enabled, totpProviderConfig: TotpMultiFactorProviderConfig(adjacentIntervals: 11))])),
             "auth/argument-error", "\"MultiFactorConfig.providerConfigs.totpProviderConfig.adjacentIntervals\" must be a valid number between 0 and 10 (both inclusive)."),
            (UpdateProjectConfigRequest(multiFactorConfig: MultiFactorConfig(state: .enabled, providerConfigs: [MultiFactorProviderConfig(state: .enabled)])),
             "auth/invalid-config", "\"MultiFactorConfig.providerConfigs.totpProviderConfig\" must be defined."),
            (UpdateProjectConfigRequest(passwordPolicyConfig: PasswordPolicyConfig(enforcementState: .enforce)),
             "auth/invalid-config", "\"PasswordPolicyConfig.constraints\" must be defined."),
            (UpdateProjectConfigRequest(passwordPolicyConfig: PasswordPolicyConfig(enforcementState: .enforce, constraints: CustomStrengthOptionsConfig(minLength: 5))),
             "auth/invalid-config", "\"PasswordPolicyConfig.constraints.minLength\" must be an integer between 6 and 30, inclusive."),
            (UpdateProjectConfigRequest(passwordPolicyConfig: PasswordPolicyConfig(enforcementState: .off, constraints: CustomStrengthOptionsConfig(minLength: 10, maxLength: 9))),
             "auth/invalid-config", "\"PasswordPolicyConfig.constraints.maxLength\" must be greater than or equal to minLength and at max 4096."),
            (UpdateProjectConfigRequest(passwordPolicyConfig: PasswordPolicyConfig()),
             "auth/invalid-config", "\"PasswordPolicyConfig.enforcementState\" must be either \"ENFORCE\" or \"OFF\"."),
        ]
        for (request, code, message) in refused {
            await #expect { _ = try await manager.updateProjectConfig(request) } throws: { error in
                (error as? AdminAuthError)?.code == code && (error as? AdminAuthError)?.message == message
            }
        }
        #expect(standIn.requests.count == before)
    }

    @Test func aTenantsSettingsAndTestPhoneNumbers() async throws {
        let standIn = try Self.emulator()
        defer { standIn.stop() }
        let auth = AdminAuth(projectID: "demo-fbauth", emulatorHost: standIn.hostAndPort, log: { _ in })
        let manager = auth.tenantManager()
        let created = try await manager.createTenant(TenantRequest(displayName: "Settings", emailSignInConfig: EmailSignInProviderConfig(enabled: true, passwordRequired: false),
                                                                   multiFactorConfig: MultiFactorConfig(state: .enabled, factorIds: [.phone]),
                                                                   testPhoneNumbers: ["+15555550100": "123456"],
                                                                   emailPrivacyConfig: EmailPrivacyConfig(enableImprovedEmailPrivacy: true)))
        #expect(created.emailSignInConfig == EmailSignInProviderConfig(enabled: true, passwordRequired: false) && created.passwordSignInEnabled && created.emailLinkSignInEnabled)
        #expect(created.multiFactorConfig?.state == .enabled && created.multiFactorConfig?.factorIds == [.phone])
        #expect(created.testPhoneNumbers == ["+15555550100": "123456"] && created.emailPrivacyConfig?.enableImprovedEmailPrivacy == true)
        let json = created.toJSON()
        #expect(json["tenantId"] as? String == created.tenantId && (json["testPhoneNumbers"] as? [String: String]) == ["+15555550100": "123456"]
                    && (json["emailSignInConfig"] as? [String: Any])?["passwordRequired"] as? Bool == false, "\(json)")

        // `.some(nil)` clears the numbers, sent whole as firebase-admin-node sends them.
        let cleared = try await manager.updateTenant(created.tenantId, TenantRequest(testPhoneNumbers: .some(nil)))
        #expect(cleared.testPhoneNumbers == [:] && cleared.multiFactorConfig?.state == .enabled, "\(String(describing: cleared.testPhoneNumbers))")
        let (body, query) = try Self.body(standIn, "PATCH", suffix: "/tenants/\(created.tenantId)")
        #expect(query == "updateMask=testPhoneNumbers" && (body["testPhoneNumbers"] as? [String: Any])?.isEmpty == true, "\(query) \(body)")

        let before = standIn.requests.count
        let eleven = Dictionary(uniqueKeysWithValues: (0..<11).map { ("+1555555010\($0)", "123456") })
        await #expect { _ = try await manager.updateTenant(created.tenantId, TenantRequest(testPhoneNumbers: eleven)) } throws: { error in
            (error as? AdminAuthError)?.code == "auth/test-phone-number-limit-exceeded"
        }
        await #expect { _ = try await manager.updateTenant(created.tenantId, TenantRequest(testPhoneNumbers: ["+15555550100": "12345"])) } throws: { error in
            (error as? AdminAuthError)?.code == "auth/invalid-testing-phone-number"
        }
        #expect(standIn.requests.count == before)
    }
}
