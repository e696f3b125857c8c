import Foundation
import TestSupport
import Testing

/// Issue 50, item 3: `fbauth signin --as UID [--claims JSON]`, debugging as a user: against
/// `fbauth emulator` (unsigned custom tokens, as firebase-admin mints them for an emulator)
/// the session is UID's, its ID token carries the claims and the marker; without Admin
/// credentials it is one line naming where fbauth looked.
@Suite struct ImpersonationTests {
    @Test func signingInAsAUserGivesTheirSessionMarked() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator()
        defer { emulator.interrupt(); _ = emulator.finish() }
        let shell = ["FIREBASE_AUTH_EMULATOR_HOST": host, "FIREBASE_API_KEY": "any-key"]
        let signin = try harness.run(["signin", "--as", "support-case-17", "--claims", #"{"role":"viewer","tier":2}"#], environment: shell)
        #expect(signin.status == 0, "\(signin)")
        #expect(signin.stderr.contains("Signed in as support-case-17 with a custom token minted for it (--as) on project demo-fbauth"), "\(signin.stderr)")
        #expect(signin.json.string("user", "uid") == "support-case-17")
        let token = try harness.run(["token"], environment: shell)
        let claims = try harness.run(["verify-token"], stdin: token.stdout, environment: shell)
        #expect(claims.status == 0, "\(claims)")
        #expect(claims.json["uid"] as? String == "support-case-17" && claims.json["role"] as? String == "viewer" && claims.json["tier"] as? Int == 2, "\(claims.stdout)")
        #expect(claims.json["fbauth_impersonated_by"] as? String == "firebase-auth-emulator@example.com", "\(claims.stdout)")
        #expect((claims.json["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "custom")
        // The refresh keeps the claims (they are the session's).
        let refreshed = try harness.run(["token", "--force-refresh"], environment: shell)
        let again = try harness.run(["verify-token"], stdin: refreshed.stdout, environment: shell)
        #expect(again.json["fbauth_impersonated_by"] as? String == "firebase-auth-emulator@example.com" && again.json["role"] as? String == "viewer", "\(again)")
    }

    @Test func withoutAdminCredentialsOrWithBadOptionsItIsOneLine() throws {
        let harness = try Harness()
        // Production (no emulator) and no credentials anywhere: refused before any request.
        let production = ["FIREBASE_AUTH_EMULATOR_HOST": "", "GOOGLE_APPLICATION_CREDENTIALS": ""]
        let none = try harness.run(["signin", "--as", "u1"], environment: production)
        #expect(none.status == 1 && none.stdout.isEmpty, "\(none)")
        #expect(none.stderr == "fbauth: Signing in as another user needs the Admin API's credentials, and none were found: no GOOGLE_APPLICATION_CREDENTIALS, no gcloud application default credentials (\(harness.directory)/.config/gcloud/application_default_credentials.json), and no metadata server (not on Google's clouds): set GOOGLE_APPLICATION_CREDENTIALS to a service account's key file, or run `gcloud auth application-default login`.\n", "\(none)")
        #expect(harness.standIn.requests.isEmpty, "nothing was asked of Firebase")
        for (arguments, message) in [
            (["--as", "u1", "--provider", "yahoo.com"], "--as signs in as one of the project's users and takes no --provider"),
            (["--as", "u1", "--claims", "[1]"], #"--claims must be a JSON object of at most 1000 characters, such as '{"admin":true}'"#),
            (["--as", "u1", "--claims", #"{"iss":"x"}"#], #"--claims may not set "iss": it is reserved"#),
            (["--as", "u1", "--claims", #"{"fbauth_impersonated_by":"me"}"#], #"--claims may not set "fbauth_impersonated_by": it is reserved"#),
            (["--provider", "anonymous", "--claims", "{}"], "--claims goes with --as UID"),
            (["--as", String(repeating: "u", count: 129)], "--as '\(String(repeating: "u", count: 40))' is not a uid: \(Self.uidRule)"),
            // Issue 56, item 5: 65 emoji are 65 characters but 130 UTF-16 units, which
            // firebase-admin's createCustomToken refuses; a bidi control makes a uid read as another.
            (["--as", String(repeating: "😀", count: 65)], "--as '\(String(repeating: "😀", count: 40))' is not a uid: \(Self.uidRule)"),
            (["--as", "admin\u{202E}resu"], "--as 'admin<U+202E>resu' is not a uid: \(Self.uidRule)"),
            (["--as", "u1", "--loopback"], "--loopback does not apply to --as"),
        ] {
            let result = try harness.run(["signin"] + arguments)
            #expect(result.status == 2 && result.stderr == "fbauth: \(message)\n", "\(arguments): \(result)")
        }
        // The control: 64 emoji are 128 units, a uid Firebase takes (refused later, for want of credentials).
        let fits = try harness.run(["signin", "--as", String(repeating: "😀", count: 64)], environment: production)
        #expect(fits.status == 1 && fits.stderr.contains("needs the Admin API's credentials"), "\(fits)")
    }

    static let uidRule = "1 to 128 characters (UTF-16 units, as Firebase counts), no control or bidirectional formatting characters"
}
