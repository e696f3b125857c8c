import FBAuthStandIn
import Foundation
import TestSupport
import Testing

/// Issue 31, item 1: a project that enforces App Check on Authentication, with the real binary:
/// the debug token exchanged once per token lifetime and cached, the header on every Identity
/// Toolkit and securetoken request, and clear refusals.
@Suite struct AppCheckTests {
    static let debugToken = "5b1a6e3c-8f0d-4c2e-9a7b-2d4f6e8a0c1e"
    static let appID = "1:123456789012:web:0a1b2c3d4e5f"

    func enforcing() throws -> Harness {
        var configuration = StandInConfiguration()
        configuration.appCheck = AppCheckEnforcement(debugTokens: [Self.debugToken])
        let harness = try Harness(configuration: configuration)
        harness.environment["FBAUTH_APP_CHECK_APP_ID"] = Self.appID
        return harness
    }

    var withToken: [String: String] { ["FBAUTH_APP_CHECK_DEBUG_TOKEN": Self.debugToken] }

    /// Identity Toolkit and securetoken requests the stand-in received.
    func authRequests(_ harness: Harness) -> [RecordedRequest] {
        harness.standIn.requests.filter { $0.path.hasPrefix("/identitytoolkit.googleapis.com/") || $0.path.hasPrefix("/securetoken.googleapis.com/") }
    }

    @Test func signInAndRefreshCarryTheTokenOfOneExchange() throws {
        let harness = try enforcing()
        let signin = try harness.signIn("yahoo.com", environment: withToken)
        #expect(signin.status == 0, "\(signin)")
        let refreshed = try harness.run(["token", "--force-refresh"], environment: withToken)
        #expect(refreshed.status == 0, "\(refreshed)")
        #expect(try harness.run(["whoami"], environment: withToken).status == 0)

        let exchanges = harness.standIn.requests.filter { $0.path.hasSuffix(":exchangeDebugToken") }
        #expect(exchanges.count == 1, "one exchange for three processes: \(exchanges.map(\.path))")
        let exchange = try #require(exchanges.first)
        #expect(exchange.path == "/content-firebaseappcheck.googleapis.com/v1/projects/fbauth-stand-in/apps/\(Self.appID):exchangeDebugToken"
                || exchange.path == "/content-firebaseappcheck.googleapis.com/v1/projects/123456789012/apps/\(Self.appID):exchangeDebugToken", "\(exchange.path)")
        #expect(exchange.query?.contains("key=test-api-key") == true && exchange.body.contains(Self.debugToken))
        let requests = authRequests(harness)
        #expect(requests.count >= 3 && requests.contains { $0.endpoint == "token" })
        let tokens = Set(requests.map { $0.headers["x-firebase-appcheck"] ?? "none" })
        #expect(tokens.count == 1 && !tokens.contains("none"), "every request carries the one token: \(tokens)")
        let cached = try #require(((harness.sessionsFile?["projects"] as? [String: Any])?.values.first as? [String: Any])?["appCheck"] as? [String: Any])
        #expect(cached["token"] as? String == tokens.first && cached["appID"] as? String == Self.appID)
        let saved = try String(contentsOfFile: harness.sessionsPath, encoding: .utf8)
        #expect(!signin.stderr.contains(Self.debugToken) && !saved.contains(Self.debugToken), "the debug token is never printed or saved")

