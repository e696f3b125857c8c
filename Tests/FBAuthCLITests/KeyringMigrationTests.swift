import FBAuthStandIn
import Foundation
import TestSupport
import Testing

/// Issue 37, item 3: `store migrate` moves every kind of secret both ways and leaves no item
/// behind; what it cannot move it names, exiting non-zero; in file mode `status` names items
/// left in a reachable keyring.
@Suite(.serialized, .enabled(if: PrivateBus.available && PrivateBus.secretToolAvailable,
                             "needs dbus-daemon, gnome-keyring-daemon and secret-tool (Debian: dbus-daemon, gnome-keyring, libsecret-tools)"))
struct KeyringMigrationTests {
    /// Sessions with a refresh token, an X token secret, an Apple access token and an
    /// anonymous user, and a pending provider credential: six secrets in five items' worth of
    /// sessions, all saved to the file first.
    func everyKindOfSecret(_ harness: Harness) throws {
        harness.standIn.createPasswordUser(email: "pat@example.com", password: "correct horse")
        let runs = [
            try harness.run(["--store", "file", "signin", "--loopback", "--provider", "yahoo.com", "--port", "0"]),
            try harness.run(["--store", "file", "signin", "--loopback", "--provider", "twitter.com", "--port", "0"], environment: ["FBAUTH_FAKE_BROWSER_EMAIL": "tw@example.com"]),
            try harness.run(["--store", "file", "signin", "--loopback", "--provider", "apple.com", "--port", "0"], environment: ["FBAUTH_FAKE_BROWSER_EMAIL": "ap@example.com"]),
            try harness.run(["--store", "file", "signin", "--provider", "anonymous"]),
        ]
        #expect(runs.allSatisfy { $0.status == 0 }, "\(runs)")
        let pending = try harness.run(["--store", "file", "signin", "--loopback", "--provider", "microsoft.com", "--port", "0", "--email", "pat@example.com"])
        #expect(pending.status == 5, "\(pending)")
    }

