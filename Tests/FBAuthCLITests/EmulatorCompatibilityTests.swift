import Foundation
import TestSupport
import Testing

/// Issue 49: `fbauth emulator` as a drop-in for Google's Auth emulator, judged by Google's own
/// clients: the real Firebase Admin SDK for Python (firebase-admin from PyPI,
/// Scripts/admin-sdk-check.py) and firebase-tools' own Auth emulator specs
/// (Scripts/emulator-specs.sh), asked of both emulators the same way.
@Suite struct EmulatorCompatibilityTests {
    static let adminSDK: Bool = {
        (try? Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import firebase_admin"], environment: ProcessInfo.processInfo.environment,
                             stdin: nil, directory: NSTemporaryDirectory(), timeout: 30).status) == 0
    }()

    static func adminCalls(_ host: String, project: String) throws -> [String: String] {
        let script = DistributionTests.repository.appendingPathComponent("Scripts/admin-sdk-check.py")
        let result = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, host, project],
                                        environment: ProcessInfo.processInfo.environment, stdin: nil, directory: NSTemporaryDirectory(), timeout: 120)
        return try #require((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: String], "\(result)")
    }

    /// Every everyday call of firebase-admin works: users made, read by uid, email, phone and
    /// in a batch, updated, deleted one and many, listed by pages, imported; claims read back and
    /// in the next ID token; revocation refuses the older token and the refresh token; the
    /// three kinds of links; session cookies; custom tokens; a tenant's own users; OpenID
    /// Connect and SAML provider configurations.
    @Test(.enabled(if: adminSDK || ProcessInfo.processInfo.environment["CI"] != nil, "firebase-admin is not installed (pip install firebase-admin)"))
    func theAdminSDKsEverydayCallsAllWork() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator()
        defer { emulator.interrupt(); _ = emulator.finish() }
        let calls = try Self.adminCalls(host, project: "demo-fbauth")
        #expect(calls.count == 20, "\(calls)")
        #expect(calls.filter { $0.value != "ok" }.isEmpty, "\(calls.filter { $0.value != "ok" })")
    }

    /// The same calls against Google's emulator, for comparison: it has no provider
    /// configurations, and its refresh tokens outlive a revocation.
    @Test(.enabled(if: GoogleAuthEmulator.host != nil && (adminSDK || ProcessInfo.processInfo.environment["CI"] != nil),
                   "needs Google's Auth emulator (FBAUTH_TEST_AUTH_EMULATOR) and firebase-admin"))
    func googlesEmulatorMissesWhatFbauthsServes() throws {
        var emulator = try GoogleAuthEmulator()
        _ = try emulator.signUp(email: "admin-\(UUID().uuidString.prefix(8).lowercased())@example.com", password: "correct horse")
        let calls = try Self.adminCalls(emulator.host, project: emulator.projectId)
        #expect(Set(calls.filter { $0.value != "ok" }.keys) == ["provider_configs", "revoke_refresh_tokens"], "\(calls)")
    }

    /// Any project a path names is served, with users of its own; the default project's tokens
    /// name it, and the emulator's own listing and clearing act on one project alone.
    @Test func everyProjectHasUsersOfItsOwn() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator(["--project", "demo-one"])
        defer { emulator.interrupt(); _ = emulator.finish() }
        for (project, uid) in [("demo-one", "in-one"), ("demo-two", "in-two")] {
            _ = try EmulatorHTTP.call("POST", host, "/identitytoolkit.googleapis.com/v1/projects/\(project)/accounts", ["localId": uid], owner: true)
        }
        func uids(_ project: String) throws -> [String] {
            let listed = try EmulatorHTTP.call("GET", host, "/identitytoolkit.googleapis.com/v1/projects/\(project)/accounts:batchGet", owner: true)
            return (listed["users"] as? [[String: Any]] ?? []).compactMap { $0["localId"] as? String }
        }
        #expect(try uids("demo-one") == ["in-one"] && uids("demo-two") == ["in-two"])
        let signUp = try EmulatorHTTP.call("POST", host, "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any", [:])
        let token = try #require(signUp["idToken"] as? String)
        #expect(token.hasPrefix("eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0."), "alg none, as Google's emulator: \(token.prefix(40))")
        #expect(try uids("demo-one").count == 2, "an API key's sign-up is the default project's")
        _ = try EmulatorHTTP.call("DELETE", host, "/emulator/v1/projects/demo-two/accounts")
        #expect(try uids("demo-two").isEmpty && uids("demo-one").count == 2)
    }

    /// Email enumeration protection is off as Google's emulator starts, and its config switches it.
    @Test func theEmulatorsConfigSwitchesEnumerationProtection() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator()
        defer { emulator.interrupt(); _ = emulator.finish() }
        _ = try EmulatorHTTP.call("POST", host, "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any", ["email": "pat@example.com", "password": "correct horse"])
        func methods() throws -> [String: Any] {
            try EmulatorHTTP.call("POST", host, "/identitytoolkit.googleapis.com/v1/accounts:createAuthUri?key=any", ["identifier": "pat@example.com", "continueUri": "http://localhost"])
        }
        #expect(try methods()["signinMethods"] as? [String] == ["password"])
        let config = try EmulatorHTTP.call("PATCH", host, "/emulator/v1/projects/demo-fbauth/config", ["emailPrivacyConfig": ["enableImprovedEmailPrivacy": true]])
        #expect((config["emailPrivacyConfig"] as? [String: Any])?["enableImprovedEmailPrivacy"] as? Bool == true, "\(config)")
        #expect(try methods()["signinMethods"] == nil)
    }

    /// firebase-tools' own specs: every case that Google's emulator passes run this way (298 of
    /// 342; the list in Fixtures is what `Scripts/emulator-specs.sh` wrote against it) passes
    /// against fbauth's too.
    @Test(.enabled(if: EmulatorSpecs.available, "firebase-tools' specs are not compiled here (../shared/auth-emulator/selftest.sh) or mocha is missing"))
    func theSpecsThatPassedStillPass() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator(["--project", "example"])
        defer { emulator.interrupt(); _ = emulator.finish() }
        let passed = harness.directory + "/passed.txt"
        let result = try Subprocess.run(DistributionTests.repository.appendingPathComponent("Scripts/emulator-specs.sh"), [host, passed],
                                        environment: ProcessInfo.processInfo.environment, stdin: nil, directory: harness.directory, timeout: 900)
        #expect(result.status == 0 && result.stdout.hasPrefix("emulator-specs: "), "\(result)")
        let now = Set(try String(contentsOfFile: passed, encoding: .utf8).split(separator: "\n").map(String.init))
        let before = Set(try String(contentsOf: DistributionTests.repository.appendingPathComponent("Tests/FBAuthCLITests/Fixtures/emulator-specs-passing.txt"),
                                    encoding: .utf8).split(separator: "\n").map(String.init))
        let failing = before.subtracting(now).subtracting(Self.clockEdgeCases)
        #expect(failing.isEmpty, "cases Google's emulator passes fail here: \(failing.sorted().prefix(20))")
    }

    /// Cases that fail against either emulator when the second ticks over between two of their
    /// requests: an ID token's `iat` and the `validSince` an email change sets are both whole
    /// seconds, so a token minted in the second before is revoked.
    static let clockEdgeCases: Set<String> = ["Auth Emulator: accounts:update should set initialEmail for the user, after updating email"]
}

