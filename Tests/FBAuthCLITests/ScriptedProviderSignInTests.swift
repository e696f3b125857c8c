import Foundation
import TestSupport
import Testing

/// Issue 60, item 3: a provider sign-in in one line against `fbauth emulator --auto-consent`,
/// with no browser at all (fbauth follows the fake provider's redirect to its own listener),
/// and, where the emulator waits for a click, the exit-4 advice that names the way.
@Suite struct ScriptedProviderSignInTests {
    static let noBrowser = ["BROWSER": "", "DISPLAY": "", "WAYLAND_DISPLAY": ""]

    @Test func anAutoConsentingEmulatorNeedsNoBrowser() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator(["--auto-consent", "ci-bot@example.com"])
        defer { emulator.interrupt(); _ = emulator.finish() }
        let run = try harness.run(["signin", "--provider", "yahoo.com"], environment: Self.noBrowser.merging(["FIREBASE_AUTH_EMULATOR_HOST": host]) { $1 })
        #expect(run.status == 0 && run.json[path: "user", "email"] as? String == "ci-bot@example.com", "\(run)")
        #expect(run.stderr.contains("consented at once, and its redirect was followed") && run.stderr.contains("Signed in as ci-bot@example.com with yahoo.com"), "\(run.stderr)")
        #expect(try harness.run(["whoami"], environment: ["FIREBASE_AUTH_EMULATOR_HOST": host]).json["email"] as? String == "ci-bot@example.com")
    }

    /// Fake claims in a provider token file sign in at an emulator for every provider, Yahoo's
    /// and Microsoft's too, as Google's emulator takes them; a real token of theirs is still
    /// refused before anything is sent (production takes none).
    @Test func fakeClaimsAreTakenForEveryProviderAtAnEmulator() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator([])
        defer { emulator.interrupt(); _ = emulator.finish() }
        let environment = Self.noBrowser.merging(["FIREBASE_AUTH_EMULATOR_HOST": host]) { $1 }
        for (provider, email) in [("yahoo.com", "y@example.com"), ("microsoft.com", "m@example.com")] {
            let claims = #"{"sub": "\#(provider)-1", "email": "\#(email)", "email_verified": true}"#
            let run = try harness.run(["signin", "--provider", provider, "--id-token-file", "-"], stdin: claims + "\n", environment: environment)
            #expect(run.status == 0 && run.json[path: "user", "email"] as? String == email, "\(provider): \(run)")
        }
        let signed = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ5In0.c2lnbmF0dXJl"
        let real = try harness.run(["signin", "--provider", "yahoo.com", "--id-token-file", "-"], stdin: signed + "\n", environment: environment)
        #expect(real.status == 2 && real.stderr.contains("Firebase does not accept Yahoo tokens"), "\(real)")
    }

    @Test func anEmulatorThatWaitsForAClickIsAdvisedAtOnce() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator([])
        defer { emulator.interrupt(); _ = emulator.finish() }
        let run = try harness.run(["signin", "--provider", "yahoo.com"], environment: Self.noBrowser.merging(["FIREBASE_AUTH_EMULATOR_HOST": host]) { $1 })
        #expect(run.status == 4 && run.stderr.contains("start it with --auto-consent EMAIL and this sign-in needs no browser at all"), "\(run)")
    }
}
