import FBAuthStandIn
import Foundation
import TestSupport
import Testing

/// Issue 38, item 7: the stand-in takes only the project's keys, as production does, so the
/// paths that depend on the key (refresh, status, use) meet a wrong and a rotated key. A
/// session belongs to the key it signed in with (a wrong key finds none, and touches nothing).
@Suite struct APIKeyTests {
    static let key = "AIzaSyFirstKey-0123456789abcdefghijklm"
    static let rotated = "AIzaSySecondKey-0123456789abcdefghijk"
    static let wrong = "AIzaSyWrongKey-0123456789abcdefghijklmn"

    func signedIn() throws -> Harness {
        var configuration = StandInConfiguration()
        configuration.validAPIKeys = [Self.key]
        let harness = try Harness(configuration: configuration)
        harness.environment["FIREBASE_API_KEY"] = Self.key
        #expect(try harness.signIn("yahoo.com").status == 0)
        return harness
    }

    /// Masks the emulator's port and uids.
    func lines(_ text: String, _ harness: Harness) -> [String] {
        text.split(separator: "\n").map { String($0).replacing(harness.standIn.hostAndPort, with: "HOST").replacing(/\(uid [A-Za-z0-9]{20,}\)/, with: "(uid UID)")
            .replacing(/use [A-Za-z0-9]{20,}/, with: "use UID").replacing(Binaries.url("fbauth").path, with: "fbauth") }
    }

    @Test func aWrongKeyFindsNoSessionAndSendsNothing() throws {
        let harness = try signedIn()
        let before = harness.standIn.requests.count
        let file = try String(contentsOfFile: harness.sessionsPath, encoding: .utf8)
        let refresh = try harness.run(["token", "--force-refresh"], environment: ["FIREBASE_API_KEY": Self.wrong])
        #expect(refresh.status == 3 && refresh.stdout.isEmpty && lines(refresh.stderr, harness) == [
            "fbauth: not signed in to the project of API key …ijklmn (emulator HOST); sign in first (run `fbauth signin --provider ID`)",
        ], "\(refresh)")
        let status = try harness.run(["status"], environment: ["FIREBASE_API_KEY": Self.wrong])
        #expect(status.status == 3 && lines(status.stdout, harness) == [
            "Not signed in to the project of API key …ijklmn (emulator HOST).",
            "Other saved sessions:",
            "  user@example.com (uid UID) on fbauth-stand-in (key …hijklm, emulator HOST): yahoo.com; token valid for 59 min, refresh token in sessions.json",
            "Sessions are stored in \(harness.sessionsPath); new refresh tokens are kept in sessions.json",
        ], "\(status)")
        let use = try harness.run(["use", "user@example.com"], environment: ["FIREBASE_API_KEY": Self.wrong])
        #expect(use.status == 3 && lines(use.stderr, harness).first?.hasPrefix("fbauth: no saved session for 'user@example.com' on the project of API key …ijklmn (emulator HOST); it is saved elsewhere: `FIREBASE_AUTH_EMULATOR_HOST=HOST fbauth --project fbauth-stand-in use UID`") == true, "\(use)")
        #expect(harness.standIn.requests.count == before, "nothing was sent with the wrong key")
        #expect(try String(contentsOfFile: harness.sessionsPath, encoding: .utf8) == file, "nothing was written")
    }

    /// The project rotated its key: a refresh with the old one is refused in words that say
    /// which key and where to find the new one; the session is kept (its refresh token is
    /// still good), and the saved ID token is still given while it lasts.
    @Test func aRotatedKeyIsRefusedInWordsAndKeepsTheSession() throws {
        let harness = try signedIn()
        harness.standIn.configuration.validAPIKeys = [Self.rotated]
        let refresh = try harness.run(["token", "--force-refresh"])
        #expect(refresh.status == 1 && refresh.stdout.isEmpty && refresh.stderr
            == "fbauth: token refresh failed: the API key is not valid (Firebase console → Project settings → General → Web API key)\n", "\(refresh)")
        #expect(harness.savedSessions.count == 1 && (harness.savedSessions.first?["refreshToken"] as? String)?.isEmpty == false, "the session is kept")
        let cached = try harness.run(["token"])
        #expect(cached.status == 0 && cached.stdout.hasPrefix("eyJ") && cached.stderr.isEmpty, "\(cached)")
        let status = try harness.run(["status"])
        #expect(status.status == 0 && lines(status.stdout, harness).first == "Signed in as user@example.com (uid UID) on fbauth-stand-in (key …hijklm, emulator HOST)", "\(status)")
    }
}
