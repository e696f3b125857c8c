import Foundation
import TestSupport
import Testing

/// Issue 56, item 5: the release's `arc4random` shim (Scripts/glibc-compat/compat.c, linked for
/// glibc before 2.36) does as glibc's own: a kernel without getrandom (ENOSYS) falls back to
/// /dev/urandom instead of trapping; any other failure ends the process with glibc's message.
/// The shim itself, compiled with the system's C compiler beside a caller that takes getrandom
/// away with a seccomp filter.
@Suite(.enabled(if: ReleaseTests.linux && FileManager.default.isExecutableFile(atPath: "/usr/bin/cc"), "needs Linux and a C compiler"))
struct GlibcCompatTests {
    @Test func arc4randomWithoutGetrandomReadsURandom() throws {
        let scratch = NSTemporaryDirectory() + "fbauth-compat-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let repository = DistributionTests.repository.path
        let built = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/cc"),
                                       ["-O1", "-o", scratch + "/caller", repository + "/Tests/FBAuthCLITests/Fixtures/arc4random-without-getrandom.c",
                                        repository + "/Scripts/glibc-compat/compat.c", "-lm"],
                                       environment: ["PATH": "/usr/bin:/bin"], stdin: nil, directory: scratch, timeout: 120)
        try #require(built.status == 0, "\(built)")
        func run(_ arguments: [String]) throws -> RunResult {
            try Subprocess.run(URL(fileURLWithPath: scratch + "/caller"), arguments, environment: [:], stdin: nil, directory: scratch, timeout: 30)
        }
        func words(_ result: RunResult) -> [String] { result.stdout.split(whereSeparator: \.isWhitespace).map(String.init) }
        for arguments in [[], ["enosys"]] {
            let result = try run(arguments)
            let drawn = words(result)
            #expect(result.status == 0 && drawn.count == 3 && drawn.allSatisfy { $0.count == 8 && UInt32($0, radix: 16) != nil }
                        && Set(drawn).count == 3, "\(arguments): \(result)")
        }
        let refused = try run(["eperm"])
        #expect(refused.status == SIGABRT, "ended by abort(3), as glibc ends it: \(refused)")
        #expect(refused.stdout.isEmpty && refused.stderr == "Fatal glibc error: cannot get entropy for arc4random\n", "\(refused)")
    }
}