    @Test func everySecretMovesInAndOutAndNothingStaysBehind() throws {
        let (bus, harness) = try Harness.onPrivateKeyring()
        try everyKindOfSecret(harness)
        let fileBefore = try String(contentsOfFile: harness.sessionsPath, encoding: .utf8)
        #expect(try bus.fbauthItemCount() == 0)

        let moveIn = try harness.run(["store", "migrate"])
        #expect(moveIn.status == 0, "\(moveIn)")
        #expect(moveIn.stderr == "Moved the secrets of 4 sessions and 1 pending credential to the keyring; new refresh tokens are kept there too.\n", "\(moveIn.stderr)")
        let kinds = try bus.fbauthItems().map { $0.attributes["kind"] ?? "" }.sorted()
        #expect(kinds == ["apple-access-token", "pending-credential", "refresh-token", "refresh-token", "refresh-token", "refresh-token", "token-secret"], "\(kinds)")
        let fileIn = try String(contentsOfFile: harness.sessionsPath, encoding: .utf8)
        for secret in try bus.fbauthItems().map(\.secret) where secret != "@keyring" {
            for part in Self.secretParts(secret) { #expect(!fileIn.contains(part), "moved out of the file: \(part)") }
        }

        let again = try harness.run(["store", "migrate"])
        #expect(again.status == 0 && again.stderr == "Moved the secrets of 0 sessions to the keyring (4 sessions' were there already); new refresh tokens are kept there too.\n", "\(again)")

        let moveOut = try harness.run(["store", "migrate", "--store", "file"])
        #expect(moveOut.status == 0, "\(moveOut)")
        #expect(moveOut.stderr == "Moved the secrets of 4 sessions and 1 pending credential to sessions.json; new refresh tokens are kept there too.\n", "\(moveOut.stderr)")
        #expect(try bus.fbauthItemCount() == 0, "no item stays behind")
        let fileOut = try String(contentsOfFile: harness.sessionsPath, encoding: .utf8)
        #expect(!fileOut.contains("@keyring"), "\(fileOut)")
        for token in Self.tokens(in: fileBefore) { #expect(fileOut.contains(token), "back in the file: \(token.prefix(12))…") }

        for user in ["user@example.com", "tw@example.com", "ap@example.com"] {
            #expect(try harness.run(["use", user]).status == 0)
            let refreshed = try harness.run(["token", "--force-refresh"])
            #expect(refreshed.status == 0 && refreshed.stderr.isEmpty, "\(user): \(refreshed)")
        }
        #expect(try harness.run(["signin", "--provider", "password", "--email", "pat@example.com"], stdin: "correct horse\n").status == 0)
        let linked = try harness.run(["link", "--pending"])
        #expect(linked.status == 0, "the pending credential came back whole: \(linked)")
    }

    /// A migration to the file that finds items of its sessions left in the keyring (by a
    /// sign-out or migration cut short) takes them too; in file mode, status names what is
    /// left, and its command removes it.
    @Test func leftoversAreTakenByMigrationAndNamedByStatus() throws {
        let (bus, harness) = try Harness.onPrivateKeyring()
        #expect(try harness.signIn("yahoo.com").status == 0)
        let item = try #require(try bus.fbauthItems().first)
        #expect(try harness.run(["store", "migrate", "--store", "file"]).status == 0)
        // As if the item's deletion had been cut short: the same item again.
        try bus.secretTool(["store", "--label=\(item.label)"] + item.attributes.filter { $0.key != "xdg:schema" }.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] },
                           input: item.secret)
        let status = try harness.run(["status"])
        let lines = KeyringTrustTests.masked(status.stdout)
        let key = try #require(item.attributes["project"]), uid = try #require(item.attributes["username"])
        #expect(status.status == 0 && status.stdout.split(separator: "\n").last == "The keyring still holds a copy of the refresh token of user@example.com (uid \(uid)), which sessions.json keeps now; remove it with: secret-tool clear kind 'refresh-token' project '\(key)' service 'fbauth' username '\(uid)'", "\(status.stdout)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try harness.run(["status", "--json"]).stdout.utf8)) as? [String: Any])
        #expect(json["keyringProblems"] as? [[String: String]] == [["problem": "leftover", "kind": "refresh-token", "project": key, "service": "fbauth", "username": uid]], "\(json)")
        #expect(lines.dropLast().last == "Sessions are stored in \(harness.sessionsPath); new refresh tokens are kept in sessions.json")

        let again = try harness.run(["store", "migrate", "--store", "file"])
        let left = try bus.fbauthItemCount()
        #expect(again.status == 0 && left == 0, "\(again)")
        let clean = try harness.run(["status"])
        #expect(!clean.stdout.contains("keyring holds") && clean.stderr.isEmpty, "\(clean)")
        #expect(try harness.run(["token", "--force-refresh"]).status == 0)
    }

    /// A migration whose keyring goes away midway names what it could not move, exits
    /// non-zero, and leaves every session usable.
    @Test func aMigrationThatCannotFinishSaysWhatAndLosesNothing() throws {
        let (bus, harness) = try Harness.onPrivateKeyring()
        #expect(try harness.signIn("yahoo.com").status == 0)
        try bus.killKeyring()
        let out = try harness.run(["store", "migrate", "--store", "file"])
        #expect(out.status == 7 && out.stderr.split(separator: "\n").count == 1
            && out.stderr.contains("no Secret Service on the D-Bus session"), "\(out)")
        #expect(harness.savedSessions.first?["refreshToken"] as? String == "@keyring", "the file is as it was")
        try bus.startKeyring()
        #expect(try harness.run(["token", "--force-refresh"]).status == 0)
    }

    /// The pieces of a secret as the file would hold them (a pending credential's item is JSON).
    static func secretParts(_ secret: String) -> [String] {
        guard secret.hasPrefix("{"), let object = try? JSONSerialization.jsonObject(with: Data(secret.utf8)) as? [String: String] else { return [secret] }
        return Array(object.values)
    }

    /// Every token-like value of a sessions file (refresh tokens, secrets, access tokens).
    static func tokens(in file: String) -> [String] {
        file.matches(of: /"(refreshToken|secret|accessToken|pendingToken)" : "([^"@][^"]*)"/).map { String($0.output.2) }
    }
}