enum EmulatorSpecs {
    static let available: Bool = {
        let build = ProcessInfo.processInfo.environment["AUTH_EMULATOR_BUILD"]
            ?? (ProcessInfo.processInfo.environment["XDG_CACHE_HOME"] ?? NSHomeDirectory() + "/.cache") + "/fbauth-auth-emulator"
        return FileManager.default.fileExists(atPath: build + "/selftest/lib/emulator/auth/testing/setup.js")
            && ["/usr/bin/mocha", "/usr/local/bin/mocha"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }()
}

/// Issue 49, item 5: a script signs in through a fake provider with no one to click Allow:
/// `--auto-consent EMAIL`, and the account a request's `login_hint` names.
@Suite struct AutoConsentTests {
    static let script = #"""
    import http.client, json, sys, urllib.parse
    host, hint = sys.argv[1], sys.argv[2]
    name, port = host.rsplit(":", 1)
    def call(method, path, body=None):
        c = http.client.HTTPConnection(name, int(port)); c.request(method, path, None if body is None else json.dumps(body), {"Content-Type": "application/json"})
        r = c.getresponse(); return r.status, dict(r.getheaders()), r.read()
    params = {"prompt": "login"} | ({"login_hint": hint} if hint else {})
    _, _, body = call("POST", "/identitytoolkit.googleapis.com/v1/accounts:createAuthUri?key=k",
                      {"providerId": "yahoo.com", "continueUri": "http://localhost:1/cb", "customParameter": params})
    auth = json.loads(body)
    u = urllib.parse.urlsplit(auth["authUri"])
    status, headers, _ = call("GET", u.path + "?" + u.query)
    location = headers.get("Location", "")
    _, _, body = call("POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=k",
                      {"requestUri": location, "sessionId": auth["sessionId"], "returnSecureToken": True})
    print(json.dumps({"status": status, "email": json.loads(body).get("email")}))
    """#

    func signIn(_ host: String, hint: String = "") throws -> [String: Any] {
        let result = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", Self.script, host, hint],
                                        environment: ProcessInfo.processInfo.environment, stdin: nil, directory: NSTemporaryDirectory(), timeout: 60)
        return try #require((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any], "\(result)")
    }

    @Test func aScriptSignsInAsTheGivenOrHintedAccount() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator(["--auto-consent", "ci-bot@example.com"])
        defer { emulator.interrupt(); _ = emulator.finish() }
        let plain = try signIn(host)
        #expect(plain["status"] as? Int == 302 && plain["email"] as? String == "ci-bot@example.com", "\(plain)")
        let hinted = try signIn(host, hint: "grace@example.com")
        #expect(hinted["email"] as? String == "grace@example.com", "\(hinted)")
    }

    @Test func withoutItTheConsentPageIsShown() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator()
        defer { emulator.interrupt(); _ = emulator.finish() }
        let shown = try signIn(host)
        #expect(shown["status"] as? Int == 200 && shown["email"] as? String == nil, "\(shown)")
        let refused = try harness.run(["emulator", "--port", "0", "--auto-consent", "not an email"])
        #expect(refused.status == 2 && refused.stderr == "fbauth: --auto-consent 'not an email' is not an email address\n", "\(refused)")
    }
}
