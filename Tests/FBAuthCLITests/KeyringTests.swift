import FBAuthStandIn
import Foundation
import TestSupport
import Testing

/// Issue 30, end to end: the real binary on a private session bus with the real gnome-keyring,
/// checked with `secret-tool`; and the ways a bus can be missing or silent, each in seconds.
@Suite(.serialized, .enabled(if: PrivateBus.available, "needs dbus-daemon and gnome-keyring-daemon (Debian: dbus-daemon, gnome-keyring)"))
struct KeyringTests {
    /// A harness whose fbauth runs on `bus`.
    func harness(on bus: PrivateBus?) throws -> Harness {
        let harness = try Harness()
        if let bus { harness.environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address }
        return harness
    }

    var fileText: (Harness) -> String {
        { (try? String(contentsOfFile: $0.sessionsPath, encoding: .utf8)) ?? "" }
    }

    @Test func theRefreshTokenLivesInTheKeyringAndAFreshTokenNeverAsksIt() throws {
        let (bus, harness) = try Harness.onPrivateKeyring()
        let signin = try harness.signIn("yahoo.com")
        #expect(signin.status == 0, "\(signin)")
        #expect(signin.stderr.components(separatedBy: "refresh tokens are kept in the GNOME keyring").count == 2, "said once: \(signin.stderr)")
        let token = try #require(signin.json.string("user", "refreshToken"))
        #expect(harness.standIn.issuedSecrets.contains(token), "the sign-in's output still gives the token the server issued")
        #expect(!fileText(harness).contains(token) && harness.savedSessions.first?["refreshToken"] as? String == "@keyring")
        let listed = try bus.fbauthItems()
        #expect(listed.map(\.secret) == [token] && listed.first?.label == "fbauth refresh token for user@example.com (fbauth-stand-in)"
            && listed.first?.attributes["kind"] == "refresh-token", "\(listed)")

        let refreshed = try harness.run(["token", "--force-refresh"])
        #expect(refreshed.status == 0 && refreshed.stderr.isEmpty, "\(refreshed)")
        #expect(harness.standIn.requests(to: "token").last?.body.contains(token) == true, "the keyring's token was sent")
        let items = try bus.fbauthItems().map(\.secret)
        #expect(!fileText(harness).contains(token) && items == [token])

