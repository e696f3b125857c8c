import FBAuthStandIn
import FirebaseAdminAuth
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import Testing

/// Issue 57: `TenantAwareAuth`, as firebase-admin-node's `authForTenant` gives one: a tenant's
/// users, its tokens and only its tokens, against an emulator as `fbauth emulator` answers.
@Suite struct TenantAwareAuthTests {
    /// `accounts:signInWithCustomToken` in `tenant`, as an app of the tenant calls it.
    static func signIn(_ token: String, tenant: String?, host: String) async throws -> String {
        var request = URLRequest(url: URL(string: "http://\(host)/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=fake-api-key")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        var body: [String: Any] = ["token": token, "returnSecureToken": true]
        body["tenantId"] = tenant
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (data, _) = try await URLSession.shared.data(for: request)
        return try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["idToken"] as? String, "\(String(decoding: data, as: UTF8.self))")
    }

    static func mismatch(_ error: Error) -> Bool {
        (error as? AdminAuthError)?.code == "auth/mismatching-tenant-id"
            && (error as? AdminAuthError)?.message == "User tenant ID does not match with the current TenantAwareAuth tenant ID."
    }

    @Test func aTenantsAuthWorksInItsTenantAndTakesOnlyItsTokens() async throws {
        let standIn = try StandIn(configuration: .googleEmulator(projectId: "demo-fbauth"))
        standIn.start()
        defer { standIn.stop() }
        let auth = AdminAuth(projectID: "demo-fbauth", emulatorHost: standIn.hostAndPort, log: { _ in })
        let manager = auth.tenantManager()
        let (red, blue) = (try await manager.createTenant(TenantRequest(displayName: "Red-team")), try await manager.createTenant(TenantRequest(displayName: "Blue-team")))
        let redAuth = try manager.authForTenant(red.tenantId), blueAuth = try manager.authForTenant(blue.tenantId)
        #expect(redAuth.tenantId == red.tenantId)

        // Users: created, found and listed in the tenant; the project and the other tenant see none.
        let created = try await redAuth.createUser(CreateRequest(uid: "red-user", email: "red@example.com"))
        #expect(created.tenantId == red.tenantId)
        #expect(try await redAuth.getUser("red-user").email == "red@example.com")
        #expect(try await redAuth.listUsers().users.map(\.uid) == ["red-user"])
        #expect(try await blueAuth.listUsers().users.isEmpty)
        await #expect { _ = try await auth.getUser("red-user") } throws: { ($0 as? AdminAuthError)?.code == "auth/user-not-found" }
        await #expect { _ = try await blueAuth.getUser("red-user") } throws: { ($0 as? AdminAuthError)?.code == "auth/user-not-found" }
        try await redAuth.setCustomUserClaims("red-user", ["team": "red"])
        #expect(try await redAuth.getUser("red-user").customClaims?["team"] as? String == "red")

        // Tokens: a custom token carries the tenant, and its ID token passes the tenant's Auth
        // (and the project's), never another tenant's.
        let idToken = try await Self.signIn(try await redAuth.createCustomToken("red-user"), tenant: red.tenantId, host: standIn.hostAndPort)
        let decoded = try await redAuth.verifyIDToken(idToken, checkRevoked: true)
        #expect(decoded.uid == "red-user" && decoded.tenantID == red.tenantId && decoded.claims["team"] as? String == "red")
        #expect(try await auth.verifyIDToken(idToken).tenantID == red.tenantId)
        await #expect { _ = try await blueAuth.verifyIDToken(idToken) } throws: { Self.mismatch($0) }
        // The project's own users' tokens are no tenant's.
        _ = try await auth.createUser(CreateRequest(uid: "project-user"))
        let projectToken = try await Self.signIn(try await auth.createCustomToken("project-user"), tenant: nil, host: standIn.hostAndPort)
        await #expect { _ = try await redAuth.verifyIDToken(projectToken) } throws: { Self.mismatch($0) }
        await #expect { _ = try await redAuth.createSessionCookie(projectToken, expiresIn: 3600) } throws: { Self.mismatch($0) }
        let cookie = try await redAuth.createSessionCookie(idToken, expiresIn: 3600)
        #expect(try await redAuth.verifySessionCookie(cookie).uid == "red-user")
        await #expect { _ = try await blueAuth.verifySessionCookie(cookie) } throws: { Self.mismatch($0) }

        // Imports go to the tenant; a record naming another tenant is refused before any request.
        let imported = try await redAuth.importUsers([UserImportRecord(uid: "red-imported")])
        let importedUser = try await redAuth.getUser("red-imported")
        #expect(imported.successCount == 1 && importedUser.tenantId == red.tenantId)
        await #expect { _ = try await redAuth.importUsers([UserImportRecord(uid: "x", tenantId: blue.tenantId)]) } throws: { error in
            (error as? AdminAuthError)?.code == "auth/mismatching-tenant-id"
                && (error as? AdminAuthError)?.message == "UserRecord of index \"0\" has mismatching tenant ID \"\(blue.tenantId)\""
        }
        // Provider configurations are the tenant's own.
        _ = try await redAuth.createProviderConfig(.oidc(OIDCAuthProviderConfig(providerId: "oidc.red", clientId: "c", issuer: "https://issuer.example.com")))
        let redConfigs = try await redAuth.listProviderConfigs(AuthProviderConfigFilter(type: .oidc)).providerConfigs.map(\.providerId)
        let projectConfigs = try await auth.listProviderConfigs(AuthProviderConfigFilter(type: .oidc)).providerConfigs.map(\.providerId)
        #expect(redConfigs == ["oidc.red"] && projectConfigs.isEmpty, "\(redConfigs) \(projectConfigs)")
        await #expect { _ = try await blueAuth.getProviderConfig("oidc.red") } throws: { ($0 as? AdminAuthError)?.code == "auth/configuration-not-found" }
        await #expect { _ = try await redAuth.getProviderConfig("oidc.red/../x") } throws: { ($0 as? AdminAuthError)?.code == "auth/invalid-provider-id" }
        // The tenants themselves are still the project's, even from a tenant's Auth.
        let tenants = try await redAuth.tenantManager().listTenants().tenants
        #expect(Set(tenants.map(\.tenantId)) == [red.tenantId, blue.tenantId])
        #expect(throws: AdminAuthError.self) { _ = try manager.authForTenant("") }
    }

    /// `toJSON()` as firebase-admin-node's: the record's fields, times as UTC date strings, the
    /// metadata, providers and factors nested as their own `toJSON()`s give them.
    @Test func aUserRecordsJSONIsFirebaseAdminsToJSON() async throws {
        let standIn = try StandIn(configuration: .googleEmulator(projectId: "demo-fbauth"))
        standIn.start()
        defer { standIn.stop() }
        let auth = AdminAuth(projectID: "demo-fbauth", emulatorHost: standIn.hostAndPort, log: { _ in })
        _ = try await auth.importUsers([UserImportRecord(uid: "json-user", email: "j@example.com", emailVerified: true, phoneNumber: "+15550001234",
                                                         metadata: UserMetadataRequest(creationTime: Date(timeIntervalSince1970: 1_600_000_000)),
                                                         customClaims: ["role": "admin"],
                                                         multiFactor: MultiFactorUpdateSettings(enrolledFactors: [UpdatePhoneMultiFactorInfoRequest(uid: "f1", phoneNumber: "+15550009999")]))])
        let user = try await auth.getUser("json-user")
        let json = user.toJSON()
        #expect(json["uid"] as? String == "json-user" && json["email"] as? String == "j@example.com" && json["emailVerified"] as? Bool == true
                    && json["disabled"] as? Bool == false && (json["customClaims"] as? [String: Any])?["role"] as? String == "admin", "\(json)")
        let metadata = try #require(json["metadata"] as? [String: Any])
        #expect(metadata["creationTime"] as? String == "Sun, 13 Sep 2020 12:26:40 GMT", "\(metadata)")
        #expect(NSDictionary(dictionary: metadata).isEqual(to: user.metadata.toJSON()))
        let providers = try #require(json["providerData"] as? [[String: Any]])
        #expect(providers.count == user.providerData.count && zip(providers, user.providerData).allSatisfy { NSDictionary(dictionary: $0).isEqual(to: $1.toJSON()) })
        #expect(providers.contains { $0["providerId"] as? String == "phone" && $0["phoneNumber"] as? String == "+15550001234" }, "\(providers)")
        let factors = try #require((json["multiFactor"] as? [String: Any])?["enrolledFactors"] as? [[String: Any]])
        #expect(factors.count == 1 && factors[0]["uid"] as? String == "f1" && factors[0]["factorId"] as? String == "phone" && factors[0]["phoneNumber"] as? String == "+15550009999")
        #expect(NSDictionary(dictionary: try #require(user.multiFactor).toJSON()).isEqual(to: try #require(json["multiFactor"] as? [String: Any])))
    }

    /// createUser and updateUser with second factors and a provider account to link, as
    /// firebase-admin-node sends them (`mfaInfo`, `mfa.enrollments`, `linkProviderUserInfo`).
    @Test func secondFactorsAndLinkedProvidersOnCreateAndUpdate() async throws {
        let standIn = try StandIn(configuration: .googleEmulator(projectId: "demo-fbauth"))
        standIn.start()
        defer { standIn.stop() }
        let auth = AdminAuth(projectID: "demo-fbauth", emulatorHost: standIn.hostAndPort, log: { _ in })
        let created = try await auth.createUser(CreateRequest(uid: "mfa-user", email: "m@example.com", emailVerified: true,
                                                              multiFactor: MultiFactorCreateSettings(enrolledFactors: [
                                                                CreatePhoneMultiFactorInfoRequest(displayName: "Work", phoneNumber: "+15550001111")])))
        let factor = try #require(created.multiFactor?.enrolledFactors.first)
        #expect(factor.phoneNumber == "+15550001111" && factor.displayName == "Work" && factor.factorId == "phone" && !factor.uid.isEmpty)

        let replaced = try await auth.updateUser("mfa-user", UpdateRequest(
            providerToLink: UserProvider(uid: "g-1", email: "m@gmail.com", providerId: "google.com"),
            multiFactor: MultiFactorUpdateSettings(enrolledFactors: [UpdatePhoneMultiFactorInfoRequest(uid: "second", displayName: "Home", phoneNumber: "+15550002222")])))
        #expect(replaced.multiFactor?.enrolledFactors.map(\.uid) == ["second"] && replaced.multiFactor?.enrolledFactors.first?.phoneNumber == "+15550002222")
        #expect(replaced.providerData.contains { $0.providerId == "google.com" && $0.uid == "g-1" && $0.email == "m@gmail.com" }, "\(replaced.providerData)")
        #expect(try await auth.getUserByProviderUid(providerId: "google.com", uid: "g-1").uid == "mfa-user")
        let (sent, _) = try ProjectConfigTests.body(standIn, "POST", suffix: "accounts:update")
        #expect((sent["linkProviderUserInfo"] as? [String: Any])?["rawId"] as? String == "g-1"
                    && ((sent["mfa"] as? [String: Any])?["enrollments"] as? [[String: Any]])?.first?["phoneInfo"] as? String == "+15550002222", "\(sent)")

        let removed = try await auth.updateUser("mfa-user", UpdateRequest(multiFactor: MultiFactorUpdateSettings(enrolledFactors: nil)))
        #expect(removed.multiFactor == nil)

        let before = standIn.requests.count
        await #expect { _ = try await auth.updateUser("mfa-user", UpdateRequest(providerToLink: UserProvider(providerId: "google.com"))) } throws: { error in
            (error as? AdminAuthError)?.message == "providerToLink.uid of properties argument must be a non-empty string."
        }
        await #expect { _ = try await auth.createUser(CreateRequest(multiFactor: MultiFactorCreateSettings(enrolledFactors: [CreatePhoneMultiFactorInfoRequest(phoneNumber: "555")]))) } throws: { error in
            (error as? AdminAuthError)?.code == "auth/invalid-phone-number"
        }
        #expect(standIn.requests.count == before)
    }

    /// Issue 58: what firebase-admin-python's own integration tests found (they pass against
    /// Google's emulator): a user who never signed in has no `lastRefreshAt`, and one who did
    /// has that time; an administrator's listing carries the password's hash and salt; a tenant's
    /// links are for the tenant the path names, and say so.
    @Test func whatTheAdminSDKsOwnTestsFound() async throws {
        let standIn = try StandIn(configuration: .googleEmulator(projectId: "demo-fbauth"))
        standIn.start()
        defer { standIn.stop() }
        let auth = AdminAuth(projectID: "demo-fbauth", emulatorHost: standIn.hostAndPort, log: { _ in })
        _ = try await auth.createUser(CreateRequest(uid: "refresher", email: "r@example.com", password: "correct horse"))
        #expect(try await auth.getUser("refresher").metadata.lastRefreshTime == nil)
        let listed = try #require(try await auth.listUsers().users.first { $0.uid == "refresher" })
        #expect(listed.passwordSalt?.hasPrefix("fakeSalt") == true && listed.passwordHash == "fakeHash:salt=\(listed.passwordSalt ?? ""):password=correct horse",
                "\(String(describing: listed.passwordHash))")
        let before = Date()
        _ = try EmulatorHTTP.call("POST", standIn.hostAndPort, "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=k",
                                  ["email": "r@example.com", "password": "correct horse", "returnSecureToken": true])
        let refreshed = try #require(try await auth.getUser("refresher").metadata.lastRefreshTime)
        #expect(refreshed >= before.addingTimeInterval(-1) && refreshed <= Date().addingTimeInterval(1), "\(refreshed)")

        let tenant = try await auth.tenantManager().createTenant(TenantRequest(displayName: "Links", passwordSignInEnabled: true, emailLinkSignInEnabled: true))
        let tenantAuth = try auth.tenantManager().authForTenant(tenant.tenantId)
        _ = try await tenantAuth.createUser(CreateRequest(uid: "tenant-mail", email: "t@example.com"))
        for link in [try await tenantAuth.generatePasswordResetLink("t@example.com"), try await tenantAuth.generateEmailVerificationLink("t@example.com"),
                     try await tenantAuth.generateSignInWithEmailLink("t@example.com", actionCodeSettings: ActionCodeSettings(url: "https://example.com/done", handleCodeInApp: true))] {
            #expect(URLComponents(string: link)?.queryItems?.first { $0.name == "tenantId" }?.value == tenant.tenantId, "\(link)")
        }
        // The project has no such user: the tenant of the path is the one asked about.
        await #expect { _ = try await auth.generatePasswordResetLink("t@example.com") } throws: { ($0 as? AdminAuthError)?.code == "auth/email-not-found" }
    }

    /// Issue 58: a project and each of its tenants are uid namespaces of their own, as in
    /// production and Google's emulator: the same uid is two users, each signed in and deleted
    /// apart.
    @Test func eachTenantHasUsersOfItsOwn() async throws {
        let standIn = try StandIn(configuration: .googleEmulator(projectId: "demo-fbauth"))
        standIn.start()
        defer { standIn.stop() }
        let auth = AdminAuth(projectID: "demo-fbauth", emulatorHost: standIn.hostAndPort, log: { _ in })
        let tenant = try await auth.tenantManager().createTenant(TenantRequest(displayName: "Namespace"))
        let tenantAuth = try auth.tenantManager().authForTenant(tenant.tenantId)
        _ = try await auth.createUser(CreateRequest(uid: "same-uid", email: "project@example.com"))
        _ = try await tenantAuth.createUser(CreateRequest(uid: "same-uid", email: "tenant@example.com"))
        #expect(try await auth.getUser("same-uid").email == "project@example.com")
        #expect(try await tenantAuth.getUser("same-uid").email == "tenant@example.com")
        let idToken = try await Self.signIn(try await tenantAuth.createCustomToken("same-uid"), tenant: tenant.tenantId, host: standIn.hostAndPort)
        let decoded = try await tenantAuth.verifyIDToken(idToken, checkRevoked: true)
        #expect(decoded.tenantID == tenant.tenantId && decoded.email == "tenant@example.com")
        try await tenantAuth.deleteUser("same-uid")
        #expect(try await auth.getUser("same-uid").email == "project@example.com")
        await #expect { _ = try await tenantAuth.getUser("same-uid") } throws: { ($0 as? AdminAuthError)?.code == "auth/user-not-found" }
    }
}
