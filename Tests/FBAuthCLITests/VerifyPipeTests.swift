import Foundation
import TestSupport
import Testing

/// Issue 50, item 1: the first pipe a user tries, `fbauth token | fbauth verify-token`, run by a
/// shell exactly so after a sign-in against `fbauth emulator`: the project comes from the saved
/// session, whether the shell still names the API key or not.
@Suite struct VerifyPipeTests {
    @Test(arguments: [true, false])
    func tokenPipedIntoVerifyTokenNeedsNoProject(apiKeyInTheShell: Bool) throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator(["--project", "demo-pipe"])
        defer { emulator.interrupt(); _ = emulator.finish() }
        var shell = harness.environment.merging(["FIREBASE_AUTH_EMULATOR_HOST": host, "FIREBASE_API_KEY": "any-key"]) { $1 }
        shell["GOOGLE_CLOUD_PROJECT"] = nil
        shell["GCLOUD_PROJECT"] = nil
        let signin = try Subprocess.run(Binaries.url("fbauth"), ["signin", "--provider", "anonymous"], environment: shell, stdin: nil,
                                        directory: harness.directory, timeout: 60)
        #expect(signin.status == 0, "\(signin)")
        if !apiKeyInTheShell { shell["FIREBASE_API_KEY"] = nil }
        shell["FBAUTH"] = Binaries.url("fbauth").path
        let piped = try Subprocess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", #""$FBAUTH" token | "$FBAUTH" verify-token"#], environment: shell, stdin: nil,
                                       directory: harness.directory, timeout: 60)
        #expect(piped.status == 0, "\(piped)")
        let claims = try #require((try? JSONSerialization.jsonObject(with: Data(piped.stdout.utf8))) as? [String: Any], "\(piped)")
        #expect(claims["aud"] as? String == "demo-pipe" && claims["iss"] as? String == "https://securetoken.google.com/demo-pipe", "\(claims)")
        #expect(claims["uid"] as? String != nil && (claims["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "anonymous", "\(claims)")
        #expect(!piped.stderr.contains("which project"), "\(piped.stderr)")
    }
}
