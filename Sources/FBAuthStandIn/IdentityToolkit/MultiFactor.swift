#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// Multi-factor authentication as Identity Platform serves it (Identity Toolkit v2,
/// `accounts/mfaEnrollment:*` and `accounts/mfaSignIn:*`; firebase-js-sdk
/// `packages/auth/src/api/account_management/mfa.ts`, `api/authentication/mfa.ts`; firebase-tools
/// `src/emulator/auth/operations.ts`): SMS and TOTP second factors, each sign-in of an enrolled
/// user answered with `mfaPendingCredential` and `mfaInfo[]` instead of tokens. Like
/// production, phone numbers need reCAPTCHA (Enterprise when enforced, else v2); with
/// the profile's limits of Google's emulator, as it: SMS only, no reCAPTCHA.
extension Backend {
    static let mfaSignInStartFields: Set<String> = ["mfaPendingCredential", "mfaEnrollmentId", "phoneSignInInfo", "tenantId"]
    static let mfaSignInFinalizeFields: Set<String> = ["mfaPendingCredential", "mfaEnrollmentId", "phoneVerificationInfo", "totpVerificationInfo", "tenantId"]
    static let mfaEnrollmentStartFields: Set<String> = ["idToken", "phoneEnrollmentInfo", "totpEnrollmentInfo", "tenantId"]
    static let mfaEnrollmentFinalizeFields: Set<String> = ["idToken", "displayName", "phoneVerificationInfo", "totpVerificationInfo", "tenantId"]
    static let mfaWithdrawFields: Set<String> = ["idToken", "mfaEnrollmentId", "tenantId"]

    /// How long a pending credential, an SMS code and a TOTP enrolment last.
    static let mfaSessionLifetime: TimeInterval = 600

    // MARK: - Sign-in

    /// The answer to a first factor of a user with second factors: no tokens, a pending
    /// credential and the factors (masked). Nil when no second factor is needed.
    func secondFactorChallenge(for account: Account, signInProvider: String) -> [String: Any]? {
        guard configuration.multiFactor.enabled, !account.mfaEnrollments.isEmpty else { return nil }
        let credential = "AMfaPending" + RandomToken.make(bytes: 48)
        pendingMfaSignIns[credential] = PendingMfaSignIn(
            localId: account.localId, signInProvider: signInProvider, tenantId: account.tenantId,
            expiresAt: now().addingTimeInterval(Self.mfaSessionLifetime))
        return ["mfaPendingCredential": credential, "mfaInfo": account.mfaEnrollments.map { $0.info(masked: true) }, "localId": account.localId]
    }

    func mfaSignInStart(_ body: JSONBody) throws(APIError) -> [String: Any] {
        guard let credential = try body.string("mfaPendingCredential") else {
            throw .badRequest("MISSING_MFA_PENDING_CREDENTIAL : Request does not have MFA pending credential.")
        }
        guard let enrollmentId = try body.string("mfaEnrollmentId") else {
            throw .badRequest("MISSING_MFA_ENROLLMENT_ID : No second factor identifier is provided.")
        }
        let (_, account) = try pendingSignIn(credential)
        guard let enrollment = account.mfaEnrollments.first(where: { $0.id == enrollmentId }) else { throw .badRequest("MFA_ENROLLMENT_NOT_FOUND") }
        guard case .phone(let number) = enrollment.kind else { throw .badRequest("INVALID_ARGUMENT : MFA provider not supported!") }
        try checkPhoneRecaptcha(try body.object("phoneSignInInfo"), action: "mfaSmsSignIn")
        return ["phoneResponseInfo": ["sessionInfo": sendCode(to: number, tenantId: account.tenantId)]]
    }

