import Foundation
import TestSupport
import Testing

/// One of the ecosystem's own test suites that ../shared runs against any Auth emulator
/// (`run.sh HOST:PORT PROJECT`, the passing tests written to `PASSED`), with the list of those
/// that pass against Google's emulator beside it (`google-passes.txt`). It needs the upstream
/// repositories fetched as mirrors (`MIRROR_ROOT`, or a mirror beside the clone or in
/// /work/.mirror); without them the test says so as a skip.
struct UpstreamSuite: Sendable {
    let folder: URL
    /// The mirrors it reads, as `OWNER+NAME`.
    let mirrors: [String]

    init(_ name: String, mirrors: [String]) {
        folder = DistributionTests.repository.appendingPathComponent("../shared/\(name)").standardized
        self.mirrors = mirrors
    }

    var mirrorRoot: String? {
        let candidates: [String?] = [ProcessInfo.processInfo.environment["MIRROR_ROOT"],
                                     DistributionTests.repository.appendingPathComponent("../.mirror").standardized.path, "/work/.mirror"]
        return candidates.compactMap { $0 }.first { root in mirrors.allSatisfy { FileManager.default.fileExists(atPath: root + "/\($0)/repo") } }
    }

    var runnable: Bool { FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("run.sh").path) && mirrorRoot != nil }

    struct Outcome {
        var passed: Set<String>
        var googlePasses: Set<String>
        /// The end of what the run printed, for messages.
        var output: String
    }

    /// Runs the suite against a fresh `fbauth emulator` for `project`.
    func run(project: String, environment extra: [String: String] = [:], timeout: TimeInterval) throws -> Outcome {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator(["--project", project])
        defer { emulator.interrupt(); _ = emulator.finish() }
        let passedFile = harness.directory + "/passed.txt"
        var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        environment["MIRROR_ROOT"] = mirrorRoot
        environment["PASSED"] = passedFile
        environment.removeValue(forKey: "FIREBASE_AUTH_EMULATOR_HOST")
        let run = try Subprocess.run(folder.appendingPathComponent("run.sh"), [host, project], environment: environment, stdin: nil,
                                     directory: harness.directory, timeout: timeout)
        let output = String(run.stdout.suffix(3000)) + String(run.stderr.suffix(1500))
        // 2: the harness lacks something it needs (a package, a mirror); said, not hidden.
        try #require(run.status != 2, "the suite's harness could not run: \(output)")
        return Outcome(passed: try Self.lines(URL(fileURLWithPath: passedFile)),
                       googlePasses: try Self.lines(folder.appendingPathComponent("google-passes.txt")), output: output)
    }

    /// The non-empty, non-comment lines of a list.
    static func lines(_ url: URL) throws -> Set<String> {
        Set(try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") })
    }
}