        // A fresh ID token asks nothing, App Check included.
        let before = harness.standIn.requests.count
        #expect(try harness.run(["token"], environment: withToken).status == 0)
        #expect(harness.standIn.requests.count == before)
    }

    /// Shortly before the cached token expires, the next request exchanges again.
    @Test func anExpiringTokenIsExchangedAgain() throws {
        let harness = try enforcing()
        #expect(try harness.signIn("yahoo.com", environment: withToken).status == 0)
        var contents = try String(contentsOfFile: harness.sessionsPath, encoding: .utf8)
        // The saved token as a process sees it within five minutes of its expiry (here: past it).
        let expiry = try #require(contents.firstMatch(of: /"expirationTime" : "([^"]+)",\n\s+"token"/)?.output.1)
        contents = contents.replacingOccurrences(of: "\"expirationTime\" : \"\(expiry)\",\n", with: "\"expirationTime\" : \"2000-01-01T00:00:00Z\",\n")
        try contents.write(toFile: harness.sessionsPath, atomically: true, encoding: .utf8)
        #expect(try harness.run(["token", "--force-refresh"], environment: withToken).status == 0)
        #expect(harness.standIn.requests.filter { $0.path.hasSuffix(":exchangeDebugToken") }.count == 2)
    }

    /// Issue 60: a cached App Check token is the debug token's it was exchanged for: another
    /// debug token (a wrong one) is exchanged, and refused, now rather than in an hour.
    @Test func anotherDebugTokenIsNotServedTheCachedToken() throws {
        let harness = try enforcing()
        #expect(try harness.signIn("yahoo.com", environment: withToken).status == 0)
        let wrong = try harness.run(["token", "--force-refresh"], environment: ["FBAUTH_APP_CHECK_DEBUG_TOKEN": "00000000-0000-4000-8000-000000000000"])
        #expect(wrong.status == 1 && wrong.stderr.split(separator: "\n").count == 1, "\(wrong)")
        #expect(harness.standIn.requests.filter { $0.path.hasSuffix(":exchangeDebugToken") }.count == 2, "the wrong token was exchanged, not served the cache")
        // The right one goes on with a token of its own.
        #expect(try harness.run(["token", "--force-refresh"], environment: withToken).status == 0)
        let saved = try String(contentsOfFile: harness.sessionsPath, encoding: .utf8)
        #expect(!saved.contains(Self.debugToken), "only its digest is kept")
    }

    @Test func withoutADebugTokenTheRefusalNamesAppCheck() throws {
        let harness = try enforcing()
        let refused = try harness.run(["signin", "--provider", "password", "--email", "ada@example.com"], stdin: "correct horse\n")
        #expect(refused.status == 1, "\(refused)")
        // The stand-in is reached as an emulator is: the words are an emulator's (production's
        // are checked in process, AppCheckPiecesTests).
        #expect(refused.stderr.contains("the Auth emulator at \(harness.standIn.hostAndPort) enforces App Check and refused this request's App Check token (Firebase App Check token is invalid.)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("FBAUTH_APP_CHECK_DEBUG_TOKEN") && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(harness.standIn.requests.filter { $0.path.hasSuffix(":exchangeDebugToken") }.isEmpty, "nothing exchanged without a debug token")
        #expect(authRequests(harness).allSatisfy { $0.headers["x-firebase-appcheck"] == nil }, "nothing sent either")
    }

    @Test func aDebugTokenAppCheckRefusesSaysHowToRegisterIt() throws {
        let harness = try enforcing()
        let refused = try harness.signIn("yahoo.com", environment: ["FBAUTH_APP_CHECK_DEBUG_TOKEN": "not-registered"])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr == "fbauth: the Auth emulator at \(harness.standIn.hostAndPort) does not know the App Check debug token for app \(Self.appID) (HTTP 403: App attestation failed.): register it when the emulator starts (`fbauth emulator --app-check-debug-token-file FILE`, or FBAUTH_APP_CHECK_DEBUG_TOKEN set where it starts)\n", "\(refused.stderr)")
        // Before the browser: only the exchange reached the server, no authorization request.
        #expect(harness.standIn.requests.map(\.endpoint) == ["\(Self.appID):exchangeDebugToken"], "refused before the browser: \(harness.standIn.requests.map(\.endpoint))")
    }

    /// Issue 37, item 6: with `FBAUTH_APP_CHECK_HOST`, a refusal and a host that does not
    /// answer name that host, not the Identity Toolkit emulator's.
    @Test func anExchangeHostOfItsOwnIsTheOneNamed() throws {
        var configuration = StandInConfiguration()
        configuration.appCheck = AppCheckEnforcement(debugTokens: [Self.debugToken])
        let appCheck = try StandIn(configuration: configuration)
        appCheck.start()
        defer { appCheck.stop() }
        let harness = try enforcing()
        let refused = try harness.signIn("yahoo.com", environment: ["FBAUTH_APP_CHECK_DEBUG_TOKEN": "not-registered", "FBAUTH_APP_CHECK_HOST": appCheck.hostAndPort])
        #expect(refused.status == 1 && refused.stderr.split(separator: "\n").count == 1, "\(refused)")
        #expect(refused.stderr.hasPrefix("fbauth: App Check at \(appCheck.hostAndPort) refused the debug token for app \(Self.appID) (HTTP 403: App attestation failed.)"),
                "\(refused.stderr)")
        #expect(appCheck.requests(to: "\(Self.appID):exchangeDebugToken").count == 1 && harness.standIn.requests.isEmpty, "the exchange went to its own host, and nothing else was sent")

        let dead = try StandIn()
        let deadHost = dead.hostAndPort
        dead.start()
        dead.stop()  // its port is closed now: connections are refused
        let unreachable = try harness.signIn("yahoo.com", environment: withToken.merging(["FBAUTH_APP_CHECK_HOST": deadHost]) { $1 })
        #expect(unreachable.status == 6 && unreachable.stderr.contains(deadHost) && !unreachable.stderr.contains(harness.standIn.hostAndPort), "\(unreachable)")
    }

    @Test func theDebugTokenComesFromAFileOrStdinNeverAnArgument() throws {
        let harness = try enforcing()
        let file = harness.directory + "/debug-token"
        FileManager.default.createFile(atPath: file, contents: Data("\(Self.debugToken)\n".utf8), attributes: [.posixPermissions: 0o600])
        let fromFile = try harness.signIn("yahoo.com", ["--app-check-debug-token-file", file])
        #expect(fromFile.status == 0, "\(fromFile)")
        let fromStdin = try harness.run(["--app-check-debug-token-file", "-", "token", "--force-refresh"], stdin: Self.debugToken + "\n")
        #expect(fromStdin.status == 0, "\(fromStdin)")
        // (A bare `fbauth token` with a fresh token reads no setting: its quick path.)
        let noApp = try harness.run(["status"], environment: withToken.merging(["FBAUTH_APP_CHECK_APP_ID": ""]) { $1 })
        #expect(noApp.status == 2 && noApp.stderr.contains("App Check needs the app the debug token is registered for"), "\(noApp)")
        let badApp = try harness.run(["--app-id", "my-app", "status"], environment: withToken)
        #expect(badApp.status == 2 && badApp.stderr.contains("must be a Firebase app id"), "\(badApp)")
        let badToken = try harness.run(["status"], environment: ["FBAUTH_APP_CHECK_DEBUG_TOKEN": "a b"])
        #expect(badToken.status == 2 && !badToken.stderr.contains("a b"), "\(badToken)")
    }
}

