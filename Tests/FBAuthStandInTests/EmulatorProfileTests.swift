import FBAuthStandIn
import Foundation
import Testing

/// Issue 59, item 6: where `fbauth emulator` answers as Google's emulator rather than as
/// production is one profile of named differences, and docs/emulator.md lists exactly those,
/// in order and in the same words.
@Suite struct EmulatorProfileTests {
    static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/emulator.md")

    @Test func theDocsListEveryDifferenceOfTheEmulatorsProfile() throws {
        let lines = try String(contentsOf: Self.docs, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let heading = try #require(lines.firstIndex { $0.hasPrefix("- **Google's answers where they differ from production's**") })
        let listed = lines[(heading + 2)...].prefix { $0.hasPrefix("  - ") }.map { String($0.dropFirst(4).dropLast()) }
        let summaries = EmulatorProfile.Difference.allCases.filter { EmulatorProfile.googleEmulator.has($0) }.compactMap(\.summary)
        #expect(listed == summaries)
        #expect(summaries.count == EmulatorProfile.googleEmulator.differences.count && !summaries.isEmpty)
    }

    @Test func theEmulatorAnswersAsGooglesAndTheTestsAsProduction() {
        #expect(StandInConfiguration.googleEmulator(projectId: "demo-x").profile == .googleEmulator)
        #expect(StandInConfiguration().profile == .production && EmulatorProfile.production.differences.isEmpty)
        // What Google's emulator lacks is no answer of `fbauth emulator`'s: it has those features.
        #expect(EmulatorProfile.googleEmulator.differences.isDisjoint(with: EmulatorProfile.limitsOfGoogleEmulator))
        #expect(EmulatorProfile.limitsOfGoogleEmulator == [.noOAuthCodeFlow, .noTotp, .noRecaptcha, .noPasswordPolicy, .handlerSkipsAppCheck, .projectNumberAsProjectId])
    }
}
