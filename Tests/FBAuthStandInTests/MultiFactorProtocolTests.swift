@testable import FBAuthStandIn
import Foundation
import LoopbackHTTP
import Testing

/// The stand-in's multi-factor authentication, checked over HTTP against what production and the
/// Auth emulator answer (Identity Toolkit v2; firebase-tools `src/emulator/auth/operations.ts`).
@Suite struct MultiFactorProtocolTests {
    // MARK: TOTP and HMAC against their RFCs

    @Test func sha1AndHMACMatchTheirRFCs() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(SHA1.hash(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")  // RFC 3174
        #expect(hex(SHA1.hash([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hex(SHA1.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        // RFC 2202, test cases 1 and 6.
        #expect(hex(HMACSHA1.authenticate(Array("Hi There".utf8), key: [UInt8](repeating: 0x0b, count: 20))) == "b617318655057264e28bc0b6fb378c8ef146be00")
        #expect(hex(HMACSHA1.authenticate(Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8), key: [UInt8](repeating: 0xaa, count: 80)))
            == "aa4ae5e15272d00e95705637ce8a3b55ed402112")
    }

    @Test func totpMatchesRFC6238() {
        // RFC 6238 appendix B, SHA1, 8 digits, the secret "12345678901234567890".
        let secret = Base32.encode(Array("12345678901234567890".utf8))
        #expect(secret == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
        for (time, code) in [(59.0, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"), (1_234_567_890, "89005924"),
                             (2_000_000_000, "69279037"), (20_000_000_000, "65353130")] {
            #expect(TOTP.code(secret: secret, at: Date(timeIntervalSince1970: time), digits: 8) == code, "\(time)")
        }
        #expect(TOTP.code(secret: secret, at: Date(timeIntervalSince1970: 59))?.count == 6)
        #expect(Base32.decode("gezd gnbv=") == Base32.decode("GEZDGNBV"))
        #expect(Base32.decode("not base32!") == nil)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let code = TOTP.code(secret: secret, at: now)!
        #expect(TOTP.verify(code, secret: secret, at: now.addingTimeInterval(30)), "one period of skew")
        #expect(!TOTP.verify(code, secret: secret, at: now.addingTimeInterval(90)))
    }

    // MARK: Over HTTP

    private func v2(_ client: StandInClient, _ method: String, _ body: [String: Any]) -> StandInClient.Answer {
        client.post("/identitytoolkit.googleapis.com/v2/accounts/\(method)", json: body)
    }

    private func passwordUser(_ standIn: StandIn, _ client: StandInClient, verified: Bool = true) -> (uid: String, idToken: String) {
        let uid = standIn.createPasswordUser(email: "pat@example.com", password: "secret-1")
        if verified { standIn.verifyEmail(uid: uid) }
        let signedIn = client.accounts("signInWithPassword", ["email": "pat@example.com", "password": "secret-1", "returnSecureToken": true])
        return (uid, signedIn.json["idToken"] as? String ?? "")
    }

    @Test func totpEnrolmentThenEverySignInNeedsTheCode() throws {
        let standIn = try StandIn()
        standIn.start()
        let client = StandInClient(standIn: standIn)
        let (uid, idToken) = passwordUser(standIn, client)

        let start = v2(client, "mfaEnrollment:start", ["idToken": idToken, "totpEnrollmentInfo": [String: Any]()])
        let info = try #require(start.json["totpSessionInfo"] as? [String: Any], "\(start.json)")
        let secret = try #require(info["sharedSecretKey"] as? String)
        #expect(info["hashingAlgorithm"] as? String == "SHA1" && info["verificationCodeLength"] as? Int == 6 && info["periodSec"] as? Int == 30)
        let sessionInfo = try #require(info["sessionInfo"] as? String)
        let wrong = v2(client, "mfaEnrollment:finalize", ["idToken": idToken, "totpVerificationInfo": ["sessionInfo": sessionInfo, "verificationCode": "000000"]])
        #expect(wrong.errorMessage == "INVALID_CODE" || TOTP.verify("000000", secret: secret, at: Date()))
        let code = try #require(TOTP.code(secret: secret, at: Date()))
        let done = v2(client, "mfaEnrollment:finalize", ["idToken": idToken, "displayName": "phone app",
                                                        "totpVerificationInfo": ["sessionInfo": sessionInfo, "verificationCode": code]])
        #expect(done.status == 200 && done.json["idToken"] is String && done.json["refreshToken"] is String, "\(done.json)")
        #expect(standIn.secondFactors(uid: uid).map(\.factorId) == ["totp"])

        // The password alone no longer signs in: a pending credential and the factors, no tokens.
        let first = client.accounts("signInWithPassword", ["email": "pat@example.com", "password": "secret-1", "returnSecureToken": true])
        #expect(first.json["idToken"] == nil)
        let pending = try #require(first.json["mfaPendingCredential"] as? String)
        let factors = try #require(first.json["mfaInfo"] as? [[String: Any]])
        #expect(factors.count == 1 && factors[0]["displayName"] as? String == "phone app" && factors[0]["totpInfo"] != nil)
        let enrollmentId = try #require(factors[0]["mfaEnrollmentId"] as? String)
        let bad = v2(client, "mfaSignIn:finalize", ["mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentId, "totpVerificationInfo": ["verificationCode": "12345"]])
        #expect(bad.errorMessage == "INVALID_CODE")
        let second = v2(client, "mfaSignIn:finalize", ["mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentId,
                                                      "totpVerificationInfo": ["verificationCode": TOTP.code(secret: secret, at: Date())!]])
        let token = try #require(second.json["idToken"] as? String)
        let claims = try #require(Self.claims(token)["firebase"] as? [String: Any])
        #expect(claims["sign_in_second_factor"] as? String == "totp" && claims["second_factor_identifier"] as? String == enrollmentId)
        #expect(claims["sign_in_provider"] as? String == "password")
        #expect(v2(client, "mfaSignIn:finalize", ["mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentId,
                                                  "totpVerificationInfo": ["verificationCode": TOTP.code(secret: secret, at: Date())!]]).errorMessage
            == "INVALID_MFA_PENDING_CREDENTIAL", "a pending credential works once")

        // Withdrawal.
        let withdrawn = v2(client, "mfaEnrollment:withdraw", ["idToken": token, "mfaEnrollmentId": enrollmentId])
        #expect(withdrawn.json["idToken"] is String)
        #expect(standIn.secondFactors(uid: uid).isEmpty)
    }

