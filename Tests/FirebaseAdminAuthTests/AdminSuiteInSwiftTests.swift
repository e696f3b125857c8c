import FBAuthStandIn
import FirebaseAdminAuth
import Foundation
import Testing

/// Issue 57, item 5: firebase-admin-python's own integration scenarios (`integration/test_auth.py`,
/// those Google's emulator passes), written in Swift against FirebaseAdminAuth, step for step and
/// assertion for assertion, with firebase-admin-node's words where Python's are its own. They run
/// against `fbauth emulator` and, where it is built, Google's Auth emulator, as the Python suite
/// does (`AdminSuiteTests`), and must come to the same outcomes.
enum AdminSuiteScenarios {
    /// What each scenario runs with: an Admin API on an emulator, and its client API key.
    struct Context {
        let auth: AdminAuth
        let host: String
        /// Lets a second pass on the emulator's clock, as the Python test does (`validSince` is
        /// in whole seconds): Google's emulator has only the real clock, and the scenario is one
        /// for both.
        var passSecond: @Sendable () async throws -> Void = { try await Task.sleep(for: .seconds(1)) }

        func signIn(_ customToken: String) async throws -> String {
            try await AdminUserManagementTests.signInWithCustomToken(customToken, host: host)
        }
    }

    static func randomID() -> (uid: String, email: String) {
        let id = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        return (id, "test\(id.prefix(12))@example.\(id.dropFirst(12)).com")
    }

    static func randomPhone() -> String { "+1" + (0..<10).map { _ in String(Int.random(in: 0...9)) }.joined() }

    static func expectCode(_ code: String, _ body: () async throws -> Void) async {
        await #expect { try await body() } throws: { ($0 as? AdminAuthError)?.code == code }
    }

