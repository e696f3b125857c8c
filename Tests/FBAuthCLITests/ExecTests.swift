import Foundation
import TestSupport
import Testing

/// Issue 60, item 2: `fbauth exec -- COMMAND…` hands the current user's ID token on in the
/// command's environment, never its arguments; `--token-file` keeps it fresh in a file while
/// the command runs; signals go on to it, and fbauth exits with its status.
@Suite struct ExecTests {
    @Test func theTokenIsInTheEnvironmentAndTheStatusIsTheCommands() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator([])
        defer { emulator.interrupt(); _ = emulator.finish() }
        let environment = ["FIREBASE_AUTH_EMULATOR_HOST": host]
        #expect(try harness.run(["signup", "--email", "exec@example.com"], stdin: "correct horse\n", environment: environment).status == 0)
        let token = try harness.run(["token"], environment: environment).stdout.trimmingCharacters(in: .newlines)
        let run = try harness.run(["exec", "--", "sh", "-c", #"printf '%s' "$FIREBASE_ID_TOKEN"; exit 3"#], environment: environment)
        #expect(run.status == 3 && run.stdout == token && run.stderr.isEmpty, "\(run)")
    }

    @Test func aTokenFileIsKeptFreshWhileTheCommandRuns() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator(["--token-lifetime", "64"])
        defer { emulator.interrupt(); _ = emulator.finish() }
        let environment = ["FIREBASE_AUTH_EMULATOR_HOST": host]
        #expect(try harness.run(["signup", "--email", "long@example.com"], stdin: "correct horse\n", environment: environment).status == 0)
        let file = harness.directory + "/kept-token"
        // The command waits until the file holds a token other than the one it started with.
        let script = #"first=$(cat "$FIREBASE_ID_TOKEN_FILE"); [ "$first" = "$FIREBASE_ID_TOKEN" ] || exit 9; i=0; while [ "$(cat "$FIREBASE_ID_TOKEN_FILE")" = "$first" ]; do i=$((i+1)); [ $i -lt 600 ] || exit 8; sleep 0.05; done; echo renewed"#
        let run = try harness.run(["exec", "--token-file", file, "--min-valid", "60", "--", "sh", "-c", script], environment: environment, timeout: 60)
        #expect(run.status == 0 && run.stdout == "renewed\n", "\(run)")
    }

    @Test func aSignalGoesToTheCommand() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator([])
        defer { emulator.interrupt(); _ = emulator.finish() }
        let environment = ["FIREBASE_AUTH_EMULATOR_HOST": host]
        #expect(try harness.run(["signup", "--email", "signal@example.com"], stdin: "correct horse\n", environment: environment).status == 0)
        try expectSignalReachesCommand(["exec"], harness: harness, environment: environment)
    }

    @Test func badArgumentsAreUsageErrors() throws {
        let harness = try Harness()
        for arguments in [["exec"], ["exec", "ls"], ["exec", "--format", "raw", "--", "ls"]] {
            let run = try harness.run(arguments)
            #expect(run.status == 2 && run.stderr.hasPrefix("fbauth: ") && run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run)")
        }
    }
}
