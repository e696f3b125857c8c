import Foundation
import TestSupport
import Testing

/// Issue 58: every field of every answer compared with Google's Auth emulator's, for the same
/// requests (Scripts/emulator-diff.py: 46 steps of the JS SDK's and the Admin SDK's calls, each
/// answer's shape and its stable values). What differs must be what
/// Fixtures/emulator-known-differences.txt lists with its reason; a difference that heals must
/// be taken off. Runs where Google's emulator is built (`FBAUTH_TEST_AUTH_EMULATOR`).
@Suite struct EmulatorDifferenceTests {
    static let google = ProcessInfo.processInfo.environment["FBAUTH_TEST_AUTH_EMULATOR"].flatMap { $0.isEmpty ? nil : $0 }

    @Test(.enabled(if: google != nil, "FBAUTH_TEST_AUTH_EMULATOR is not set (Google's Auth emulator is not built on this machine)"))
    func everyAnswerIsGooglesButForWhatIsListed() throws {
        let google = try #require(Self.google)
        // The project Google's emulator serves: its tokens say which.
        let project = try Self.project(of: google)
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator(["--project", project])
        defer { emulator.interrupt(); _ = emulator.finish() }
        let run = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                     ["python3", DistributionTests.repository.appendingPathComponent("Scripts/emulator-diff.py").path, google, host, project],
                                     environment: ProcessInfo.processInfo.environment, stdin: nil, directory: harness.directory, timeout: 120)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run)")
        let found = Set(report["differences"] as? [String] ?? [])
        let known = try UpstreamSuite.lines(DistributionTests.repository.appendingPathComponent("Tests/FBAuthCLITests/Fixtures/emulator-known-differences.txt"))
        #expect((report["steps"] as? Int ?? 0) >= 40, "\(run)")
        #expect(found.subtracting(known).isEmpty, "differ from Google's: \(found.subtracting(known).sorted())")
        #expect(known.subtracting(found).isEmpty, "no longer differ: take them off the list: \(known.subtracting(found).sorted())")
    }

    static func project(of host: String) throws -> String {
        let run = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                     ["curl", "-s", "-X", "POST", "-H", "Content-Type: application/json", "-d", #"{"returnSecureToken":true}"#,
                                      "http://\(host)/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fbauth-test"],
                                     environment: ProcessInfo.processInfo.environment, stdin: nil, directory: NSTemporaryDirectory(), timeout: 30)
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run)")
        let token = try #require(answer["idToken"] as? String)
        let payload = try #require(token.split(separator: ".").dropFirst().first.map(String.init))
        var base64 = payload.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        let claims = try #require(Data(base64Encoded: base64).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] })
        return try #require(claims["aud"] as? String)
    }
}
