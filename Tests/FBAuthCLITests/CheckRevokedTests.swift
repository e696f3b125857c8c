import FBAuthStandIn
import Foundation
import TestSupport
import Testing

/// Issue 42, item 5: `fbauth verify-token --check-revoked` with the real binary. Against an
/// emulator (the stand-in, and Google's own), the user is looked up as its owner, as
/// firebase-admin does, with or without the option; in production, with the Admin API's
/// credentials, which are checked before anything is sent and never printed.
@Suite(.enabled(if: TokenMinting.available || ProcessInfo.processInfo.environment["CI"] != nil, "Python's cryptography is not installed (.ci/run installs it)"))
struct CheckRevokedTests {
    static func authTime(_ token: String) -> Int {
        MultiFactorTests.claims(token)["auth_time"] as? Int ?? 0
    }

    @Test func againstAnEmulatorDisabledRevokedAndDeletedUsersAreRefused() throws {
        let (harness, tokens) = try VerifyTokenTests().minted()
        let token = try #require(tokens["valid"])
        func verify(_ more: [String] = ["--check-revoked"]) throws -> RunResult {
            try harness.run(["verify-token", "--project", "proj-1"] + more, stdin: token)
        }
        let passed = try verify()
        #expect(passed.status == 0 && passed.stderr.isEmpty && passed.json["uid"] as? String == "uid-1", "\(passed)")
        let lookups = harness.standIn.requests.filter { $0.path == "/identitytoolkit.googleapis.com/v1/projects/proj-1/accounts:lookup" }
        #expect(lookups.count == 1 && lookups.allSatisfy { $0.headers["authorization"] == "Bearer owner" && $0.body == #"{"localId":["uid-1"]}"# }, "\(lookups)")

        try harness.admin("accounts:update", ["localId": "uid-1", "disableUser": true])
        for more in [["--check-revoked"], []] {  // as firebase-admin, an emulator's token's user is always looked up
            let disabled = try verify(more)
            #expect(disabled.status == 1 && disabled.stdout.isEmpty && disabled.stderr == "fbauth: The user record is disabled.\n", "\(disabled)")
        }
        try harness.admin("accounts:update", ["localId": "uid-1", "disableUser": false, "validSince": String(Self.authTime(token) + 1)])
        let revoked = try verify()
        #expect(revoked.status == 1 && revoked.stdout.isEmpty && revoked.stderr == "fbauth: The Firebase ID token has been revoked.\n", "\(revoked)")
        harness.standIn.deleteUser(uid: "uid-1")
        let deleted = try verify()
        #expect(deleted.status == 1 && deleted.stdout.isEmpty && deleted.stderr == "fbauth: There is no user record corresponding to the provided identifier.\n", "\(deleted)")
    }

