import Foundation
import TestSupport
import Testing

/// Issue 57, item 4: `fbauth users` on the same engine as FirebaseAdminAuth, against `fbauth
/// emulator` (the real binaries), as a project's administrator uses it in a terminal or CI.
@Suite struct UsersCommandTests {
    func emulator(_ harness: Harness) throws -> (BackgroundProcess, [String: String]) {
        let (emulator, host) = try harness.startEmulator()
        return (emulator, ["FIREBASE_AUTH_EMULATOR_HOST": host])
    }

    @Test func anAdministratorsDayWithUsers() throws {
        let harness = try Harness()
        let (emulator, environment) = try emulator(harness)
        defer { emulator.interrupt() }
        func users(_ arguments: [String], stdin: String? = nil) throws -> RunResult {
            try harness.run(["--project", "demo-fbauth", "users"] + arguments, stdin: stdin, environment: environment)
        }
        let created = try users(["create", "--uid", "ada", "--email", "ada@example.com", "--display-name", "Ada", "--phone", "+15555550100", "--password-stdin"],
                                stdin: "correct horse\n")
        #expect(created.status == 0 && created.json["uid"] as? String == "ada" && created.json["email"] as? String == "ada@example.com"
                    && created.json["displayName"] as? String == "Ada" && created.json["phoneNumber"] as? String == "+15555550100"
                    && created.json["disabled"] as? Bool == false && (created.json["metadata"] as? [String: Any])?["creationTime"] is String, "\(created)")
        #expect(!created.stdout.contains("correct horse") && !created.stderr.contains("correct horse"))
        // The password works: the user signs in with it.
        let signIn = try harness.postToStandIn("/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=k",
                                              ["email": "ada@example.com", "password": "correct horse", "returnSecureToken": true],
                                              port: UInt16(environment["FIREBASE_AUTH_EMULATOR_HOST"]!.split(separator: ":").last!)!)
        #expect(signIn.status == 200, "\(signIn)")

