import Foundation
import TestSupport
import Testing

/// Issue 59, item 4: production's test phone numbers in `fbauth emulator`, which Google's drops:
/// a fictional number signs in with its fixed code, no text is sent or listed, and a wrong code
/// is refused. Given with `--test-phone-number` or through the project configuration API.
@Suite struct TestPhoneNumberTests {
    static let v1 = "/identitytoolkit.googleapis.com/v1"

    @Test func aTestNumberSignsInWithItsFixedCodeAndNoText() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator(["--test-phone-number", "+15555550100=654321"])
        defer { emulator.interrupt(); _ = emulator.finish() }
        try Self.expectFixedCode(host: host, number: "+15555550100", code: "654321")
        // An ordinary number is texted as before: its code is listed.
        let sent = try EmulatorHTTP.call("POST", host, "\(Self.v1)/accounts:sendVerificationCode?key=k", ["phoneNumber": "+15555550199"])
        let listed = try EmulatorHTTP.call("GET", host, "/emulator/v1/projects/demo-fbauth/verificationCodes")
        #expect((listed["verificationCodes"] as? [[String: Any]])?.contains { $0["sessionInfo"] as? String == sent["sessionInfo"] as? String } == true, "\(listed)")
        // Nothing of the test number's code went to the log of texts either.
        emulator.interrupt()
        let result = emulator.finish()
        #expect(!result.stderr.contains("654321"), "\(result.stderr)")
    }

    @Test func theProjectConfigurationSetsThem() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator([])
        defer { emulator.interrupt(); _ = emulator.finish() }
        let path = "/identitytoolkit.googleapis.com/v2/projects/demo-fbauth/config?updateMask=signIn.phoneNumber.testPhoneNumbers"
        let set = try EmulatorHTTP.call("PATCH", host, path, ["signIn": ["phoneNumber": ["testPhoneNumbers": ["+15555550111": "111222"]]]], owner: true)
        #expect(((set["signIn"] as? [String: Any])?["phoneNumber"] as? [String: Any])?["testPhoneNumbers"] as? [String: String] == ["+15555550111": "111222"], "\(set)")
        try Self.expectFixedCode(host: host, number: "+15555550111", code: "111222")
        let refused = try EmulatorHTTP.call("PATCH", host, path, ["signIn": ["phoneNumber": ["testPhoneNumbers": ["+15555550111": "12"]]]], owner: true)
        #expect((refused["error"] as? [String: Any])?["code"] as? Int == 400, "\(refused)")
    }

    @Test func badOptionsAreUsageErrors() throws {
        let harness = try Harness()
        for bad in ["15555550100=123456", "+15555550100=12345", "+15555550100", "+15555550100=abcdef"] {
            let run = try harness.run(["emulator", "--port", "0", "--test-phone-number", bad])
            #expect(run.status == 2 && run.stderr.hasPrefix("fbauth: --test-phone-number ") && run.stderr.split(separator: "\n").count == 1, "\(bad): \(run)")
        }
    }

    /// The number signs in with `code` (a new user, then the same), no text of it is listed,
    /// and another code is INVALID_CODE.
    static func expectFixedCode(host: String, number: String, code: String) throws {
        let first = try EmulatorHTTP.call("POST", host, "\(v1)/accounts:sendVerificationCode?key=k", ["phoneNumber": number])
        let session = try #require(first["sessionInfo"] as? String, "\(first)")
        let listed = try EmulatorHTTP.call("GET", host, "/emulator/v1/projects/demo-fbauth/verificationCodes")
        #expect((listed["verificationCodes"] as? [[String: Any]] ?? []).allSatisfy { $0["phoneNumber"] as? String != number }, "a test number is texted nothing: \(listed)")
        let wrong = try EmulatorHTTP.call("POST", host, "\(v1)/accounts:signInWithPhoneNumber?key=k", ["sessionInfo": session, "code": code == "000000" ? "111111" : "000000"])
        #expect(((wrong["error"] as? [String: Any])?["message"] as? String)?.hasPrefix("INVALID_CODE") == true, "\(wrong)")
        let signedIn = try EmulatorHTTP.call("POST", host, "\(v1)/accounts:signInWithPhoneNumber?key=k", ["sessionInfo": session, "code": code])
        #expect(signedIn["phoneNumber"] as? String == number && signedIn["idToken"] is String, "\(signedIn)")
        let again = try EmulatorHTTP.call("POST", host, "\(v1)/accounts:sendVerificationCode?key=k", ["phoneNumber": number])
        let secondTime = try EmulatorHTTP.call("POST", host, "\(v1)/accounts:signInWithPhoneNumber?key=k", ["sessionInfo": again["sessionInfo"] as? String ?? "", "code": code])
        #expect(secondTime["localId"] as? String == signedIn["localId"] as? String && secondTime["isNewUser"] as? Bool == false, "\(secondTime)")
    }
}
