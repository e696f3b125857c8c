import FBAuthStandIn
import FirebaseAdminAuth
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
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
}