        for lookup in [["get", "ada"], ["get", "--email", "ADA@example.com"], ["get", "--phone", "+15555550100"]] {
            let found = try users(lookup)
            #expect(found.status == 0 && found.json["uid"] as? String == "ada", "\(lookup): \(found)")
        }
        let claims = try users(["set-claims", "ada", #"{"admin":true,"tier":2}"#])
        #expect(claims.status == 0 && (claims.json["customClaims"] as? [String: Any])?["admin"] as? Bool == true, "\(claims)")
        let disabled = try users(["disable", "ada"])
        #expect(disabled.status == 0 && disabled.json["disabled"] as? Bool == true, "\(disabled)")
        let enabled = try users(["enable", "ada"])
        #expect(enabled.status == 0 && enabled.json["disabled"] as? Bool == false, "\(enabled)")
        let link = try users(["link", "reset", "ada@example.com", "--continue-url", "https://example.com/done"])
        let url = try #require((link.json["link"] as? String).flatMap(URLComponents.init(string:)), "\(link)")
        #expect(url.queryItems?.first { $0.name == "mode" }?.value == "resetPassword" && url.queryItems?.contains { $0.name == "oobCode" } == true, "\(link)")
        _ = try users(["create", "--uid", "grace"])
        let listed = try users(["list"])
        #expect(listed.status == 0 && Set(((listed.json["users"] as? [[String: Any]]) ?? []).compactMap { $0["uid"] as? String }) == ["ada", "grace"], "\(listed)")
        let limited = try users(["list", "--max", "1"])
        #expect((limited.json["users"] as? [Any])?.count == 1, "\(limited)")

        // Bad input: exit 2, the Admin SDK's words, nothing sent. The server's refusals: exit 1.
        for (arguments, line) in [
            (["create", "--uid", String(repeating: "u", count: 129)], "The uid must be a non-empty string with at most 128 characters. [auth/invalid-uid]"),
            (["create", "--email", "not-an-address"], "The email address is improperly formatted. [auth/invalid-email]"),
            (["create", "--phone", "5555550100"], "The phone number must be a non-empty E.164 standard compliant identifier string. [auth/invalid-phone-number]"),
            (["set-claims", "ada", #"{"sub":"x"}"#], #"Developer claim "sub" is reserved and cannot be specified. [auth/reserved-claim]"#),
            (["set-claims", "ada", "[1]"], "the claims must be a JSON object, such as '{\"admin\":true}' ('{}' removes them) [auth/argument-error]"),
            (["frobnicate"], "'frobnicate' is not a users action; use one of: list, get, create, update, delete, disable, enable, set-claims, revoke, link, export, import"),
        ] {
            let result = try users(arguments)
            #expect(result.status == 2 && result.stdout.isEmpty && result.stderr == "fbauth: \(line)\n", "\(arguments): \(result)")
        }
        let duplicate = try users(["create", "--email", "ada@example.com"])
        #expect(duplicate.status == 1 && duplicate.stderr == "fbauth: The email address is already in use by another account. [auth/email-already-exists]\n", "\(duplicate)")
        let deleted = try users(["delete", "ada", "grace"])
        #expect(deleted.status == 0 && deleted.json["successCount"] as? Int == 2, "\(deleted)")
        let gone = try users(["get", "ada"])
        #expect(gone.status == 1 && gone.stderr == "fbauth: There is no user record corresponding to the provided identifier. [auth/user-not-found]\n", "\(gone)")
    }

    /// Without an emulator or credentials, nothing is sent and the line says what to set.
    @Test func withoutCredentialsItSaysWhatToSet() throws {
        let harness = try Harness()
        let result = try harness.run(["--project", "my-project", "users", "get", "ada"], environment: ["FIREBASE_AUTH_EMULATOR_HOST": "", "GCE_METADATA_HOST": ""])
        #expect(result.status != 0 && result.stderr.hasPrefix("fbauth: Managing users needs the Admin API's credentials, and none were found"), "\(result)")
    }

    /// Issue 56, item 6: against production the service account's key signs the assertion that
    /// is exchanged for an access token; neither reaches stderr, even with --verbose, and the
    /// failure is one line (exit 6). A key file another user owns, or may write, is refused on
    /// what was opened, before anything is sent.
    @Test func theServiceAccountsKeyNeverShowsAndAnotherUsersKeyIsRefused() throws {
        let harness = try Harness()
        let fixture = DistributionTests.repository.appendingPathComponent("Tests/FBAuthTests/Fixtures/ServiceAccount/service-account.json")
        var account = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: fixture)) as? [String: Any])
        account["token_uri"] = "https://127.0.0.1:1/token"
        let key = harness.directory + "/key.json"
        try JSONSerialization.data(withJSONObject: account).write(to: URL(fileURLWithPath: key))
        chmod(key, 0o600)
        let production = ["FIREBASE_AUTH_EMULATOR_HOST": "", "GOOGLE_APPLICATION_CREDENTIALS": key]
        let result = try harness.run(["--verbose", "--project", "proj-1", "users", "get", "ada"], environment: production)
        #expect(result.status == 6 && result.stdout.isEmpty && result.stderr.split(separator: "\n").count == 1
                    && result.stderr.hasPrefix("fbauth: Failed to fetch a valid Google OAuth2 access token from https://127.0.0.1:1/token: "), "\(result)")
        let privateKey = try #require(account["private_key"] as? String)
        #expect(!privateKey.split(separator: "\n").dropFirst().dropLast().contains { result.stderr.contains($0) } && !result.stderr.contains("eyJ"),
                "no part of the key, no assertion")
        guard geteuid() == 0 else { return }  // only root can give a file away
        #expect(chown(key, 65534, 65534) == 0)
        let foreign = try harness.run(["--project", "proj-1", "users", "get", "ada"], environment: production)
        #expect(foreign.status == 1 && foreign.stderr.contains("\(key) is owned by another user (uid 65534), so it is not trusted"), "\(foreign)")
        #expect(chown(key, 0, 0) == 0 && chmod(key, 0o666) == 0)
        let writable = try harness.run(["--project", "proj-1", "users", "get", "ada"], environment: production)
        #expect(writable.status == 1 && writable.stderr.contains("\(key) can be written by other users (mode 0666), so it is not trusted"), "\(writable)")
    }

    /// `fbauth tenants`, and a tenant's own users with the global --tenant-id.
    @Test func tenantsAndTheirUsers() throws {
        let harness = try Harness()
        let (emulator, environment) = try emulator(harness)
        defer { emulator.interrupt() }
        func run(_ arguments: [String]) throws -> RunResult {
            try harness.run(["--project", "demo-fbauth"] + arguments, environment: environment)
        }
        let made = try run(["tenants", "create", "--display-name", "staff", "--password", "on"])
        let tenant = try #require(made.json["tenantId"] as? String, "\(made)")
        #expect(made.status == 0 && made.json["displayName"] as? String == "staff"
                    && (made.json["emailSignInConfig"] as? [String: Any])?["enabled"] as? Bool == true, "\(made)")
        let user = try run(["--tenant-id", tenant, "users", "create", "--email", "ada@staff.example"])
        #expect(user.status == 0 && user.json["tenantId"] as? String == tenant, "\(user)")
        let projectUsers = try run(["users", "list"])
        #expect((projectUsers.json["users"] as? [Any])?.isEmpty == true, "the tenant's user is not the project's: \(projectUsers)")
        let updated = try run(["tenants", "update", tenant, "--anonymous", "on"])
        #expect(updated.status == 0 && updated.json["anonymousSignInEnabled"] as? Bool == true, "\(updated)")
        let listed = try run(["tenants", "list"])
        #expect(((listed.json["tenants"] as? [[String: Any]]) ?? []).compactMap { $0["tenantId"] as? String } == [tenant], "\(listed)")
        #expect(try run(["tenants", "delete", tenant]).status == 0)
        let gone = try run(["tenants", "get", tenant])
        #expect(gone.status == 1 && gone.stderr == "fbauth: There is no tenant corresponding to the provided identifier. [auth/tenant-not-found]\n", "\(gone)")
        let bad = try run(["tenants", "create", "--display-name", "staff", "--password", "maybe"])
        #expect(bad.status == 2 && bad.stderr == "fbauth: --password takes on or off, not 'maybe'\n", "\(bad)")
    }
}