    func mfaSignInFinalize(_ body: JSONBody) throws(APIError) -> [String: Any] {
        guard let credential = try body.string("mfaPendingCredential") else {
            throw .badRequest("MISSING_CREDENTIAL : Please set MFA Pending Credential.")
        }
        let (pending, account) = try pendingSignIn(credential)
        let enrollment: MfaEnrollment
        if let phone = try body.object("phoneVerificationInfo") {
            let number = try verifyCode(phone)
            guard let match = account.mfaEnrollments.first(where: { if case .phone(number) = $0.kind { true } else { false } }) else {
                throw .badRequest("MFA_ENROLLMENT_NOT_FOUND")
            }
            enrollment = match
        } else if let totp = try body.object("totpVerificationInfo") {
            guard let enrollmentId = try body.string("mfaEnrollmentId") else { throw .badRequest("MISSING_MFA_ENROLLMENT_ID") }
            guard let match = account.mfaEnrollments.first(where: { $0.id == enrollmentId }), case .totp(let secret) = match.kind else {
                throw .badRequest("MFA_ENROLLMENT_NOT_FOUND")
            }
            guard let code = try totp.string("verificationCode"), !code.isEmpty else { throw .badRequest("MISSING_CODE") }
            guard TOTP.verify(code, secret: secret, at: now()) else { throw .badRequest("INVALID_CODE") }
            enrollment = match
        } else {
            throw .badRequest("INVALID_ARGUMENT : MFA provider not supported!")
        }
        pendingMfaSignIns[credential] = nil
        var signedIn = account
        signedIn.lastLoginAt = now()
        accounts[signedIn.key] = signedIn
        guard !signedIn.disabled else { throw .badRequest("USER_DISABLED") }
        let sessionClaims = try runSignInFunctions(&signedIn, isNewUser: false, signInMethod: pending.signInProvider,
                                                   details: ["sign_in_second_factor": enrollment.factorId])
        let tokens = issueTokens(for: signedIn, signInProvider: pending.signInProvider,
                                 secondFactor: SecondFactorClaim(factorId: enrollment.factorId, enrollmentId: enrollment.id),
                                 developerClaims: sessionClaims)
        // The v2 answer: tokens without a lifetime.
        return ["idToken": tokens["idToken"]!, "refreshToken": tokens["refreshToken"]!]
    }

    private func pendingSignIn(_ credential: String) throws(APIError) -> (PendingMfaSignIn, Account) {
        guard let pending = pendingMfaSignIns[credential], pending.expiresAt > now() else {
            throw .badRequest("INVALID_MFA_PENDING_CREDENTIAL")
        }
        guard let account = accounts[AccountKey(tenantId: pending.tenantId, localId: pending.localId)] else { throw .badRequest("USER_NOT_FOUND") }
        return (pending, account)
    }

    // MARK: - Enrolment

