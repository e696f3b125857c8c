import Foundation
import TestSupport
import Testing

/// Issue 58: firebase-js-sdk's own Auth integration tests (`packages/auth/test/integration/flows`,
/// 263 tests, in headless Chromium and in node; ../shared/js-sdk-suite/run.sh) against the real
/// `fbauth emulator`: every one of the 242 that pass against Google's Auth emulator passes.
@Suite struct JSSDKSuiteTests {
    static let suite = UpstreamSuite("js-sdk-suite", mirrors: ["firebase+firebase-js-sdk", "chaijs+chai"])

    @Test(.enabled(if: suite.runnable, "no ../shared/js-sdk-suite or fetched firebase-js-sdk and chai (fetch github:firebase/firebase-js-sdk, github:chaijs/chai)"),
          .timeLimit(.minutes(15)))
    func theJSSDKsOwnTestsPassWhereTheyPassAgainstGooglesEmulator() throws {
        // Upstream retries a failed test 3 times in browsers and 5 in node; once here, so that
        // a test the whole suite's load slowed past its 20 s passes, and a real failure fails twice.
        let outcome = try Self.suite.run(project: "demo-jssuite", environment: ["RETRIES": "1"], timeout: 840)
        #expect(outcome.googlePasses.count == 242, "\(outcome.googlePasses.count) in Google's list: \(outcome.output)")
        let missing = outcome.googlePasses.subtracting(outcome.passed)
        #expect(missing.isEmpty, "pass against Google's emulator, not against fbauth's: \(missing.sorted())\n\(outcome.output)")
    }
}
