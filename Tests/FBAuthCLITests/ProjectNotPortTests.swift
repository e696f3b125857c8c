import FBAuthStandIn
import Foundation
import TestSupport
import Testing

/// Issue 41, item 5: a session belongs to the project, not to the emulator's host:port.
@Suite struct ProjectNotPortTests {
    @Test func localhostAnd127001AreOneEmulator() throws {
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com", ["--email", "ada@example.com"]).status == 0)
        let port = harness.standIn.hostAndPort.split(separator: ":").last.map(String.init) ?? ""
        for alias in ["localhost:\(port)", "[::1]:\(port)"] {
            let token = try harness.run(["token"], environment: ["FIREBASE_AUTH_EMULATOR_HOST": alias])
            #expect(token.status == 0 && token.stdout == (harness.savedSessions.first?["idToken"] as? String ?? "?") + "\n", "\(alias): \(token)")
            let accounts = try harness.run(["accounts"], environment: ["FIREBASE_AUTH_EMULATOR_HOST": alias])
            #expect(accounts.stdout.split(separator: "\n").count == 1 && accounts.stdout.hasPrefix("*"), "\(alias): \(accounts)")
        }
        #expect((harness.sessionsFile?["projects"] as? [String: Any])?.count == 1, "one project in sessions.json")
    }

    /// `fbauth emulator --import --export-on-exit`, stopped and started again on another port:
    /// the session made on the first refreshes on the second, and is said to be served there.
    @Test func aSessionOutlivesItsEmulatorsPort() throws {
        let harness = try Harness()
        let data = harness.directory + "/emulator-data"
        func serve() throws -> (BackgroundProcess, String) { try harness.startEmulator(["--import", data, "--export-on-exit"]) }
        let (first, firstHost) = try serve()
        #expect(try harness.run(["signup", "--email", "kept@example.com"], stdin: "correct horse\n", environment: ["FIREBASE_AUTH_EMULATOR_HOST": firstHost]).status == 0)
        first.interrupt()
        #expect(first.finish().status == 0)

        // Issue 60: status, asked of the stopped emulator itself, says nothing answers there.
        let downStatus = try harness.run(["status"], environment: ["FIREBASE_AUTH_EMULATOR_HOST": firstHost])
        #expect(downStatus.stdout.contains("  token: valid for ") && downStatus.stdout.contains("; its emulator is not running\n"), "\(downStatus)")
        let stopped = try harness.run(["accounts", "--all"], environment: ["FIREBASE_AUTH_EMULATOR_HOST": ""])
        #expect(stopped.stdout.hasSuffix("  (its emulator is not running)\n") && stopped.stderr.contains("`fbauth prune` removes them") || stopped.stderr.contains("prune` removes them"), "\(stopped)")
        #expect(try harness.run(["accounts", "--all", "--json"], environment: ["FIREBASE_AUTH_EMULATOR_HOST": ""]).stdout.contains(#""emulatorStopped" : true"#))

        let (second, secondHost) = try serve()
        defer { second.interrupt(); _ = second.finish() }
        #expect(secondHost != firstHost)
        let refreshed = try harness.run(["token", "--force-refresh"], environment: ["FIREBASE_AUTH_EMULATOR_HOST": secondHost])
        #expect(refreshed.status == 0 && refreshed.stdout.hasPrefix("eyJ") && refreshed.stderr.isEmpty, "\(refreshed)")
        let status = try harness.run(["status"], environment: ["FIREBASE_AUTH_EMULATOR_HOST": secondHost])
        #expect(status.status == 0 && status.stdout.hasPrefix("Signed in as kept@example.com (uid ") && status.stdout.contains("emulator \(secondHost))\n"), "\(status)")
        // Served again: not marked, and prune keeps it.
        let served = try harness.run(["accounts"], environment: ["FIREBASE_AUTH_EMULATOR_HOST": secondHost])
        #expect(!served.stdout.contains("not running") && served.stderr.isEmpty, "\(served)")
        let prune = try harness.run(["prune"], environment: ["FIREBASE_AUTH_EMULATOR_HOST": secondHost])
        #expect(prune.status == 0 && prune.stderr == "No saved session belongs to an emulator that is not running.\n", "\(prune)")
        #expect(try harness.run(["token"], environment: ["FIREBASE_AUTH_EMULATOR_HOST": secondHost]).status == 0)
    }

    /// Three emulators gone: `accounts --all` marks each, one command forgets them, and the
    /// running emulator's session stays.
    @Test func pruneForgetsTheSessionsOfStoppedEmulators() throws {
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com", ["--email", "live@example.com"]).status == 0)
        var gone: [String] = []
        for index in 1...3 {
            let standIn = try StandIn()
            standIn.start()
            let result = try harness.signIn("yahoo.com", ["--email", "gone\(index)@example.com"],
                                            environment: ["FIREBASE_AUTH_EMULATOR_HOST": standIn.hostAndPort, "FIREBASE_API_KEY": "key-\(index)"])
            #expect(result.status == 0, "\(result)")
            gone.append(standIn.hostAndPort)
            standIn.stop()
        }
        let before = try harness.run(["accounts", "--all"], environment: ["FIREBASE_AUTH_EMULATOR_HOST": "", "FIREBASE_API_KEY": ""])
        let lines = before.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4 && lines.filter { $0.hasSuffix("(its emulator is not running)") }.count == 3
                && lines.contains { $0.contains("live@example.com") && !$0.contains("not running") }, "\(before)")

        let prune = try harness.run(["prune"], environment: ["FIREBASE_AUTH_EMULATOR_HOST": "", "FIREBASE_API_KEY": ""])
        #expect(prune.status == 0 && prune.stdout.isEmpty, "\(prune)")
        #expect(prune.stderr.hasPrefix("Forgot 3 sessions of emulators that are not running (") && gone.allSatisfy(prune.stderr.contains), "\(prune)")
        let after = try harness.run(["accounts", "--all"], environment: ["FIREBASE_AUTH_EMULATOR_HOST": "", "FIREBASE_API_KEY": ""])
        #expect(after.stdout.split(separator: "\n").count == 1 && after.stdout.contains("live@example.com") && after.stderr.isEmpty, "\(after)")
        #expect(try harness.run(["token"]).status == 0)
    }
}
