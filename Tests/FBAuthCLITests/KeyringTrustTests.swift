import FBAuthStandIn
import Foundation
import TestSupport
import Testing

/// Issue 37, items 1 and 2, end to end: a bus or a keyring of another user gets no secret,
/// and items the keyring rewrote are still the sessions' own.
@Suite(.serialized, .enabled(if: PrivateBus.available && PrivateBus.secretToolAvailable,
                             "needs dbus-daemon, gnome-keyring-daemon and secret-tool (Debian: dbus-daemon, gnome-keyring, libsecret-tools)"))
struct KeyringTrustTests {
    static let asRoot = geteuid() == 0

    /// `DBUS_SESSION_BUS_ADDRESS` outlived its bus, and another user bound it with a bus open to
    /// everyone and a gnome-keyring: fbauth keeps the token in the file and says why in one
    /// line; the other user's keyring gets nothing; `--store keyring` is exit 7 before any
    /// sign-in starts.
    @Test(.enabled(if: asRoot, "needs root: the bus runs as a second user, which only root can create"), arguments: [false, true])
    func anotherUsersBusGetsNoSecret(abstract: Bool) throws {
        let other = try OtherUser.ensure()
        let bus = try PrivateBus(owner: .init(uid: other.uid, gid: other.gid), abstract: abstract, openToEveryUser: true)
        try bus.startKeyring()
        let harness = try Harness()
        harness.environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        let signin = try harness.signIn("yahoo.com")
        #expect(signin.status == 0, "\(signin)")
        let socket = abstract ? "@" + bus.address.dropFirst("unix:abstract=".count) : bus.address.dropFirst("unix:path=".count)
        #expect(Self.masked(signin.stderr) == Self.signInLines(
            "no keyring found (the D-Bus session bus at \(socket) is run by another user (uid \(other.uid)), not by you): refresh tokens are kept in \(harness.sessionsPath) (0600)",
            harness), "\(signin.stderr)")
        let token = try #require(signin.json.string("user", "refreshToken"))
        #expect(harness.savedSessions.first?["refreshToken"] as? String == token)
        #expect(try bus.fbauthItemCount() == 0, "nothing reached the other user's keyring")

        let before = harness.standIn.requests.count
        let chosen = try harness.run(["--store", "keyring", "signin", "--loopback", "--provider", "yahoo.com", "--port", "0", "--timeout", "30"])
        #expect(chosen.status == 7 && chosen.stderr.contains("is run by another user (uid \(other.uid))"), "\(chosen)")
        #expect(harness.standIn.requests.count == before, "refused before any request: \(harness.standIn.requests.dropFirst(before).map(\.endpoint))")
        #expect(try bus.fbauthItemCount() == 0)
    }

    /// The user's own bus, with the Secret Service's name taken by another user's keyring:
    /// the bus is the user's, the keyring is not.
    @Test(.enabled(if: asRoot, "needs root: the keyring runs as a second user, which only root can create"))
    func anotherUsersSecretServiceOnTheUsersBusGetsNoSecret() throws {
        let other = try OtherUser.ensure()
        let bus = try PrivateBus(openToEveryUser: true)
        try bus.startKeyring(as: .init(uid: other.uid, gid: other.gid))
        let harness = try Harness()
        harness.environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        let signin = try harness.signIn("yahoo.com")
        #expect(signin.status == 0, "\(signin)")
        #expect(Self.masked(signin.stderr) == Self.signInLines(
            "no keyring found (the Secret Service on the D-Bus session bus is run by another user (uid \(other.uid)), not by you): refresh tokens are kept in \(harness.sessionsPath) (0600)",
            harness), "\(signin.stderr)")
        #expect(harness.savedSessions.first?["refreshToken"] as? String == signin.json.string("user", "refreshToken"))
    }

    /// After a restart gnome-keyring names `xdg:schema` on fbauth's items, and an item
    /// rewritten through libsecret carries it too: status has no problem to report, and every
    /// session refreshes from its item.
    @Test func itemsTheKeyringRewroteAreStillTheSessions() throws {
        let (bus, harness) = try Harness.onPrivateKeyring()
        let ada = try harness.signIn("yahoo.com")
        let bob = try harness.signIn("microsoft.com", environment: ["FBAUTH_FAKE_BROWSER_EMAIL": "bob@example.com"])
        #expect(ada.status == 0 && bob.status == 0, "\(ada)\n\(bob)")
        // Bob's item rewritten through libsecret, as another client or a migration tool would.
        let bobs = try #require(try bus.fbauthItems().first { $0.label.contains("bob@example.com") })
        try bus.secretTool(["store", "--label=\(bobs.label)"] + bobs.attributes.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }, input: bobs.secret)
        try bus.killKeyring()
        try bus.startKeyring()
        let items = try bus.fbauthItems()
        #expect(items.count == 2 && items.allSatisfy { $0.attributes["xdg:schema"] != nil }, "\(items)")

        let status = try harness.run(["status"])
        #expect(status.status == 0 && status.stderr.isEmpty, "\(status)")
        #expect(Self.masked(status.stdout) == [
            "Signed in as bob@example.com (uid UID) on fbauth-stand-in (key …pi-key, emulator HOST)",
            "  providers: microsoft.com",
            "  token: valid for N min; refresh token in the keyring",
            "Other saved sessions:",
            "  user@example.com (uid UID) on fbauth-stand-in (key …pi-key, emulator HOST): yahoo.com; token valid for N min, refresh token in the keyring",
            "Sessions are stored in \(harness.sessionsPath); new refresh tokens are kept in the keyring",
        ], "\(status.stdout)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try harness.run(["status", "--json"]).stdout.utf8)) as? [String: Any])
        #expect((json["keyringProblems"] as? [Any])?.isEmpty == true, "\(json)")
        for user in ["user@example.com", "bob@example.com"] {
            let refreshed = try harness.run(["use", user])
            let token = try harness.run(["token", "--force-refresh"])
            #expect(refreshed.status == 0 && token.status == 0 && token.stdout.hasPrefix("eyJ") && token.stderr.isEmpty, "\(user): \(token)")
        }
        #expect(try bus.fbauthItemCount() == 2)
    }

    /// The advice status gives for an orphan, run as given, removes the orphan alone: every
    /// session still refreshes, and its item is still there.
    @Test func theOrphansClearCommandTakesTheOrphanAlone() throws {
        let (bus, harness) = try Harness.onPrivateKeyring()
        #expect(try harness.signIn("yahoo.com").status == 0)
        try bus.secretTool(["store", "--label=left behind", "service", "fbauth", "username", "gone-uid", "project", "test-api-key", "kind", "refresh-token"],
                           input: "left-behind")
        let status = try harness.run(["status"])
        let advice = try #require(status.stdout.split(separator: "\n").first { $0.contains("secret-tool clear") }, "\(status)")
        #expect(Self.masked(status.stdout) == [
            "Signed in as user@example.com (uid UID) on fbauth-stand-in (key …pi-key, emulator HOST)",
            "  providers: yahoo.com",
            "  token: valid for N min; refresh token in the keyring",
            "Sessions are stored in \(harness.sessionsPath); new refresh tokens are kept in the keyring",
            "The keyring holds a refresh token no saved session uses (uid gone-uid); remove it with: secret-tool clear kind 'refresh-token' project 'test-api-key' service 'fbauth' username 'gone-uid'",
        ], "no other problem: \(status.stdout)")
        let command = String(advice[advice.range(of: "secret-tool ")!.upperBound...])
        let arguments = try Self.shellWords(command)
        try bus.secretTool(arguments)
        #expect(try bus.fbauthItems().map(\.secret) != ["left-behind"] && bus.fbauthItemCount() == 1)
        let refreshed = try harness.run(["token", "--force-refresh"])
        #expect(refreshed.status == 0 && refreshed.stderr.isEmpty, "\(refreshed)")
        let after = try harness.run(["status"])
        #expect(!after.stdout.contains("keyring holds") && !after.stdout.contains("not in the keyring"), "\(after)")
    }

    /// What a loopback sign-in says on stderr, with `notice` where the store's notice goes.
    static func signInLines(_ notice: String, _ harness: Harness) -> [String] {
        ["Sign in with yahoo.com in your browser. If it does not open, visit:", "  http://localhost:PORT/start?n=NONCE", notice,
         "Signed in as user@example.com with yahoo.com on project fbauth-stand-in (emulator HOST); the session is saved in \(harness.sessionsPath)."]
    }

    /// Lines with what changes from run to run masked: times, uids, ports, nonces.
    static func masked(_ text: String) -> [String] {
        text.split(separator: "\n").map { line in
            String(line).replacing(/127\.0\.0\.1:\d+/, with: "HOST").replacing(/localhost:\d+\/start\?n=[0-9a-f]+/, with: "localhost:PORT/start?n=NONCE")
                .replacing(/\(uid [A-Za-z0-9]{20,}\)/, with: "(uid UID)").replacing(/valid for \d+ min/, with: "valid for N min")
        }.map { line in
            String(line).replacing(/\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d)?(Z|[+-]\d\d:?\d\d| UTC)?|(in|about) \d+ (minutes?|seconds?|hours?)( ago)?|\d+ (minutes?|seconds?|hours?) ago|just now/, with: "TIME")
        }
    }

    /// The words of a shell command line that uses single quotes (as fbauth's advice does).
    static func shellWords(_ line: String) throws -> [String] {
        var words: [String] = [], current = "", quoted = false, inWord = false
        for character in line {
            if quoted {
                if character == "'" { quoted = false } else { current.append(character) }
            } else if character == "'" {
                quoted = true
                inWord = true
            } else if character == " " {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
