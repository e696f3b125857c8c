/// A first factor that needs a second one: instead of tokens, the server answered with a pending
/// credential and the user's second factors (firebase-js-sdk `mfa/mfa_error.ts`,
/// `MultiFactorError`; the Apple SDK's `secondFactorRequired` error with its resolver).
internal struct SecondFactorChallenge: Sendable {
    internal var pendingCredential: String
    /// The enrolled factors to choose from (phone numbers masked).
    internal var factors: [MfaEnrollmentInfo]
    /// What the sign-in was for, for messages ("sign-in", "reauthentication").
    internal var action: String
}

/// Completes a sign-in with a second factor (the SDKs' `MultiFactorResolver.resolveSignIn`):
/// picks a factor, gets its code, and finishes through `SecondFactorSignIn`. fbauth's command
/// line asks the user at the terminal; a program may answer from anywhere.
internal protocol SecondFactorResolver: Sendable {
    func resolve(_ challenge: SecondFactorChallenge, with signIn: SecondFactorSignIn) throws(FBAuthError) -> SecondFactorResult
}

/// The tokens a second factor produced, and which factor it was.
internal struct SecondFactorResult: Sendable {
    internal var tokens: IssuedTokens
    internal var factor: MfaEnrollmentInfo

    internal init(tokens: IssuedTokens, factor: MfaEnrollmentInfo) {
        self.tokens = tokens
        self.factor = factor
    }
}

/// The calls that complete a pending sign-in (`mfaSignIn:start` and `mfaSignIn:finalize`,
/// Identity Toolkit v2), held by the pending credential, which never leaves memory.
internal struct SecondFactorSignIn: Sendable {
    let client: FirebaseAuthClient
    let pendingCredential: String
    let tenantId: String?
    /// Proves a person asks for an SMS code (reCAPTCHA); none for the Auth emulator.
    internal let phoneVerifier: PhoneVerifier

    internal init(client: FirebaseAuthClient, pendingCredential: String, tenantId: String?, phoneVerifier: PhoneVerifier) {
        self.client = client
        self.pendingCredential = pendingCredential
        self.tenantId = tenantId
        self.phoneVerifier = phoneVerifier
    }

    /// Completes the sign-in with a code of the authenticator app enrolled as `factor`.
    internal func finish(totp code: String, factor: MfaEnrollmentInfo) throws(FBAuthError) -> SecondFactorResult {
        try result(client.finalizeSecondFactorSignIn(
            pendingCredential: pendingCredential, enrollmentId: factor.mfaEnrollmentId, code: .totp(code: code, enrollmentSession: nil),
            tenantId: tenantId), factor: factor)
    }

    /// Sends an SMS code to the phone enrolled as `factor` (after the reCAPTCHA step); returns
    /// the session the code belongs to.
    /// `verifier`: instead of the sign-in's own.
    internal func sendCode(to factor: MfaEnrollmentInfo, verifier: PhoneVerifier? = nil) throws(FBAuthError) -> String {
        let verification = try (verifier ?? phoneVerifier).verification(for: .secondFactorSignIn)
        return try client.startPhoneSignIn(pendingCredential: pendingCredential, enrollmentId: factor.mfaEnrollmentId,
                                           verification: verification, tenantId: tenantId)
    }

    /// Completes the sign-in with the SMS code of `sessionInfo`.
    internal func finish(smsCode code: String, sessionInfo: String, factor: MfaEnrollmentInfo) throws(FBAuthError) -> SecondFactorResult {
        try result(client.finalizeSecondFactorSignIn(
            pendingCredential: pendingCredential, enrollmentId: factor.mfaEnrollmentId, code: .phone(sessionInfo: sessionInfo, code: code),
            tenantId: tenantId), factor: factor)
    }

    private func result(_ answer: MfaTokensResponse, factor: MfaEnrollmentInfo) throws(FBAuthError) -> SecondFactorResult {
        guard let idToken = answer.idToken, let refreshToken = answer.refreshToken else {
            throw .badResponse(host: client.endpoints.identityToolkitHost, reason: "mfaSignIn:finalize returned no idToken or refreshToken")
        }
        return SecondFactorResult(tokens: IssuedTokens(idToken: idToken, refreshToken: refreshToken, expiresIn: nil), factor: factor)
    }
}

/// How a flow completes a sign-in that needs a second factor: who is asked, and how a phone
/// number's reCAPTCHA step is done. Without one, such a sign-in fails with
/// `secondFactorRequired`.
internal struct SecondFactorHandling: Sendable {
    internal var resolver: SecondFactorResolver
    internal var phoneVerifier: PhoneVerifier

    internal init(resolver: SecondFactorResolver, phoneVerifier: PhoneVerifier) {
        self.resolver = resolver
        self.phoneVerifier = phoneVerifier
    }

    /// Completes `challenge`, or says what is missing when nobody can be asked.
    static func complete(_ challenge: SecondFactorChallenge, with handling: SecondFactorHandling?, client: FirebaseAuthClient,
                         tenantId: String?) throws(FBAuthError) -> SecondFactorResult {
        guard let handling else {
            throw .failed(.secondFactorRequired, "\(challenge.action) needs a second factor (multi-factor authentication), and nothing here can ask for it")
        }
        return try handling.resolver.resolve(challenge, with: SecondFactorSignIn(
            client: client, pendingCredential: challenge.pendingCredential, tenantId: tenantId, phoneVerifier: handling.phoneVerifier))
    }
}

/// Why a phone number is being verified: the reCAPTCHA action of each (firebase-js-sdk
/// `api/index.ts`, `RecaptchaActionName`).
internal enum PhoneVerificationPurpose: Sendable {
    case secondFactorSignIn, secondFactorEnrollment
    /// A phone number as the first factor (`sendVerificationCode`).
    case signIn

    internal var recaptchaAction: String {
        switch self {
        case .signIn: "sendVerificationCode"
        case .secondFactorSignIn: "mfaSmsSignIn"
        case .secondFactorEnrollment: "mfaSmsEnrollment"
        }
    }
}

/// Proves that a person asks for an SMS code: the fields a phone number's request carries.
internal protocol PhoneVerifier: Sendable {
    func verification(for purpose: PhoneVerificationPurpose) throws(FBAuthError) -> PhoneVerificationFields
}

/// No reCAPTCHA step: for servers that check none (the Auth emulator) and programs that never
/// use SMS factors.
internal struct NoPhoneVerification: PhoneVerifier {
    internal init() {}
    internal func verification(for purpose: PhoneVerificationPurpose) throws(FBAuthError) -> PhoneVerificationFields { .none }
}