    /// Issue 50, item 5: the real firebase-admin (PyPI) against the same emulator, on the same ID
    /// token and session cookie, with and without check_revoked, agrees with fbauth at each
    /// step: a user as they are, disabled, revoked, deleted. Two differences, named in
    /// docs/verify.md: without check_revoked the Python SDK looks nobody up even against an
    /// emulator, where firebase-admin-node (and fbauth) always do; and it compares validSince
    /// with the token's iat, where Node's compares auth_time.
    @Test(.enabled(if: EmulatorCompatibilityTests.adminSDK || ProcessInfo.processInfo.environment["CI"] != nil, "firebase-admin is not installed (pip install firebase-admin)"))
    func firebaseAdminAgreesOnRevocation() throws {
        let (harness, tokens) = try VerifyTokenTests().minted()
        let cases = ["id": ("id", try #require(tokens["valid"])), "cookie": ("cookie", try #require(tokens["session cookie"]))]
        func firebaseAdmin(checkRevoked: Bool) throws -> [String: String] {
            let script = DistributionTests.repository.appendingPathComponent("Scripts/firebase-admin-verify.py")
            let input = String(decoding: try JSONSerialization.data(withJSONObject: cases.mapValues { [$0.0, $0.1] }), as: UTF8.self)
            let result = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, harness.standIn.hostAndPort, "proj-1"] + (checkRevoked ? ["--check-revoked"] : []),
                                            environment: ProcessInfo.processInfo.environment, stdin: input, directory: harness.directory, timeout: 120)
            return try #require((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: String], "\(result)")
        }
        func fbauth(checkRevoked: Bool) throws -> [String: String] {
            var verdicts: [String: String] = [:]
            for (name, (kind, token)) in cases {
                let result = try harness.run(["verify-token", "--project", "proj-1"] + (kind == "cookie" ? ["--session-cookie"] : []) + (checkRevoked ? ["--check-revoked"] : []), stdin: token)
                verdicts[name] = result.status == 0 ? "accepted" : "refused"
            }
            return verdicts
        }
        func expectAgreement(_ step: String, pythonLooksUpWithoutTheOption: Bool = true) throws {
            for checkRevoked in [true, false] {
                let (theirs, ours) = (try firebaseAdmin(checkRevoked: checkRevoked), try fbauth(checkRevoked: checkRevoked))
                for name in cases.keys {
                    let verdict = theirs[name] ?? "missing"
                    if !checkRevoked && !pythonLooksUpWithoutTheOption {
                        #expect(verdict == "accepted" && ours[name] == "refused", "\(step), \(name) without check_revoked: firebase-admin \(verdict), fbauth \(ours[name] ?? "")")
                    } else {
                        #expect((verdict == "accepted") == (ours[name] == "accepted"), "\(step), \(name), check_revoked \(checkRevoked): firebase-admin \(verdict), fbauth \(ours[name] ?? "")")
                    }
                }
            }
        }
        try expectAgreement("a user as they are")
        try harness.admin("accounts:update", ["localId": "uid-1", "disableUser": true])
        try expectAgreement("disabled", pythonLooksUpWithoutTheOption: false)
        // Revoked after the token was issued: refused by both.
        let issued = MultiFactorTests.claims(try #require(tokens["valid"]))["iat"] as? Int ?? 0
        try harness.admin("accounts:update", ["localId": "uid-1", "disableUser": false, "validSince": String(issued + 1)])
        try expectAgreement("revoked", pythonLooksUpWithoutTheOption: false)
        // Revoked between the sign-in and the token's issue (a refresh after the revocation):
        // the Python SDK compares validSince with iat and takes it; firebase-admin-node, -go and
        // fbauth compare auth_time, and refuse it.
        try harness.admin("accounts:update", ["localId": "uid-1", "validSince": String(Self.authTime(try #require(tokens["valid"])) + 1)])
        let (theirs, ours) = (try firebaseAdmin(checkRevoked: true), try fbauth(checkRevoked: true))
        #expect(theirs["id"] == "accepted" && ours["id"] == "refused", "\(theirs) \(ours)")
        harness.standIn.deleteUser(uid: "uid-1")
        try expectAgreement("deleted", pythonLooksUpWithoutTheOption: false)
    }

    /// In production, Google's certificates kept from an earlier run (so that nothing but the
    /// Admin API is needed), and the credentials the option asks for.
    @Test func inProductionTheCredentialsAreCheckedAndNeverShown() throws {
        let (harness, tokens) = try VerifyTokenTests().minted()
        let token = try #require(tokens["valid"])
        let certificates = try VerifyTokenTests().mintedCertificates(of: harness)
        let saved: [String: Any] = ["url": "https://www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com",
                                    "expires": Int(Date().timeIntervalSince1970) + 3600, "certificates": certificates]
        try FileManager.default.createDirectory(atPath: harness.configDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try JSONSerialization.data(withJSONObject: saved).write(to: URL(fileURLWithPath: harness.configDirectory + "/public-keys-id-token.json"))
        chmod(harness.configDirectory + "/public-keys-id-token.json", 0o600)
        let production = ["FIREBASE_AUTH_EMULATOR_HOST": ""]
        func verify(_ environment: [String: String], _ more: [String] = ["--check-revoked"]) throws -> RunResult {
            try harness.run(["verify-token", "--project", "proj-1"] + more, stdin: token, environment: production.merging(environment) { $1 })
        }

        let plain = try verify([:], [])
        #expect(plain.status == 0 && plain.stderr.isEmpty && plain.json["uid"] as? String == "uid-1", "without the option nothing is looked up: \(plain)")
        let none = try verify([:])
        #expect(none.status == 1 && none.stdout.isEmpty
            && none.stderr == "fbauth: Checking for revocation needs the Admin API's credentials, and none were found: no GOOGLE_APPLICATION_CREDENTIALS, no gcloud application default credentials (\(harness.directory)/.config/gcloud/application_default_credentials.json), and no metadata server (not on Google's clouds): set GOOGLE_APPLICATION_CREDENTIALS to a service account's key file, or run `gcloud auth application-default login`.\n", "\(none)")

        let garbled = harness.directory + "/garbled.json"
        try "{not json".write(toFile: garbled, atomically: true, encoding: .utf8)
        let unreadable = try verify(["GOOGLE_APPLICATION_CREDENTIALS": garbled])
        #expect(unreadable.status == 1 && unreadable.stderr == "fbauth: Failed to parse contents of the credentials file \(garbled) as an object.\n", "\(unreadable)")

        // The service account's key, its token endpoint a closed port: the signed assertion is
        // made and sent, and the failure is exit 6 in one line that shows no part of the key.
        let keyFile = DistributionTests.repository.appendingPathComponent("Tests/FBAuthTests/Fixtures/ServiceAccount/service-account.json")
        var account = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: keyFile)) as? [String: Any])
        account["token_uri"] = "https://127.0.0.1:1/token"
        let key = harness.directory + "/key.json"
        try JSONSerialization.data(withJSONObject: account).write(to: URL(fileURLWithPath: key))
        let unreachable = try verify(["GOOGLE_APPLICATION_CREDENTIALS": key])
        #expect(unreachable.status == 6 && unreachable.stdout.isEmpty && unreachable.stderr.split(separator: "\n").count == 1
            && unreachable.stderr.hasPrefix("fbauth: Failed to fetch a valid Google OAuth2 access token from https://127.0.0.1:1/token: "), "\(unreachable)")
        let privateKey = try #require(account["private_key"] as? String)
        let keyLines = privateKey.split(separator: "\n").dropFirst().dropLast()
        #expect(!keyLines.contains { unreachable.stderr.contains($0) } && !unreachable.stderr.contains("eyJ"), "no key, no assertion")
    }
}

extension VerifyTokenTests {
    /// The certificates the harness's stand-in publishes (the minted tokens' keys).
    func mintedCertificates(of harness: Harness) throws -> [String: String] {
        try #require(harness.standIn.configuration.publishedCertificates)
    }
}

/// The same against Google's own Auth emulator: its users, its unsigned tokens, its answers
/// to the Admin API.
@Suite(.enabled(if: GoogleAuthEmulator.host != nil, "FBAUTH_TEST_AUTH_EMULATOR is not set (no Google Auth emulator to test against)"))
struct CheckRevokedOnGoogleEmulatorTests {
    @Test func disabledRevokedAndDeletedUsersAreRefused() throws {
        var emulator = try GoogleAuthEmulator()
        let harness = try emulator.harness()
        let (uid, token) = try emulator.signUp(email: "revoked-\(UUID().uuidString.prefix(8).lowercased())@example.com", password: "correct horse")
        func verify() throws -> RunResult {
            try harness.run(["verify-token", "--project", emulator.projectId, "--check-revoked"], stdin: token)
        }
        let passed = try verify()
        // Google's emulator signs nothing (alg none): taken, and said so (issue 47, item 7).
        let host = harness.environment["FIREBASE_AUTH_EMULATOR_HOST"] ?? ""
        #expect(passed.status == 0 && passed.json["uid"] as? String == uid
                    && passed.stderr == "fbauth: warning: this token is not signed (alg none); it was taken only because FIREBASE_AUTH_EMULATOR_HOST is set (\(host)), as an emulator's tokens are: never set it where real users sign in\n", "\(passed)")

        try emulator.admin("accounts:update", ["localId": uid, "disableUser": true])
        let disabled = try verify()
        #expect(disabled.status == 1 && disabled.stdout.isEmpty && disabled.stderr == "fbauth: The user record is disabled.\n", "\(disabled)")
        try emulator.admin("accounts:update", ["localId": uid, "disableUser": false, "validSince": String(CheckRevokedTests.authTime(token) + 1)])
        let revoked = try verify()
        #expect(revoked.status == 1 && revoked.stdout.isEmpty && revoked.stderr == "fbauth: The Firebase ID token has been revoked.\n", "\(revoked)")
        try emulator.admin("accounts:delete", ["localId": uid])
        let deleted = try verify()
        #expect(deleted.status == 1 && deleted.stdout.isEmpty && deleted.stderr == "fbauth: There is no user record corresponding to the provided identifier.\n", "\(deleted)")
    }
}