        let status = try harness.run(["status"])
        #expect(status.status == 0 && status.stderr.isEmpty && KeyringTrustTests.masked(status.stdout) == [
            "Signed in as user@example.com (uid UID) on fbauth-stand-in (key …pi-key, emulator HOST)",
            "  providers: yahoo.com",
            "  token: valid for N min; refresh token in the keyring",
            "Sessions are stored in \(harness.sessionsPath); new refresh tokens are kept in the keyring",
        ], "no problem line: \(status.stdout)")

        // A fresh token is read from the file alone: no socket is even opened.
        let strace = try #require(["/usr/bin/strace", "/bin/strace"].first(where: FileManager.default.isExecutableFile(atPath:)),
                                  "strace counts the sockets (Debian: strace; .ci/run installs it)")
        let log = harness.directory + "/strace.log"
        let traced = try Subprocess.run(URL(fileURLWithPath: strace), ["-f", "-e", "trace=socket,connect,openat", "-o", log, Binaries.url("fbauth").path, "token"],
                                        environment: harness.environment, stdin: nil, directory: harness.directory, timeout: 30)
        #expect(traced.status == 0 && traced.stdout.hasPrefix("eyJ"), "\(traced)")
        let calls = try String(contentsOfFile: log, encoding: .utf8)
        #expect(calls.contains("sessions.json"), "the trace saw the run: \(calls)")
        #expect(!calls.contains("socket(") && !calls.contains(bus.directory), "\(calls)")

        let signout = try harness.run(["signout"])
        #expect(signout.status == 0, "\(signout)")
        #expect(try bus.fbauthItemCount() == 0, "signout removes the item")
    }

    /// The refresh lock is the same with the token in the keyring: twenty processes on an
    /// expiring token make one refresh, and the refreshed token is kept in the keyring.
    @Test func twentyParallelCallsOnAnExpiringTokenMakeOneRefresh() throws {
        var configuration = StandInConfiguration()
        configuration.idTokenLifetime = 120  // the saved token expires within --min-valid…
        let (bus, harness) = try Harness.onPrivateKeyring(configuration: configuration)
        let signin = try harness.signIn("yahoo.com")
        let token = try #require(signin.json.string("user", "refreshToken"), "\(signin)")
        harness.standIn.configuration.idTokenLifetime = 3600  // …and a refresh gives a full hour.
        let results = ParallelResults()
        DispatchQueue.concurrentPerform(iterations: 20) { _ in
            results.append(Result { try harness.run(["token"]) })
        }
        let runs = try results.values.map { try $0.get() }
        #expect(runs.count == 20 && runs.allSatisfy { $0.status == 0 }, "\(runs.filter { $0.status != 0 })")
        #expect(Set(runs.map(\.stdout)).count == 1, "all print the refreshed token")
        #expect(harness.standIn.requests(to: "token").count == 1)
        let items = try bus.fbauthItems().map(\.secret)
        #expect(items == [token] && !fileText(harness).contains(token))
    }

    /// No bus at all, and a bus that accepts and never answers: the file keeps the token, one
    /// notice says why, and the sign-in loses less than five seconds.
    @Test(arguments: [false, true])
    func withoutAWorkingBusTheFileKeepsItWithOneNotice(silentBus: Bool) throws {
        let harness = try harness(on: nil)
        var listener: Int32 = -1
        if silentBus {
            let path = harness.directory + "/silent-bus"
            listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
            let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
            #expect(bound == 0 && listen(listener, 8) == 0)
            harness.environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(path)"
        }
        defer { if listener >= 0 { close(listener) } }
        let started = Date()
        let signin = try harness.signIn("yahoo.com")
        let took = Date().timeIntervalSince(started)
        #expect(signin.status == 0, "\(signin)")
        // The deadline is what is tested (three seconds for the keyring); the bound is one a
        // busy two-core machine meets, and a bus waited on for ever would not.
        #expect(took < 15, "a sign-in with the stand-in takes well under two seconds; the keyring at most three more: \(took)")
        let reason = silentBus ? "the D-Bus session bus cannot be reached: the bus did not answer in time" : "no D-Bus session: DBUS_SESSION_BUS_ADDRESS is not set"
        #expect(KeyringTrustTests.masked(signin.stderr) == KeyringTrustTests.signInLines(
            "no keyring found (\(reason)): refresh tokens are kept in \(harness.sessionsPath) (0600)", harness), "\(signin.stderr)")
        let token = try #require(signin.json.string("user", "refreshToken"))
        #expect(harness.savedSessions.first?["refreshToken"] as? String == token)
        let again = try harness.signIn("yahoo.com", environment: ["FBAUTH_FAKE_BROWSER_EMAIL": "bob@example.com"])
        #expect(again.status == 0 && !again.stderr.contains("keyring"), "said once: \(again)")
    }

    @Test func aKeyringTheUserAskedForThatIsMissingIsAnErrorBeforeTheBrowser() throws {
        let harness = try harness(on: nil)
        let result = try harness.run(["--store", "keyring", "signin", "--loopback", "--provider", "yahoo.com", "--port", "0", "--timeout", "30"])
        #expect(result.status == 7, "\(result)")
        #expect(result.stderr.contains("no D-Bus session: DBUS_SESSION_BUS_ADDRESS is not set") && result.stderr.split(separator: "\n").count == 1,
                "says what is missing: \(result.stderr)")
        // Before the browser: the stand-in was asked for no authorization URL (the browser's
        // own log could be written after fbauth exits, so it proves nothing).
        #expect(harness.standIn.requests(to: "accounts:createAuthUri").isEmpty && harness.standIn.requests.isEmpty, "\(harness.standIn.requests.map(\.endpoint))")
        #expect(harness.savedSessions.isEmpty, "nothing was saved")
        let env = try harness.run(["signin", "--loopback", "--provider", "yahoo.com", "--port", "0"], environment: ["FBAUTH_STORE": "keyring"])
        #expect(env.status == 7, "\(env)")
        let bad = try harness.run(["status"], environment: ["FBAUTH_STORE": "wallet"])
        #expect(bad.status == 2 && bad.stderr.contains("FBAUTH_STORE 'wallet' must be keyring, file or none"), "\(bad)")
    }

    /// A store saved with every token in the file keeps working, and moves in on the next
    /// refresh or with `store migrate`; `store migrate --store file` moves back.
    @Test func anOldStoreMovesInOnItsNextRefreshOrAllAtOnce() throws {
        let (bus, harness) = try Harness.onPrivateKeyring()
        let first = try harness.run(["--store", "file", "signin", "--loopback", "--provider", "yahoo.com", "--port", "0"])
        let second = try harness.run(["--store", "file", "signin", "--loopback", "--provider", "microsoft.com", "--port", "0"], environment: ["FBAUTH_FAKE_BROWSER_EMAIL": "bob@example.com"])
        #expect(first.status == 0 && second.status == 0, "\(first)\n\(second)")
        // The secrets as this run printed them, checked by value (not by the stand-in's prefix).
        let ada = try #require(first.json.string("user", "refreshToken")), bob = try #require(second.json.string("user", "refreshToken"))
        #expect(!fileText(harness).contains("secretStore") && fileText(harness).contains(ada) && fileText(harness).contains(bob), "as today's fbauth saved it")
        #expect(try bus.fbauthItemCount() == 0)

        let refreshed = try harness.run(["token", "--force-refresh"])
        #expect(refreshed.status == 0 && refreshed.stderr == "refresh tokens are kept in the GNOME keyring\n", "\(refreshed)")
        #expect(try bus.fbauthItems().map(\.secret) == [bob] && !fileText(harness).contains(bob) && fileText(harness).contains(ada), "the refreshed session moved in")

        let migrated = try harness.run(["store", "migrate"])
        #expect(migrated.status == 0 && migrated.stderr == "Moved the secrets of 1 session to the keyring (1 session's were there already); new refresh tokens are kept there too.\n", "\(migrated)")
        #expect(try Set(bus.fbauthItems().map(\.secret)) == [ada, bob] && !fileText(harness).contains(ada) && !fileText(harness).contains(bob))
        #expect(try harness.run(["token", "--force-refresh"]).status == 0)

        let back = try harness.run(["store", "migrate", "--store", "file"])
        #expect(back.status == 0 && back.stderr == "Moved the secrets of 2 sessions to sessions.json; new refresh tokens are kept there too.\n", "\(back)")
        #expect(try bus.fbauthItemCount() == 0 && fileText(harness).contains(ada) && fileText(harness).contains(bob))
        #expect(fileText(harness).contains("\"secretStore\" : \"file\""))
    }

    /// An item deleted by hand, one no session uses, and a locked keyring: each is said, with
    /// the way out, in seconds.
    @Test func missingOrphanedAndLockedItemsAreReported() throws {
        let (bus, harness) = try Harness.onPrivateKeyring()
        #expect(try harness.signIn("yahoo.com").status == 0)
        try bus.secretTool(["clear", "service", "fbauth"])
        let planted = try bus.secretTool(["store", "--label=left behind", "service", "fbauth", "username", "gone-uid", "project", "test-api-key", "kind", "refresh-token"],
                                         input: "AMf-left-behind")
        #expect(planted.isEmpty, "\(planted)")
        let status = try harness.run(["status"])
        let lines = KeyringTrustTests.masked(status.stdout)
        #expect(status.status == 0 && lines.count == 6 && lines.suffix(3) == [
            "Sessions are stored in \(harness.sessionsPath); new refresh tokens are kept in the keyring",
            "The refresh token of user@example.com (uid UID) is not in the keyring (its item was deleted): sign in again with `fbauth signin --provider yahoo.com --loopback --email user@example.com`",
            "The keyring holds a refresh token no saved session uses (uid gone-uid); remove it with: secret-tool clear kind 'refresh-token' project 'test-api-key' service 'fbauth' username 'gone-uid'",
        ], "\(status.stdout)")
        let json = try harness.run(["status", "--json"]).json
        let problems = try #require(json["keyringProblems"] as? [[String: String]], "\(json)")
        #expect(Set(problems.map { "\($0["problem"] ?? "?") \($0["username"] ?? "?")" }) == ["missing \(json.string("current", "uid") ?? "?")", "orphaned gone-uid"], "\(problems)")
        let refresh = try harness.run(["token", "--force-refresh"])
        #expect(refresh.status == 3 && refresh.stderr.contains("no longer in the keyring") && refresh.stderr.split(separator: "\n").count == 1, "\(refresh)")

        // The advice, run as given, mends it: a new item, the orphan still there until cleared.
        let advice = try #require(status.stdout.firstMatch(of: /sign in again with `fbauth (signin [^`]*)`/).map { String($0.output.1) })
        let signedIn = try harness.run(advice.split(separator: " ").map(String.init) + ["--port", "0"])
        #expect(signedIn.status == 0, "\(signedIn)")
        let token = try #require(signedIn.json.string("user", "refreshToken"))
        #expect(try Set(bus.fbauthItems().map(\.secret)) == [token, "AMf-left-behind"])
        #expect(try harness.run(["token", "--force-refresh"]).status == 0)

        try bus.lockKeyring()
        let started = Date()
        let locked = try harness.run(["token", "--force-refresh"])
        #expect(locked.status == 7 && locked.stderr.contains("the keyring is locked") && locked.stderr.split(separator: "\n").count == 1, "\(locked)")
        // A locked keyring is reported, not waited on: a prompt would never end.
        #expect(Date().timeIntervalSince(started) < 15)
    }

    /// `signout --all` and `delete-account` take the items of the sessions they end.
    @Test func signoutAllAndDeleteAccountRemoveTheItems() throws {
        let (bus, harness) = try Harness.onPrivateKeyring()
        #expect(try harness.signIn("yahoo.com").status == 0)
        #expect(try harness.signIn("yahoo.com", environment: ["FBAUTH_FAKE_BROWSER_EMAIL": "bob@example.com"]).status == 0)
        #expect(try bus.fbauthItemCount() == 2)
        let all = try harness.run(["signout", "--all"])
        let left = try bus.fbauthItemCount()
        #expect(all.status == 0 && left == 0, "\(all)")

        #expect(try harness.signIn("yahoo.com").status == 0)
        let deleted = try harness.run(["delete-account", "--yes"])
        #expect(deleted.status == 0, "\(deleted)")
        #expect(try bus.fbauthItemCount() == 0)
    }
}