    static func all(_ context: Context) async throws {
        let auth = context.auth
        // test_custom_token, test_custom_token_with_claims
        let idToken = try await context.signIn(try await auth.createCustomToken("user1"))
        #expect(try await auth.verifyIDToken(idToken).uid == "user1")
        let withClaims = try await auth.verifyIDToken(try await context.signIn(try await auth.createCustomToken("user2", developerClaims: ["premium": true, "subscription": "silver"])))
        #expect(withClaims.uid == "user2" && withClaims.claims["premium"] as? Bool == true && withClaims.claims["subscription"] as? String == "silver")

        // test_session_cookies, test_session_cookie_error
        let cookieSource = try await context.signIn(try await auth.createCustomToken("user3", developerClaims: ["premium": true, "subscription": "silver"]))
        let cookie = try await auth.createSessionCookie(cookieSource, expiresIn: 86_400)
        let cookieClaims = try await auth.verifySessionCookie(cookie)
        #expect(cookieClaims.uid == "user3" && cookieClaims.claims["premium"] as? Bool == true && cookieClaims.claims["subscription"] as? String == "silver")
        #expect((cookieClaims.claims["iss"] as? String)?.hasPrefix("https://session.firebase.google.com") == true)
        let expiry = (cookieClaims.claims["exp"] as? NSNumber)?.doubleValue ?? 0
        #expect(abs(expiry - (Date().timeIntervalSince1970 + 86_400)) < 5)
        await expectCode("auth/invalid-id-token") { _ = try await auth.createSessionCookie("not.a.token", expiresIn: 86_400) }

        // test_get_non_existing_user(_by_email), test_update_non_existing_user, test_delete_non_existing_user
        await expectCode("auth/user-not-found") { _ = try await auth.getUser("non.existing") }
        await expectCode("auth/user-not-found") { _ = try await auth.getUserByEmail("non.existing@definitely.non.existing") }
        await expectCode("auth/user-not-found") { _ = try await auth.updateUser("non.existing", UpdateRequest()) }
        await expectCode("auth/user-not-found") { try await auth.deleteUser("non.existing") }

        // test_create_user (but for last_sign_in_timestamp, which only production sets at creation)
        let created = try await auth.createUser(CreateRequest())
        let fetched = try await auth.getUser(created.uid)
        #expect(fetched.uid == created.uid && fetched.displayName == nil && fetched.email == nil && fetched.phoneNumber == nil && fetched.photoURL == nil)
        #expect(!fetched.emailVerified && !fetched.disabled && fetched.customClaims == nil && fetched.providerData.isEmpty)
        #expect((fetched.metadata.creationTime?.timeIntervalSince1970 ?? 0) > 0)
        await expectCode("auth/uid-already-exists") { _ = try await auth.createUser(CreateRequest(uid: created.uid)) }

        // test_get_user (new_user_with_params)
        let (uid, email) = randomID(), phone = randomPhone()
        let withParams = try await auth.createUser(CreateRequest(uid: uid, email: email, emailVerified: true, password: "secret", displayName: "Random User",
                                                                 photoURL: "https://example.com/photo.png", phoneNumber: phone))
        for user in [try await auth.getUser(uid), try await auth.getUserByEmail(email), try await auth.getUserByPhoneNumber(phone)] {
            #expect(user.uid == uid && user.displayName == "Random User" && user.email == email && user.phoneNumber == phone)
            #expect(user.photoURL == "https://example.com/photo.png" && user.emailVerified && !user.disabled)
            #expect(Set(user.providerData.map(\.providerId)) == ["password", "phone"])
        }
        #expect(withParams.uid == uid)

        // test_update_user
        let (_, newEmail) = randomID(), newPhone = randomPhone()
        let updated = try await auth.updateUser(created.uid, UpdateRequest(email: newEmail, emailVerified: true, password: "secret", displayName: "Updated Name",
                                                                            photoURL: "https://example.com/photo.png", phoneNumber: newPhone))
        #expect(updated.uid == created.uid && updated.displayName == "Updated Name" && updated.email == newEmail && updated.phoneNumber == newPhone)
        #expect(updated.photoURL == "https://example.com/photo.png" && updated.emailVerified && !updated.disabled && updated.customClaims == nil && updated.providerData.count == 2)

        // test_set_custom_user_claims, test_update_custom_user_claims
        try await auth.setCustomUserClaims(created.uid, ["admin": true, "package": "gold"])
        #expect(try await auth.getUser(created.uid).customClaims?["package"] as? String == "gold")
        let claimed = try await auth.verifyIDToken(try await context.signIn(try await auth.createCustomToken(created.uid)))
        #expect(claimed.claims["admin"] as? Bool == true && claimed.claims["package"] as? String == "gold")
        try await auth.setCustomUserClaims(created.uid, ["admin": false, "subscription": "guest"])
        let replaced = try await auth.getUser(created.uid).customClaims
        #expect(replaced?["admin"] as? Bool == false && replaced?["subscription"] as? String == "guest" && replaced?["package"] == nil)
        try await auth.setCustomUserClaims(created.uid, nil)
        let cleared = try await auth.getUser(created.uid).customClaims
        #expect(cleared == nil || cleared?.isEmpty == true, "no claims: firebase-admin-node gives {} where Python gives None")

        // test_disable_user
        let disabled = try await auth.updateUser(uid, UpdateRequest(displayName: .some(nil), photoURL: .some(nil), phoneNumber: .some(nil), disabled: true))
        #expect(disabled.uid == uid && disabled.email == email && disabled.displayName == nil && disabled.phoneNumber == nil && disabled.photoURL == nil)
        #expect(disabled.emailVerified && disabled.disabled && disabled.providerData.count == 1)

        // test_delete_user, TestDeleteUsers, TestGetUsers
        let gone = try await auth.createUser(CreateRequest())
        try await auth.deleteUser(gone.uid)
        await expectCode("auth/user-not-found") { _ = try await auth.getUser(gone.uid) }
        let three = [try await auth.createUser(CreateRequest(disabled: true)).uid, try await auth.createUser(CreateRequest(disabled: false)).uid,
                     try await auth.createUser(CreateRequest(disabled: true)).uid]
        let deleted = try await auth.deleteUsers(three)
        #expect(deleted.successCount == 3 && deleted.failureCount == 0)
        #expect(try await auth.getUsers(three.map(UserIdentifier.uid)).users.isEmpty)
        #expect(try await auth.deleteUsers([three[0]]).successCount == 1, "deleting again is a success")
        let lookup = try await auth.getUsers([.uid(uid), .uid("uid_that_doesnt_exist"), .uid(uid)])
        #expect(lookup.users.map(\.uid) == [uid] && lookup.notFound == [.uid("uid_that_doesnt_exist")])

        // test_revoke_refresh_tokens, test_verify_id_token_revoked
        let revokedUser = try await auth.createUser(CreateRequest())
        let before = try await auth.getUser(revokedUser.uid).tokensValidAfterTime
        let revokedToken = try await context.signIn(try await auth.createCustomToken(revokedUser.uid))
        try await context.passSecond()
        try await auth.revokeRefreshTokens(revokedUser.uid)
        let after = try await auth.getUser(revokedUser.uid).tokensValidAfterTime
        #expect(after != nil && after != before)
        await expectCode("auth/id-token-revoked") { _ = try await auth.verifyIDToken(revokedToken, checkRevoked: true) }
        // Against an emulator the user is looked up even without checkRevoked, as
        // firebase-admin-node does there, so the revoked token is refused either way.
        await expectCode("auth/id-token-revoked") { _ = try await auth.verifyIDToken(revokedToken) }

        // test_verify_id_token_disabled
        let disabledToken = try await context.signIn(try await auth.createCustomToken(created.uid))
        _ = try await auth.updateUser(created.uid, UpdateRequest(disabled: true))
        await expectCode("auth/user-disabled") { _ = try await auth.verifyIDToken(disabledToken, checkRevoked: true) }

        // test_import_users
        let (importedUID, importedEmail) = randomID()
        let imported = try await auth.importUsers([UserImportRecord(uid: importedUID, email: importedEmail)])
        #expect(imported.successCount == 1 && imported.failureCount == 0)
        #expect(try await auth.getUser(importedUID).email == importedEmail)

        // test_password_reset, test_email_verification (links for an unverified user)
        let (_, linkEmail) = randomID()
        _ = try await auth.createUser(CreateRequest(email: linkEmail, password: "password"))
        let reset = try await auth.generatePasswordResetLink(linkEmail)
        #expect(URLComponents(string: reset)?.queryItems?.first { $0.name == "mode" }?.value == "resetPassword", "\(reset)")
        let verify = try await auth.generateEmailVerificationLink(linkEmail)
        #expect(URLComponents(string: verify)?.queryItems?.first { $0.name == "mode" }?.value == "verifyEmail", "\(verify)")
    }
}

@Suite struct AdminSuiteInSwiftTests {
    @Test func firebaseAdminsOwnScenariosOnFbauthsEmulator() async throws {
        let standIn = try AdminUserManagementTests.emulator()
        defer { standIn.stop() }
        try await AdminSuiteScenarios.all(.init(auth: AdminAuth(projectID: "demo-fbauth", emulatorHost: standIn.hostAndPort, log: { _ in }), host: standIn.hostAndPort))
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["FBAUTH_TEST_AUTH_EMULATOR"].map { !$0.isEmpty } == true, "needs Google's Auth emulator (FBAUTH_TEST_AUTH_EMULATOR)"))
    func firebaseAdminsOwnScenariosOnGooglesEmulator() async throws {
        let host = ProcessInfo.processInfo.environment["FBAUTH_TEST_AUTH_EMULATOR"]!
        let project = ProcessInfo.processInfo.environment["FBAUTH_TEST_AUTH_EMULATOR_PROJECT"] ?? "demo-fbauth"
        try await AdminSuiteScenarios.all(.init(auth: AdminAuth(projectID: project, emulatorHost: host, log: { _ in }), host: host))
    }
}