    @Test func phoneFactorsNeedReCAPTCHAAndAnSMSCode() throws {
        var configuration = StandInConfiguration()
        configuration.phoneRecaptcha = .enforce
        let standIn = try StandIn(configuration: configuration)
        standIn.start()
        let client = StandInClient(standIn: standIn)
        let (uid, idToken) = passwordUser(standIn, client)
        let config = client.send("GET", "/identitytoolkit.googleapis.com/v2/recaptchaConfig?clientType=CLIENT_TYPE_WEB&version=RECAPTCHA_ENTERPRISE")
        #expect(config.json["recaptchaKey"] as? String == "projects/fbauth-stand-in/keys/\(configuration.recaptchaSiteKey)")
        #expect((config.json["recaptchaEnforcementState"] as? [[String: String]])?.contains(["provider": "PHONE_PROVIDER", "enforcementState": "ENFORCE"]) == true)

        let missing = v2(client, "mfaEnrollment:start", ["idToken": idToken, "phoneEnrollmentInfo": ["phoneNumber": "+15555550100"]])
        #expect(missing.errorMessage == "MISSING_RECAPTCHA_TOKEN")
        let token = "\(Backend.enterpriseTokenPrefix).\(configuration.recaptchaSiteKey).mfaSmsEnrollment"
        let wrongAction = v2(client, "mfaEnrollment:start", ["idToken": idToken, "phoneEnrollmentInfo": [
            "phoneNumber": "+15555550100", "captchaResponse": token.replacingOccurrences(of: "Enrollment", with: "SignIn"),
            "clientType": "CLIENT_TYPE_WEB", "recaptchaVersion": "RECAPTCHA_ENTERPRISE"]])
        #expect(wrongAction.errorMessage == "INVALID_RECAPTCHA_ACTION")
        let start = v2(client, "mfaEnrollment:start", ["idToken": idToken, "phoneEnrollmentInfo": [
            "phoneNumber": "+15555550100", "captchaResponse": token, "clientType": "CLIENT_TYPE_WEB", "recaptchaVersion": "RECAPTCHA_ENTERPRISE"]])
        let sessionInfo = try #require((start.json["phoneSessionInfo"] as? [String: Any])?["sessionInfo"] as? String, "\(start.json)")
        let code = try #require(standIn.latestCode(sentTo: "+15555550100"))
        let listed = client.send("GET", "/emulator/v1/projects/fbauth-stand-in/verificationCodes")
        #expect((listed.json["verificationCodes"] as? [[String: Any]])?.contains { $0["code"] as? String == code } == true)
        let done = v2(client, "mfaEnrollment:finalize", ["idToken": idToken, "phoneVerificationInfo": ["sessionInfo": sessionInfo, "code": code]])
        #expect(done.json["idToken"] is String, "\(done.json)")

        let first = client.accounts("signInWithPassword", ["email": "pat@example.com", "password": "secret-1", "returnSecureToken": true])
        let factor = try #require((first.json["mfaInfo"] as? [[String: Any]])?.first)
        #expect(factor["phoneInfo"] as? String == "+*******0100", "masked but for the last four digits")
        let lookup = client.accounts("lookup", ["idToken": done.json["idToken"] as? String ?? ""])
        #expect(((lookup.json["users"] as? [[String: Any]])?.first?["mfaInfo"] as? [[String: Any]])?.first?["phoneInfo"] as? String == "+15555550100")
        #expect(standIn.secondFactors(uid: uid).map(\.factorId) == ["phone"])
    }

