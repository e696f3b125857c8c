import Foundation
import TestSupport
import Testing

/// Issue 31, item 3: deleting a user with Sign in with Apple revokes the Apple token first
/// (`accounts:revokeToken`, as the SDKs' `revokeAccessToken`), and deletes nothing when Apple's
/// revocation is refused.
@Suite struct AppleRevocationTests {
    func appleUser() throws -> Harness {
        let harness = try Harness()
        let signin = try harness.signIn("apple.com")
        #expect(signin.status == 0, "\(signin)")
        return harness
    }

    var keptAppleToken: (Harness) -> String? {
        { harness in
            let credentials = harness.savedSessions.first?["providerCredentials"] as? [[String: Any]] ?? []
            return credentials.first { $0["providerId"] as? String == "apple.com" }?["accessToken"] as? String
        }
    }

    @Test func theAppleTokenIsRevokedBeforeTheAccountIsDeleted() throws {
        let harness = try appleUser()
        let token = try #require(keptAppleToken(harness))
        let deleted = try harness.run(["delete-account", "--yes"])
        #expect(deleted.status == 0 && deleted.stderr.contains("after revoking its Sign in with Apple token"), "\(deleted)")
        let order = harness.standIn.requests.map(\.endpoint).filter { ["accounts:revokeToken", "accounts:delete"].contains($0) }
        #expect(order == ["accounts:revokeToken", "accounts:delete"], "\(order)")
        let revoke = try #require(harness.bodies(of: "accounts:revokeToken").first)
        #expect(revoke["providerId"] as? String == "apple.com" && revoke["tokenType"] as? String == "ACCESS_TOKEN" && revoke["token"] as? String == token)
        #expect(revoke["idToken"] as? String != nil && harness.savedSessions.isEmpty)
        #expect(!deleted.stderr.contains(token), "the Apple token is a secret")
    }

    @Test func aRefusedRevocationDeletesNothing() throws {
        let harness = try appleUser()
        // Revoked already (elsewhere): Apple refuses it now.
        let token = try #require(keptAppleToken(harness))
        let idToken = try #require(harness.savedSessions.first?["idToken"] as? String)
        let first = try harness.postToStandIn("/identitytoolkit.googleapis.com/v2/accounts:revokeToken?key=test-api-key",
                                              ["idToken": idToken, "providerId": "apple.com", "tokenType": "ACCESS_TOKEN", "token": token])
        #expect(first.status == 200, "\(first)")
        let refused = try harness.run(["delete-account", "--yes"])
        #expect(refused.status == 1 && refused.stderr.contains("nothing was deleted") && refused.stderr.contains("--skip-revoke"), "\(refused)")
        #expect(harness.standIn.requests(to: "accounts:delete").isEmpty && harness.savedSessions.count == 1)

        let skipped = try harness.run(["delete-account", "--yes", "--skip-revoke"])
        #expect(skipped.status == 0 && skipped.stderr.contains("warning: the user's Sign in with Apple token is not revoked (--skip-revoke)"), "\(skipped)")
        #expect(harness.standIn.requests(to: "accounts:delete").count == 1)
    }

    /// A session saved before fbauth kept Apple tokens: the user signs in with Apple again
    /// first (deletion needs a recent sign-in anyway), and that token is revoked.
    @Test func withoutAKeptTokenAFreshAppleSignInGivesOne() throws {
        let harness = try appleUser()
        var text = try String(contentsOfFile: harness.sessionsPath, encoding: .utf8)
        let kept = try #require(keptAppleToken(harness))
        text = text.replacingOccurrences(of: "\"accessToken\" : \"\(kept)\",", with: "")
        try text.write(toFile: harness.sessionsPath, atomically: true, encoding: .utf8)
        #expect(keptAppleToken(harness) == nil, "as an older fbauth saved it")
        let exchanges = harness.standIn.requests(to: "accounts:signInWithIdp").count
        let result = try harness.run(["delete-account", "--yes", "--port", "0", "--timeout", "30"])
        #expect(result.status == 0 && result.stderr.contains("No Apple token is kept for") && result.stderr.contains("after revoking"), "\(result)")
        let order = harness.standIn.requests.map(\.endpoint).filter { ["accounts:signInWithIdp", "accounts:revokeToken", "accounts:delete"].contains($0) }
        #expect(Array(order.dropFirst(exchanges)) == ["accounts:signInWithIdp", "accounts:revokeToken", "accounts:delete"], "\(order)")
        let revoked = try #require(harness.bodies(of: "accounts:revokeToken").first?["token"] as? String)
        #expect(revoked != kept && revoked.hasPrefix("fake-apple.com-access-"), "the new sign-in's token")
    }

    /// A user without Apple is deleted without any revocation.
    @Test func otherUsersAreDeletedWithoutRevocation() throws {
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com").status == 0)
        #expect(try harness.run(["delete-account", "--yes"]).status == 0)
        #expect(harness.standIn.requests(to: "accounts:revokeToken").isEmpty)
    }
}
