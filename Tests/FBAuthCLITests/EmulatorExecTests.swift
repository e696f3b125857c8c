import Foundation
import TestSupport
import Testing

/// Issue 59, item 7: `fbauth emulator exec [OPTIONS] -- COMMAND…`, as `firebase emulators:exec`:
/// the emulator serves while the command runs, which finds it through the variables; signals
/// are passed on; the users are exported when it ends; fbauth exits with its status.
@Suite struct EmulatorExecTests {
    @Test func theCommandRunsAgainstTheEmulatorAndItsStatusIsFbauths() throws {
        let harness = try Harness()
        let script = #"echo "host=$FIREBASE_AUTH_EMULATOR_HOST project=$GCLOUD_PROJECT"; curl -s "http://$FIREBASE_AUTH_EMULATOR_HOST/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k" -H 'Content-Type: application/json' -d '{"email":"exec@example.com","password":"correct horse"}' -o /dev/null -w 'signUp=%{http_code}\n'; exit 7"#
        let run = try harness.run(["emulator", "exec", "--port", "0", "--project", "demo-exec", "--export-on-exit", harness.directory + "/export", "--", "sh", "-c", script])
        #expect(run.status == 7, "\(run)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].hasPrefix("host=127.0.0.1:") && lines[0].hasSuffix(" project=demo-exec") && lines[1] == "signUp=200", "\(run)")
        #expect(run.stderr.contains("fbauth emulator: serving on http://127.0.0.1:") && run.stderr.contains("Exported the users"), "\(run.stderr)")
        let accounts = try String(contentsOfFile: harness.directory + "/export/auth_export/accounts.json", encoding: .utf8)
        #expect(accounts.contains("exec@example.com"), "the command's user was exported: \(accounts)")
    }

    /// The README's line for CI: a provider sign-in inside `emulator exec`, with no browser.
    @Test func theREADMEsLineForCIWorks() throws {
        let harness = try Harness()
        let run = try harness.run(["emulator", "exec", "--port", "0", "--auto-consent", "ci@example.com", "--", "sh", "-c", "\"$FBAUTH\" signin --provider yahoo.com"],
                                  environment: ["FBAUTH": Binaries.url("fbauth").path, "BROWSER": "", "DISPLAY": "", "WAYLAND_DISPLAY": "", "FIREBASE_API_KEY": ""])
        #expect(run.status == 0 && run.json[path: "user", "email"] as? String == "ci@example.com", "\(run)")
    }

    @Test func aSignalGoesToTheCommand() throws {
        try expectSignalReachesCommand(["emulator", "exec", "--port", "0"], harness: try Harness())
    }

    @Test func withoutTheSeparatorOrACommandItIsAUsageError() throws {
        let harness = try Harness()
        for arguments in [["emulator", "exec", "ls"], ["emulator", "exec", "--"], ["emulator", "serve"], ["emulator", "exec", "--", "/nonexistent/program"]] {
            let run = try harness.run(arguments)
            // The error is one line, the last (a command that cannot start follows the serving line).
            let last = run.stderr.split(separator: "\n").last.map(String.init) ?? ""
            #expect(run.status == 2 && last.hasPrefix("fbauth: ") && run.stderr.split(separator: "\n").count <= 2, "\(arguments): \(run)")
        }
    }
}