/// Issue 41, item 3: App Check tried locally, against `fbauth emulator` run as a user runs it.
@Suite struct EmulatorAppCheckTests {
    static let appID = "1:987654321098:web:feedc0ffee"


    @Test func anEnforcingEmulatorRefusesWithoutATokenAndServesRegisteredOnes() throws {
        let harness = try Harness()
        let tokens = harness.directory + "/debug-tokens"
        FileManager.default.createFile(atPath: tokens, contents: Data("ci-token-1\n\nci-token-2\n".utf8), attributes: [.posixPermissions: 0o600])
        let (server, host) = try harness.startEmulator(["--enforce-app-check", "--app-check-debug-token", "local-1", "--app-check-debug-token-file", tokens],
                                          environment: ["FBAUTH_APP_CHECK_DEBUG_TOKEN": "from-env-1"])
        defer { server.interrupt(); _ = server.finish() }
        #expect(server.stderr.hasPrefix("App Check is enforced; 4 debug tokens are registered.\n"), "\(server.stderr)")
        let client = ["FIREBASE_AUTH_EMULATOR_HOST": host, "FBAUTH_APP_CHECK_APP_ID": Self.appID]

        let refused = try harness.run(["signin", "--provider", "anonymous"], environment: client)
        #expect(refused.status == 1 && refused.stdout.isEmpty && refused.stderr == "fbauth: anonymous sign-in failed: the Auth emulator at \(host) enforces App Check and refused this request's App Check token (Firebase App Check token is invalid.): configure App Check with a debug token the emulator registered (FBAUTH_APP_CHECK_DEBUG_TOKEN or --app-check-debug-token-file, with the app id from --app-config, --app-id or FBAUTH_APP_CHECK_APP_ID)\n", "\(refused)")

        let unknown = try harness.run(["signin", "--provider", "anonymous"], environment: client.merging(["FBAUTH_APP_CHECK_DEBUG_TOKEN": "never-registered"]) { $1 })
        #expect(unknown.status == 1 && unknown.stderr == "fbauth: the Auth emulator at \(host) does not know the App Check debug token for app \(Self.appID) (HTTP 403: App attestation failed.): register it when the emulator starts (`fbauth emulator --app-check-debug-token-file FILE`, or FBAUTH_APP_CHECK_DEBUG_TOKEN set where it starts)\n", "\(unknown)")

        for token in ["local-1", "ci-token-2", "from-env-1"] {
            let signedIn = try harness.run(["signin", "--provider", "anonymous"], environment: client.merging(["FBAUTH_APP_CHECK_DEBUG_TOKEN": token]) { $1 })
            #expect(signedIn.status == 0, "\(token): \(signedIn)")
            let refreshed = try harness.run(["token", "--force-refresh"], environment: client.merging(["FBAUTH_APP_CHECK_DEBUG_TOKEN": token]) { $1 })
            #expect(refreshed.status == 0 && refreshed.stdout.hasPrefix("eyJ"), "\(token): \(refreshed)")
        }
    }