    func mfaEnrollmentStart(_ body: JSONBody) throws(APIError) -> [String: Any] {
        let account = try accountForEnrollment(body)
        guard account.mfaEnrollments.count < configuration.multiFactor.maximumEnrollments else {
            throw .badRequest("SECOND_FACTOR_LIMIT_EXCEEDED")
        }
        if let phone = try body.object("phoneEnrollmentInfo") {
            guard configuration.multiFactor.phone else { throw .badRequest("OPERATION_NOT_ALLOWED : SMS based MFA not enabled.") }
            guard let number = try phone.string("phoneNumber"), Self.isPhoneNumber(number) else {
                throw .badRequest("INVALID_PHONE_NUMBER : Invalid format.")
            }
            guard !account.mfaEnrollments.contains(where: { if case .phone(number) = $0.kind { true } else { false } }) else {
                throw .badRequest("SECOND_FACTOR_EXISTS : Phone number already enrolled as second factor for this account.")
            }
            try checkPhoneRecaptcha(phone, action: "mfaSmsEnrollment")
            return ["phoneSessionInfo": ["sessionInfo": sendCode(to: number, tenantId: account.tenantId)]]
        }
        guard try body.object("totpEnrollmentInfo") != nil, !configuration.profile.has(.noTotp) else {
            throw .badRequest("INVALID_ARGUMENT : ((Missing phoneEnrollmentInfo.))")
        }
        guard configuration.multiFactor.totp else { throw .badRequest("OPERATION_NOT_ALLOWED : TOTP based MFA not enabled.") }
        var generator = SystemRandomNumberGenerator()
        let secret = Base32.encode((0..<20).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let sessionInfo = "AMtotp" + RandomToken.make(bytes: 48)
        let deadline = now().addingTimeInterval(Self.mfaSessionLifetime)
        totpEnrollments[sessionInfo] = PendingTotpEnrollment(localId: account.localId, secret: secret, expiresAt: deadline)
        return ["totpSessionInfo": [
            "sharedSecretKey": secret, "verificationCodeLength": 6, "hashingAlgorithm": "SHA1", "periodSec": 30,
            "sessionInfo": sessionInfo, "finalizeEnrollmentTime": deadline.formatted(.iso8601),
        ]]
    }

    func mfaEnrollmentFinalize(_ body: JSONBody) throws(APIError) -> [String: Any] {
        var account = try accountForEnrollment(body)
        let kind: MfaEnrollment.Kind
        if let phone = try body.object("phoneVerificationInfo") {
            let number = try verifyCode(phone)
            guard !account.mfaEnrollments.contains(where: { if case .phone(number) = $0.kind { true } else { false } }) else {
                throw .badRequest("SECOND_FACTOR_EXISTS : Phone number already enrolled as second factor for this account.")
            }
            kind = .phone(number)
        } else if let totp = try body.object("totpVerificationInfo") {
            guard let sessionInfo = try totp.string("sessionInfo") else { throw .badRequest("MISSING_SESSION_INFO") }
            guard let pending = totpEnrollments[sessionInfo], pending.localId == account.localId else { throw .badRequest("INVALID_SESSION_INFO") }
            guard pending.expiresAt > now() else { throw .badRequest("SESSION_EXPIRED") }
            guard let code = try totp.string("verificationCode"), !code.isEmpty else { throw .badRequest("MISSING_CODE") }
            guard TOTP.verify(code, secret: pending.secret, at: now()) else { throw .badRequest("INVALID_CODE") }
            totpEnrollments[sessionInfo] = nil
            kind = .totp(secret: pending.secret)
        } else {
            throw .badRequest("INVALID_ARGUMENT : MFA provider not supported!")
        }
        let enrollment = MfaEnrollment(id: RandomToken.localId(), displayName: try body.string("displayName"), enrolledAt: now(), kind: kind)
        account.mfaEnrollments.append(enrollment)
        accounts[account.key] = account
        let provider = try verifiedToken(try body.string("idToken") ?? "").token.signInProvider
        let tokens = issueTokens(for: account, signInProvider: provider,
                                 secondFactor: SecondFactorClaim(factorId: enrollment.factorId, enrollmentId: enrollment.id))
        return ["idToken": tokens["idToken"]!, "refreshToken": tokens["refreshToken"]!]
    }

    func mfaEnrollmentWithdraw(_ body: JSONBody) throws(APIError) -> [String: Any] {
        guard let idToken = try body.string("idToken") else { throw .badRequest("MISSING_ID_TOKEN") }
        let (found, token) = try verifiedToken(idToken)
        var account = found
        try requireRecentSignIn(token)
        guard let enrollmentId = try body.string("mfaEnrollmentId"), account.mfaEnrollments.contains(where: { $0.id == enrollmentId }) else {
            throw .badRequest("MFA_ENROLLMENT_NOT_FOUND")
        }
        account.mfaEnrollments.removeAll { $0.id == enrollmentId }
        account.withdrewLastSecondFactor = account.mfaEnrollments.isEmpty
        accounts[account.key] = account
        let tokens = issueTokens(for: account, signInProvider: token.signInProvider)
        return ["idToken": tokens["idToken"]!, "refreshToken": tokens["refreshToken"]!]
    }

    /// The user of the request's ID token, if it may change second factors: MFA enabled for the
    /// project, a first factor that allows them, a verified email, a recent sign-in.
    private func accountForEnrollment(_ body: JSONBody) throws(APIError) -> Account {
        guard configuration.multiFactor.enabled else { throw .badRequest("OPERATION_NOT_ALLOWED : MFA is not enabled for this project.") }
        guard let idToken = try body.string("idToken") else { throw .badRequest("MISSING_ID_TOKEN") }
        let (account, token) = try verifiedToken(idToken)
        guard !["anonymous", "custom", "phone"].contains(token.signInProvider) else {
            throw .badRequest("UNSUPPORTED_FIRST_FACTOR : MFA is not available for the given first factor.")
        }
        guard account.emailVerified else {
            throw .badRequest("UNVERIFIED_EMAIL : Need to verify email first before enrolling second factors.")
        }
        try requireRecentSignIn(token)
        return account
    }

    private func requireRecentSignIn(_ token: IssuedIDToken) throws(APIError) {
        guard now().timeIntervalSince(token.authTime) <= configuration.recentSignIn else { throw .badRequest("CREDENTIAL_TOO_OLD_LOGIN_AGAIN") }
    }

    // MARK: - Phone numbers

    /// "Sends" a six-digit code and returns the session it belongs to.
    func sendCode(to number: String, tenantId: String?) -> String {
        let sessionInfo = "AMsms" + RandomToken.make(bytes: 48)
        // A test number's code is its fixed one, and nothing is texted (`TestPhoneNumbers`).
        let fixed = testPhoneCode(for: number, tenantId: tenantId)
        var generator = SystemRandomNumberGenerator()
        let code = fixed ?? sixDigits(Int.random(in: 0...999_999, using: &generator))
        phoneVerifications[sessionInfo] = PhoneVerification(
            phoneNumber: number, code: code, sessionInfo: sessionInfo, tenantId: tenantId, expiresAt: now().addingTimeInterval(Self.mfaSessionLifetime),
            texted: fixed == nil)
        if fixed == nil { outbox?("To verify the phone number \(number), use the code \(code).") }
        return sessionInfo
    }

    /// The phone number of a `{sessionInfo, code}` pair, once.
    func verifyCode(_ info: JSONBody) throws(APIError) -> String {
        guard let code = try info.string("code"), !code.isEmpty else { throw .badRequest("MISSING_CODE") }
        guard let sessionInfo = try info.string("sessionInfo"), !sessionInfo.isEmpty else { throw .badRequest("MISSING_SESSION_INFO") }
        guard let verification = phoneVerifications[sessionInfo] else { throw .badRequest("INVALID_SESSION_INFO") }
        guard verification.expiresAt > now() else { throw .badRequest("SESSION_EXPIRED") }
        guard verification.code == code else { throw .badRequest("INVALID_CODE") }
        phoneVerifications[sessionInfo] = nil
        return verification.phoneNumber
    }

    /// E.164: `+` and 8 to 15 digits.
    static func isPhoneNumber(_ text: String) -> Bool {
        text.hasPrefix("+") && (8...15).contains(text.count - 1) && text.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// The SMS codes "sent", as the Auth emulator lists them
    /// (`GET /emulator/v1/projects/PROJECT/verificationCodes`).
    func verificationCodes(tenantId: String?) -> [String: Any] {
        ["verificationCodes": phoneVerifications.values.filter { $0.tenantId == tenantId && $0.texted }.sorted { $0.expiresAt < $1.expiresAt }.map {
            ["phoneNumber": $0.phoneNumber, "sessionInfo": $0.sessionInfo, "code": $0.code]
        }]
    }

    // MARK: - reCAPTCHA

    /// What a phone number's request must carry: a reCAPTCHA Enterprise token for `action` when
    /// the project enforces it (or audits it), else a reCAPTCHA v2 token; nothing for the
    /// official emulator. Tokens come from the test doubles of Google's reCAPTCHA scripts,
    /// which name the site key (and action) they were made for.
    func checkPhoneRecaptcha(_ info: JSONBody?, action: String) throws(APIError) {
        guard configuration.checksRecaptcha, !configuration.profile.has(.noRecaptcha) else { return }
        let siteKey = configuration.recaptchaSiteKey
        if configuration.phoneRecaptcha != .off {
            try checkEnterpriseToken(try info?.string("captchaResponse"), clientType: try info?.string("clientType"),
                                     version: try info?.string("recaptchaVersion"), action: action)
            return
        }
        guard let token = try info?.string("recaptchaToken"), !token.isEmpty else { throw .badRequest("MISSING_RECAPTCHA_TOKEN") }
        guard token == "\(Self.v2TokenPrefix).\(siteKey)" else { throw .badRequest("CAPTCHA_CHECK_FAILED") }
    }

    /// A reCAPTCHA Enterprise token with its fields, as production checks them (in this order).
    func checkEnterpriseToken(_ token: String?, clientType: String?, version: String?, action: String) throws(APIError) {
        guard let token, !token.isEmpty else { throw .badRequest("MISSING_RECAPTCHA_TOKEN") }
        guard clientType != nil else { throw .badRequest("MISSING_CLIENT_TYPE") }
        guard version == "RECAPTCHA_ENTERPRISE" else { throw .badRequest("MISSING_RECAPTCHA_VERSION") }
        let prefix = "\(Self.enterpriseTokenPrefix).\(configuration.recaptchaSiteKey)."
        guard token.hasPrefix(prefix) else { throw .badRequest("INVALID_RECAPTCHA_TOKEN") }
        guard token.dropFirst(prefix.count) == action else { throw .badRequest("INVALID_RECAPTCHA_ACTION") }
    }

    static let enterpriseTokenPrefix = "fbauth-stand-in-recaptcha-enterprise"
    static let v2TokenPrefix = "fbauth-stand-in-recaptcha-v2"

    /// `GET /v2/recaptchaConfig` (`GoogleCloudIdentitytoolkitV2RecaptchaConfig`). The official
    /// emulator does not implement it.
    func recaptchaConfig() throws(APIError) -> [String: Any] {
        guard configuration.checksRecaptcha, !configuration.profile.has(.noRecaptcha) else { throw APIError.notImplemented }
        return [
            "recaptchaKey": "projects/\(configuration.projectId)/keys/\(configuration.recaptchaSiteKey)",
            "recaptchaEnforcementState": [
                ["provider": "EMAIL_PASSWORD_PROVIDER", "enforcementState": configuration.passwordRecaptchaEnforced ? "ENFORCE" : "OFF"],
                ["provider": "PHONE_PROVIDER", "enforcementState": configuration.phoneRecaptcha.rawValue],
            ],
        ]
    }

    /// `GET /v1/recaptchaParams`: the reCAPTCHA v2 site key. The official emulator answers with
    /// a fake key that clients must not use.
    func recaptchaParams() -> [String: Any] {
        guard configuration.profile.has(.fakeRecaptchaSiteKey) else {
            return ["kind": "identitytoolkit#GetRecaptchaParamResponse", "recaptchaSiteKey": configuration.recaptchaSiteKey]
        }
        return ["kind": "identitytoolkit#GetRecaptchaParamResponse",
                "recaptchaStoken": "This-is-a-fake-token__Dont-send-this-to-the-Recaptcha-service__The-Auth-Emulator-does-not-support-Recaptcha",
                "recaptchaSiteKey": "Fake-key__Do-not-send-this-to-Recaptcha_"]
    }
}

/// A number as six digits, leading zeros kept.
func sixDigits(_ value: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
}
