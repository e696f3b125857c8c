import Foundation
import TestSupport
import Testing

private let straceProgram = ["/usr/bin/strace", "/bin/strace"].first(where: FileManager.default.isExecutableFile)

/// Issue 28, item 6: the token path stays as fast: a fresh `fbauth token` opens the store once,
/// a forced refresh at most three times (before the lock, under it, in the update), and once
/// more against an emulator, whose project is looked up when `AuthService` is made (issue 41: a
/// session belongs to the project, whichever port its emulator has now). Counted with strace,
/// as the kernel sees the opens.
@Suite(.enabled(if: straceProgram != nil, "strace is not installed; .ci/run installs it"))
struct StoreReadTests {

    private func opensOfTheStore(_ arguments: [String], _ harness: Harness) throws -> Int {
        let trace = harness.directory + "/trace-\(UUID().uuidString)"
        let result = try Subprocess.run(URL(fileURLWithPath: try #require(straceProgram)),
                                        ["-f", "-e", "trace=open,openat", "-o", trace, Binaries.url("fbauth").path] + arguments,
                                        environment: harness.environment, stdin: nil, directory: harness.directory, timeout: 60)
        #expect(result.status == 0, "\(result)")
        let text = try String(contentsOfFile: trace, encoding: .utf8)
        // By path, or (since issue 47) by name through the config directory's descriptor.
        return text.split(separator: "\n").filter { $0.contains("/sessions.json\"") || $0.contains("\"sessions.json\"") }.count
    }

    @Test func aFreshTokenReadsTheStoreOnceAndARefreshAtMostThreeTimes() throws {
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com", ["--email", "ada@example.com"]).status == 0)
        #expect(try opensOfTheStore(["token"], harness) == 1)
        #expect(try opensOfTheStore(["token", "--force-refresh"], harness) <= 4)
    }
}