    /// Registered but not enforced: the exchange works and requests need no header.
    @Test func registeredTokensWithoutEnforcementExchangeAndNothingIsRefused() throws {
        let harness = try Harness()
        let (server, host) = try harness.startEmulator(["--app-check-debug-token", "local-1"])
        defer { server.interrupt(); _ = server.finish() }
        #expect(server.stderr.hasPrefix("App Check is not enforced (its header is not required); 1 debug token is registered.\n"), "\(server.stderr)")
        let client = ["FIREBASE_AUTH_EMULATOR_HOST": host, "FBAUTH_APP_CHECK_APP_ID": Self.appID]
        #expect(try harness.run(["signin", "--provider", "anonymous"], environment: client).status == 0)
        #expect(try harness.run(["token", "--force-refresh"], environment: client.merging(["FBAUTH_APP_CHECK_DEBUG_TOKEN": "local-1"]) { $1 }).status == 0)
    }

    /// A client's App Check setting does not stop the emulator, and a bad token is one line.
    @Test func settingsOfTheClientsDoNotStopTheEmulator() throws {
        let harness = try Harness()
        let (server, host) = try harness.startEmulator([], environment: ["FIREBASE_AUTH_EMULATOR_HOST": "not a host", "FBAUTH_APP_CHECK_DEBUG_TOKEN": "some-token", "FBAUTH_APP_CHECK_APP_ID": ""])
        server.interrupt()
        let stopped = server.finish()
        #expect(host.hasPrefix("127.0.0.1:") && stopped.stderr.hasPrefix("App Check is not enforced (its header is not required); 1 debug token is registered.\nServing the fbauth stand-in")
                && !stopped.stderr.contains("fbauth:"), "\(stopped)")
        let bad = try harness.run(["emulator", "--port", "0", "--app-check-debug-token", "has space"])
        #expect(bad.status == 2 && bad.stdout.isEmpty && bad.stderr == "fbauth: --app-check-debug-token: 'has space' is not an App Check debug token: 1 to 200 letters, digits and -_. such as a UUID\n", "\(bad)")
    }
}

