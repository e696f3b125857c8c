#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP
import FBAuthSupport

/// Adds and removes a user's second factors (the SDKs' `multiFactor(user)`: `getSession`,
/// `enroll`, `unenroll`; `TotpMultiFactorGenerator.generateSecret`), through Identity Toolkit v2
/// `mfaEnrollment:*`. Each step that answers with tokens renews the saved session, which then
/// takes the factors as `accounts:lookup` reports them.
internal struct SecondFactorEnrollment {
    let client: FirebaseAuthClient
    let store: SessionStore
    let project: ProjectKey
    let tenantId: String?
    let clock: WallClock

    internal init(client: FirebaseAuthClient, store: SessionStore, project: ProjectKey, tenantId: String?, clock: WallClock) {
        self.client = client
        self.store = store
        self.project = project
        self.tenantId = tenantId
        self.clock = clock
    }

    /// The user's second factors, fresh from the server (and saved with the session).
    internal func factors(of session: Session) throws(FBAuthError) -> [MfaEnrollmentInfo] {
        let account = try client.lookup(idToken: session.idToken)
        try save(session, tokens: nil, account: account)
        return account.mfaInfo
    }

    /// A new TOTP secret for the user's authenticator app.
    internal func startTOTP(for session: Session) throws(FBAuthError) -> TotpSecret {
        try client.startTotpEnrollment(idToken: session.idToken, tenantId: tenantId)
    }

    /// Completes a TOTP enrolment with a code the app shows for `secret`.
    internal func finishTOTP(_ secret: TotpSecret, code: String, name: String?, for session: Session) throws(FBAuthError) -> Session {
        try renew(session, with: client.finalizeEnrollment(
            idToken: session.idToken, code: .totp(code: code, enrollmentSession: secret.sessionInfo), displayName: name, tenantId: tenantId))
    }

    /// Sends a code to `phoneNumber` (after the reCAPTCHA step of `verifier`); returns its session.
    internal func sendCode(to phoneNumber: String, for session: Session, verifier: PhoneVerifier) throws(FBAuthError) -> String {
        try client.startPhoneEnrollment(idToken: session.idToken, phoneNumber: phoneNumber,
                                        verification: verifier.verification(for: .secondFactorEnrollment), tenantId: tenantId)
    }

    /// Completes an SMS enrolment with the code sent for `sessionInfo`.
    internal func finishPhone(sessionInfo: String, code: String, name: String?, for session: Session) throws(FBAuthError) -> Session {
        try renew(session, with: client.finalizeEnrollment(
            idToken: session.idToken, code: .phone(sessionInfo: sessionInfo, code: code), displayName: name, tenantId: tenantId))
    }

    /// Removes the factor `enrollmentId`.
    internal func withdraw(_ enrollmentId: String, for session: Session) throws(FBAuthError) -> Session {
        try renew(session, with: client.withdrawSecondFactor(idToken: session.idToken, enrollmentId: enrollmentId, tenantId: tenantId))
    }

    private func renew(_ session: Session, with answer: MfaTokensResponse) throws(FBAuthError) -> Session {
        try renewal.renew(session, idToken: answer.idToken, refreshToken: answer.refreshToken, expiresIn: nil, client: client)
    }

    private var renewal: SessionRenewal { SessionRenewal(store: store, project: project, clock: clock) }

    @discardableResult
    private func save(_ session: Session, tokens: IssuedTokens?, account: AccountInfo) throws(FBAuthError) -> Session {
        try renewal.save(session, tokens: tokens, account: account)
    }
}

extension TotpSecret {
    /// The `otpauth://` URI authenticator apps scan (Google Authenticator's key URI format, as
    /// the JS SDK's `TotpSecret.generateQrCodeUrl` builds it): `ISSUER:ACCOUNT` as the label.
    /// `algorithm`, `digits` and `period` are left out where they are the format's defaults
    /// (SHA1, 6, 30, which Firebase uses): every app assumes them, and the shorter URI makes a
    /// QR code small enough for an 80×24 terminal.
    internal func uri(account: String, issuer: String) -> String {
        let label = FormEncoding.percentEncode(issuer) + ":" + FormEncoding.percentEncode(account)
        var parameters = [("secret", sharedSecretKey), ("issuer", issuer)]
        if hashingAlgorithm.uppercased() != "SHA1" { parameters.append(("algorithm", hashingAlgorithm)) }
        if verificationCodeLength != 6 { parameters.append(("digits", String(verificationCodeLength))) }
        if periodSec != 30 { parameters.append(("period", String(periodSec))) }
        return "otpauth://totp/\(label)?" + FormEncoding.encode(parameters)
    }
}
