import CallbackFuzzing
import Foundation
import Testing

/// The fuzzer's seed corpus (Fuzz/corpus) runs through the fuzzer's checks on every test run,
/// so a regression on any of those inputs fails here, not only under Scripts/fuzz.sh.
@Suite struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fuzz/corpus").standardized

    @Test func theSeedCorpusPassesTheFuzzChecks() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path)
        #expect(files.count >= 10)
        for file in files {
            CallbackInputChecks.check(Array(try Data(contentsOf: Self.corpus.appendingPathComponent(file))))
        }
    }
}
