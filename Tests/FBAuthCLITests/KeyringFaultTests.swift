import FBAuthStandIn
import Foundation
import TestSupport
import Testing

/// Issue 37, item 4, end to end: the real gnome-keyring killed in the middle of a refresh (the
/// refresh token read, the exchange under way), then brought back.
@Suite(.serialized, .enabled(if: PrivateBus.available && PrivateBus.secretToolAvailable,
                             "needs dbus-daemon, gnome-keyring-daemon and secret-tool (Debian: dbus-daemon, gnome-keyring, libsecret-tools)"))
struct KeyringFaultTests {
    @Test func theKeyringKilledInTheMiddleOfARefreshLosesNothing() throws {
        let (bus, harness) = try Harness.onPrivateKeyring()
        let signin = try harness.signIn("yahoo.com")
        let refreshToken = try #require(signin.json.string("user", "refreshToken"))
        #expect(signin.status == 0 && harness.savedSessions.first?["refreshToken"] as? String == "@keyring")

        let arrived = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        harness.standIn.beforeAnswering { endpoint in
            guard endpoint == "token" else { return }
            arrived.signal()
            release.wait()
        }
        let result = ParallelResults()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            result.append(Result { try harness.run(["token", "--force-refresh"]) })
            done.signal()
        }
        #expect(arrived.wait(timeout: .now() + 30) == .success, "the refresh reached the server")
        try bus.killKeyring()
        harness.standIn.beforeAnswering(nil)
        release.signal()
        #expect(done.wait(timeout: .now() + 60) == .success)
        let refreshed = try #require(result.values.first).get()

        // The refresh still succeeds: the keyring it read from is gone, so the file keeps the
        // token this time, and says so.
        #expect(refreshed.status == 0 && refreshed.stdout.hasPrefix("eyJ"), "\(refreshed)")
        #expect(KeyringTrustTests.masked(refreshed.stderr) == [
            "no Secret Service on the D-Bus session: no keyring daemon is running; the refresh token of user@example.com is kept in \(harness.sessionsPath) (0600) this time",
        ], "\(refreshed.stderr)")
        let file = try #require(harness.sessionsFile, "sessions.json parses")
        let saved = try #require((file["projects"] as? [String: Any])?.values.first as? [String: Any])
        let token = try #require((saved["sessions"] as? [[String: Any]])?.first?["refreshToken"] as? String)
        #expect(token == refreshToken, "the token is in the file: no secret is in neither place")

        try bus.startKeyring()
        let status = try harness.run(["status"])
        #expect(status.status == 0 && status.stderr.isEmpty, "\(status)")
        #expect(KeyringTrustTests.masked(status.stdout).contains("  token: valid for N min; refresh token in sessions.json"), "\(status.stdout)")
        let advice = KeyringTrustTests.masked(status.stdout).filter { $0.hasPrefix("The keyring") }
        #expect(advice.count == 1 && advice[0].hasPrefix("The keyring still holds a copy of the refresh token of user@example.com (uid UID), which sessions.json keeps now; remove it with: secret-tool clear "),
                "the item the refresh could not remove is named as what it is: \(status.stdout)")
        let again = try harness.run(["token", "--force-refresh"])
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again)")
        let items = try bus.fbauthItems().map(\.secret)
        #expect(harness.savedSessions.first?["refreshToken"] as? String == "@keyring" && items == [refreshToken],
                "back in the keyring on the next refresh, one item")
        let clean = try harness.run(["status"])
        #expect(!clean.stdout.contains("The keyring"), "\(clean)")
    }
}
