import FBAuthStandIn
import Foundation
import Testing

/// Networks fail and servers misbehave: every fault is a clear exit code, never a crash, and the
/// store is left exactly as it was.
@Suite struct FaultTests {
    static let faults: [(String, Fault.Behaviour, Int32, String)] = [
        ("HTTP 503", .status(503, message: "UNAVAILABLE"), 6, "HTTP 503"),
        ("HTTP 429", .status(429, message: "RESOURCE_EXHAUSTED"), 6, "rate-limiting"),
        ("a delay past the timeout", .delay(2), 6, "no answer within 1 s"),
        ("a dropped connection", .dropConnection, 6, "could not reach"),
        ("malformed JSON", .raw(status: 200, contentType: "application/json", body: "{\"users\": [tru"), 1, "malformed JSON"),
        ("an empty body", .raw(status: 200, contentType: "application/json", body: ""), 1, "empty body"),
        ("a wrong content type", .raw(status: 200, contentType: "text/html", body: "<html>login</html>"), 1, "instead of JSON"),
        ("an HTML error page", .raw(status: 502, contentType: "text/html", body: "<html>bad gateway</html>"), 6, "HTTP 502"),
    ]

    private func store(_ harness: Harness) -> Data? { FileManager.default.contents(atPath: harness.sessionsPath) }

    /// A short request timeout only where the fault is a delay: elsewhere a loaded machine must
    /// not turn the fault under test into a timeout.
    private func timeout(for behaviour: Fault.Behaviour) -> [String: String] {
        if case .delay = behaviour { return ["FBAUTH_HTTP_TIMEOUT": "1"] }
        return [:]
    }

    @Test(arguments: Self.faults.indices)
    func faultsDuringSignInLeaveTheStoreAsItWas(index: Int) throws {
        let (name, behaviour, status, message) = Self.faults[index]
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com", ["--email", "first@example.com"]).status == 0)
        let before = store(harness)
        // The lookup after the exchange fails, however often it is tried.
        harness.standIn.inject(Fault("accounts:lookup", behaviour, count: .max))
        let result = try harness.signIn("github.com", ["--email", "second@example.com"], environment: timeout(for: behaviour))
        #expect(result.status == status, "\(name): \(result)")
        #expect(result.stderr.contains(message), "\(name): \(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(store(harness) == before, "\(name): the store changed")
    }

    @Test(arguments: Self.faults.indices)
    func faultsDuringWhoamiAndRefreshLeaveTheStoreAsItWas(index: Int) throws {
        let (name, behaviour, status, message) = Self.faults[index]
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com").status == 0)
        let before = store(harness)
        harness.standIn.inject(Fault("accounts:lookup", behaviour, count: .max))
        let whoami = try harness.run(["whoami"], environment: timeout(for: behaviour))
        #expect(whoami.status == status, "\(name): \(whoami)")
        #expect(whoami.stderr.contains(message), "\(name)")
        #expect(store(harness) == before, "\(name)")
        harness.standIn.clearFaults()
        harness.standIn.inject(Fault("/v1/token", behaviour, count: .max))
        let token = try harness.run(["token", "--force-refresh"], environment: timeout(for: behaviour))
        #expect(token.status == status, "\(name): \(token)")
        #expect(store(harness) == before, "\(name)")
    }

    @Test func aFailedCreateAuthUriIsRetriedOnceAndOpensNoBrowser() throws {
        let harness = try Harness()
        harness.standIn.inject(Fault("accounts:createAuthUri", .status(503, message: "UNAVAILABLE"), count: 2))
        let result = try harness.signIn("yahoo.com")
        #expect(result.status == 6, "\(result)")
        #expect(harness.standIn.requests(to: "accounts:createAuthUri").count == 2)
        #expect(harness.browserPages.isEmpty)
    }

    @Test func proxySettingsReachTheHTTPLayer() throws {
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com").status == 0)
        // A host that does not resolve: only a proxy can reach it. The stand-in plays the proxy.
        let environment = [
            "FIREBASE_AUTH_EMULATOR_HOST": "firebase-auth.fbauth-test.invalid:9099",
            "http_proxy": "http://\(harness.standIn.hostAndPort)", "HTTPS_PROXY": "http://\(harness.standIn.hostAndPort)",
        ]
        // Sessions are kept per emulator host, so sign in through the proxy first.
        let signIn = try harness.run(["signin", "--loopback", "--provider", "github.com", "--port", "0", "--timeout", "30", "--email", "proxied@example.com"], environment: environment)
        #expect(signIn.status == 0, "\(signIn)")
        let proxied = try #require(harness.standIn.requests(to: "accounts:createAuthUri").last)
        #expect(proxied.target.hasPrefix("http://firebase-auth.fbauth-test.invalid:9099/identitytoolkit.googleapis.com/v1/accounts:createAuthUri"))

        let bypassed = try harness.run(["token", "--force-refresh"], environment: environment.merging(["no_proxy": "fbauth-test.invalid", "NO_PROXY": "fbauth-test.invalid"]) { $1 })
        #expect(bypassed.status == 6, "\(bypassed)")
        #expect(bypassed.stderr.contains("firebase-auth.fbauth-test.invalid:9099"))
    }

    @Test func verboseLogsNeverShowASecret() throws {
        let harness = try Harness()
        let signIn = try harness.signIn("twitter.com", ["--email", "v@example.com", "--verbose"])
        #expect(signIn.status == 0, "\(signIn)")
        let refresh = try harness.run(["token", "--force-refresh", "--verbose"])
        let link = try harness.run(["link", "--loopback", "--provider", "yahoo.com", "--email", "v@example.com", "--port", "0", "--timeout", "30", "--verbose"])
        let whoami = try harness.run(["whoami", "--verbose"])
        harness.standIn.createPasswordUser(email: "p@example.com", password: "hunter2-secret")
        let password = try harness.run(["signin", "--provider", "password", "--email", "p@example.com", "--verbose"], stdin: "hunter2-secret\n")
        #expect([refresh, link, whoami, password].allSatisfy { $0.status == 0 }, "\([refresh, link, whoami, password])")

        let stderr = [signIn, refresh, link, whoami, password].map(\.stderr).joined(separator: "\n")
        #expect(stderr.contains("> POST") && stderr.contains("< 200 in") && stderr.contains("[REDACTED]"))
        let secrets = harness.standIn.issuedSecrets.union(["hunter2-secret", "test-api-key"])
        #expect(secrets.count > 10)
        for secret in secrets where stderr.contains(secret) {
            Issue.record("a secret reached stderr: \(secret.prefix(12))…")
        }
        // The browser's pages never carry one either.
        let pages = harness.browserPages.compactMap { $0["body"] as? String }.joined()
        for secret in harness.standIn.issuedSecrets where pages.contains(secret) && !secret.isEmpty {
            // The consent form's own flow id is not one of these; any hit is a leak.
            Issue.record("a secret reached a browser page: \(secret.prefix(12))…")
        }
    }
}
