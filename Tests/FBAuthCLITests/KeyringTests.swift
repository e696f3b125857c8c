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
        #expect(token.hasPrefix("AMf-"), "the sign-in's output still gives the token")
        #expect(!fileText(harness).contains(token) && harness.savedSessions.first?["refreshToken"] as? String == "@keyring")
        let listed = try bus.secretTool(["search", "--all", "service", "fbauth"])
        #expect(try bus.fbauthItemCount() == 1 && listed.contains("secret = \(token)"), "\(listed)")
        #expect(listed.contains("label = fbauth refresh token for ") && listed.contains("attribute.kind = refresh-token"), "\(listed)")

        let refreshed = try harness.run(["token", "--force-refresh"])
        #expect(refreshed.status == 0 && refreshed.stderr.isEmpty, "\(refreshed)")
        #expect(harness.standIn.requests(to: "token").last?.body.contains(token) == true, "the keyring's token was sent")
        let items = try bus.fbauthItemCount()
        #expect(!fileText(harness).contains("AMf-") && items == 1)

        let status = try harness.run(["status"])
        #expect(status.stdout.contains("refresh token in the keyring") && status.stdout.contains("new refresh tokens are kept in the keyring"), "\(status)")

        // A fresh token is read from the file alone: no socket is even opened.
        if let strace = ["/usr/bin/strace", "/bin/strace"].first(where: FileManager.default.isExecutableFile(atPath:)) {
            let log = harness.directory + "/strace.log"
            let traced = try Subprocess.run(URL(fileURLWithPath: strace), ["-f", "-e", "trace=socket,connect", "-o", log, Binaries.url("fbauth").path, "token"],
                                            environment: harness.environment, stdin: nil, directory: harness.directory, timeout: 30)
            #expect(traced.status == 0 && traced.stdout.hasPrefix("eyJ"), "\(traced)")
            let calls = (try? String(contentsOfFile: log, encoding: .utf8)) ?? "not traced"
            #expect(!calls.contains("socket(") && !calls.contains(bus.directory), "\(calls)")
        }

        let signout = try harness.run(["signout"])
        #expect(signout.status == 0, "\(signout)")
        #expect(try bus.fbauthItemCount() == 0, "signout removes the item")
    }

    /// The refresh lock is the same with the token in the keyring: twenty processes on an
    /// expiring token make one refresh, and the refreshed token is kept in the keyring.
    @Test func twentyParallelCallsOnAnExpiringTokenMakeOneRefresh() throws {
        let bus = try PrivateBus()
        try bus.startKeyring()
        var configuration = StandInConfiguration()
        configuration.idTokenLifetime = 120  // the saved token expires within --min-valid…
        let harness = try Harness(configuration: configuration)
        harness.environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        #expect(try harness.signIn("yahoo.com").status == 0)
        harness.standIn.configuration.idTokenLifetime = 3600  // …and a refresh gives a full hour.
        let results = ParallelResults()
        DispatchQueue.concurrentPerform(iterations: 20) { _ in
            results.append(Result { try harness.run(["token"]) })
        }
        let runs = try results.values.map { try $0.get() }
        #expect(runs.count == 20 && runs.allSatisfy { $0.status == 0 }, "\(runs.filter { $0.status != 0 })")
        #expect(Set(runs.map(\.stdout)).count == 1, "all print the refreshed token")
        #expect(harness.standIn.requests(to: "token").count == 1)
        let items = try bus.fbauthItemCount()
        #expect(items == 1 && !fileText(harness).contains("AMf-"))
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
        #expect(took < 5 + 2, "a sign-in with the stand-in takes well under two seconds; the keyring at most five more: \(took)")
        let notice = silentBus ? "no keyring found (the D-Bus session bus " : "no keyring found (no D-Bus session: DBUS_SESSION_BUS_ADDRESS is not set): refresh tokens are kept in \(harness.sessionsPath) (0600)"
        #expect(signin.stderr.components(separatedBy: notice).count == 2, "\(signin.stderr)")
        let token = try #require(signin.json.string("user", "refreshToken"))
        #expect(fileText(harness).contains(token))
        let again = try harness.signIn("yahoo.com", environment: ["FBAUTH_FAKE_BROWSER_EMAIL": "bob@example.com"])
        #expect(again.status == 0 && !again.stderr.contains("keyring"), "said once: \(again)")
    }

    @Test func aKeyringTheUserAskedForThatIsMissingIsAnErrorBeforeTheBrowser() throws {
        let harness = try harness(on: nil)
        let result = try harness.run(["--store", "keyring", "signin", "--loopback", "--provider", "yahoo.com", "--port", "0", "--timeout", "30"])
        #expect(result.status == 7, "\(result)")
        #expect(result.stderr.contains("no D-Bus session: DBUS_SESSION_BUS_ADDRESS is not set"), "says what is missing: \(result.stderr)")
        #expect(harness.browserPages.isEmpty && harness.savedSessions.isEmpty, "nothing was started or saved")
        let env = try harness.run(["signin", "--loopback", "--provider", "yahoo.com", "--port", "0"], environment: ["FBAUTH_STORE": "keyring"])
        #expect(env.status == 7, "\(env)")
        let bad = try harness.run(["status"], environment: ["FBAUTH_STORE": "wallet"])
        #expect(bad.status == 2 && bad.stderr.contains("FBAUTH_STORE 'wallet' must be keyring or file"), "\(bad)")
    }

    /// A store saved with every token in the file keeps working, and moves in on the next
    /// refresh or with `store migrate`; `store migrate --store file` moves back.
    @Test func anOldStoreMovesInOnItsNextRefreshOrAllAtOnce() throws {
        let (bus, harness) = try Harness.onPrivateKeyring()
        let first = try harness.run(["--store", "file", "signin", "--loopback", "--provider", "yahoo.com", "--port", "0"])
        let second = try harness.run(["--store", "file", "signin", "--loopback", "--provider", "microsoft.com", "--port", "0"], environment: ["FBAUTH_FAKE_BROWSER_EMAIL": "bob@example.com"])
        #expect(first.status == 0 && second.status == 0, "\(first)\n\(second)")
        #expect(!fileText(harness).contains("secretStore") && fileText(harness).components(separatedBy: "AMf-").count == 3, "as today's fbauth saved it")
        #expect(try bus.fbauthItemCount() == 0)

        let refreshed = try harness.run(["token", "--force-refresh"])
        #expect(refreshed.status == 0 && refreshed.stderr.contains("refresh tokens are kept in the GNOME keyring"), "\(refreshed)")
        #expect(try bus.fbauthItemCount() == 1 && fileText(harness).components(separatedBy: "AMf-").count == 2, "the refreshed session moved in")

        let migrated = try harness.run(["store", "migrate"])
        #expect(migrated.status == 0 && migrated.stderr.contains("Moved the secrets of 1 session to the keyring"), "\(migrated)")
        #expect(try bus.fbauthItemCount() == 2 && !fileText(harness).contains("AMf-"))
        #expect(try harness.run(["token", "--force-refresh"]).status == 0)

        let back = try harness.run(["store", "migrate", "--store", "file"])
        #expect(back.status == 0 && back.stderr.contains("Moved the secrets of 2 sessions to sessions.json"), "\(back)")
        #expect(try bus.fbauthItemCount() == 0 && fileText(harness).components(separatedBy: "AMf-").count == 3)
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
        #expect(status.stdout.contains("is not in the keyring (its item was deleted): sign in again with `fbauth signin"), "\(status)")
        #expect(status.stdout.contains("The keyring holds a refresh token no saved session uses (uid gone-uid); remove it with: secret-tool clear kind 'refresh-token' project 'test-api-key' service 'fbauth' username 'gone-uid'"), "\(status)")
        let refresh = try harness.run(["token", "--force-refresh"])
        #expect(refresh.status == 3 && refresh.stderr.contains("no longer in the keyring"), "\(refresh)")

        #expect(try harness.signIn("yahoo.com").status == 0, "signing in again mends it")
        try bus.lockKeyring()
        let started = Date()
        let locked = try harness.run(["token", "--force-refresh"])
        #expect(locked.status == 7 && locked.stderr.contains("the keyring is locked"), "\(locked)")
        #expect(Date().timeIntervalSince(started) < 5)
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