    @Test func enrolmentNeedsAVerifiedEmailARecentSignInAndMFAEnabled() throws {
        let standIn = try StandIn()
        standIn.start()
        let client = StandInClient(standIn: standIn)
        let (_, unverified) = passwordUser(standIn, client, verified: false)
        #expect(v2(client, "mfaEnrollment:start", ["idToken": unverified, "totpEnrollmentInfo": [String: Any]()]).errorMessage?.hasPrefix("UNVERIFIED_EMAIL") == true)
        standIn.verifyEmail(uid: standIn.users[0].uid)
        standIn.advanceClock(by: 600)
        #expect(v2(client, "mfaEnrollment:start", ["idToken": unverified, "totpEnrollmentInfo": [String: Any]()]).errorMessage == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
        var configuration = standIn.configuration
        configuration.multiFactor.enabled = false
        standIn.configuration = configuration
        #expect(v2(client, "mfaEnrollment:start", ["idToken": unverified, "totpEnrollmentInfo": [String: Any]()]).errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED") == true)
    }

    @Test func asTheOfficialEmulatorPhoneOnlyAndNoReCAPTCHA() throws {
        var configuration = StandInConfiguration()
        configuration.profile.differences.formUnion(EmulatorProfile.limitsOfGoogleEmulator)
        let standIn = try StandIn(configuration: configuration)
        standIn.start()
        let client = StandInClient(standIn: standIn)
        let (_, idToken) = passwordUser(standIn, client)
        #expect(client.send("GET", "/identitytoolkit.googleapis.com/v2/recaptchaConfig").status == 501)
        #expect(v2(client, "mfaEnrollment:start", ["idToken": idToken, "totpEnrollmentInfo": [String: Any]()]).errorMessage?.contains("phoneEnrollmentInfo") == true)
        let start = v2(client, "mfaEnrollment:start", ["idToken": idToken, "phoneEnrollmentInfo": ["phoneNumber": "+15555550100"]])
        #expect((start.json["phoneSessionInfo"] as? [String: Any])?["sessionInfo"] is String, "\(start.json)")
    }

    static func claims(_ token: String) -> [String: Any] {
        let parts = token.split(separator: ".")
        var base64 = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return (try? JSONSerialization.jsonObject(with: Data(base64Encoded: base64)!)) as? [String: Any] ?? [:]
    }
}
