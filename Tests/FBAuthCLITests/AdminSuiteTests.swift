import Foundation
import TestSupport
import Testing

/// Issue 58: firebase-admin-python's own Auth integration tests (`integration/test_auth.py`,
/// `test_tenant_mgt.py`, 76 tests, run unchanged by ../shared/admin-suite/run.sh) against the
/// real `fbauth emulator`: every one that passes against Google's Auth emulator passes, but for
/// the known gaps listed, with their reasons, in Fixtures/admin-suite-known-gaps.txt. Runs where
/// the suite's harness and a fetched firebase-admin-python are (`MIRROR_ROOT`, or a mirror beside
/// the clone or in /work/.mirror); elsewhere it says so as a skip.
@Suite struct AdminSuiteTests {
    static let harness = DistributionTests.repository.appendingPathComponent("../shared/admin-suite").standardized
    static let mirrorRoot: String? = {
        let candidates: [String?] = [ProcessInfo.processInfo.environment["MIRROR_ROOT"], DistributionTests.repository.appendingPathComponent("../.mirror").standardized.path,
                                     "/work/.mirror"]
        return candidates.compactMap { $0 }.first { FileManager.default.fileExists(atPath: $0 + "/firebase+firebase-admin-python/repo") }
    }()
    static let runnable = FileManager.default.isExecutableFile(atPath: harness.appendingPathComponent("run.sh").path) && mirrorRoot != nil

    static func lines(_ url: URL) throws -> Set<String> {
        Set(try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") })
    }

    @Test(.enabled(if: runnable, "no ../shared/admin-suite or fetched firebase-admin-python (fetch github:firebase/firebase-admin-python)"),
          .timeLimit(.minutes(15)))
    func firebaseAdminsOwnTestsPassWhereTheyPassAgainstGooglesEmulator() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator(["--project", "demo-admsuite"])
        defer { emulator.interrupt(); _ = emulator.finish() }
        let passedFile = harness.directory + "/passed.txt"
        var environment = ProcessInfo.processInfo.environment
        environment["MIRROR_ROOT"] = Self.mirrorRoot
        environment["PASSED"] = passedFile
        environment.removeValue(forKey: "FIREBASE_AUTH_EMULATOR_HOST")
        let run = try Subprocess.run(Self.harness.appendingPathComponent("run.sh"), [host, "demo-admsuite"], environment: environment, stdin: nil,
                                     directory: harness.directory, timeout: 840)
        // 2: the harness lacks something it needs (a Python with venv); said, not hidden.
        try #require(run.status != 2, "the suite's harness could not run: \(run.stdout.suffix(1500)) \(run.stderr.suffix(1500))")
        let passed = try Self.lines(URL(fileURLWithPath: passedFile))
        let google = try Self.lines(Self.harness.appendingPathComponent("google-passes.txt"))
        let gaps = try Self.lines(DistributionTests.repository.appendingPathComponent("Tests/FBAuthCLITests/Fixtures/admin-suite-known-gaps.txt"))
        #expect(google.count == 52 && passed.count >= 60, "\(google.count) in Google's list, \(passed.count) passed: \(run.stdout.suffix(3000))")
        let missing = google.subtracting(passed).subtracting(gaps)
        #expect(missing.isEmpty, "pass against Google's emulator, not against fbauth's: \(missing.sorted())\n\(run.stdout.suffix(3000))")
        let healed = gaps.intersection(passed)
        #expect(healed.isEmpty, "now pass: take them off admin-suite-known-gaps.txt: \(healed.sorted())")
        // The run reached no production endpoint.
        #expect(!run.stdout.contains("request(s) to production refused"), "\(run.stdout.suffix(2000))")
    }
}
