#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A user's second factors, as the Apple SDK's `MultiFactor` (`user.multiFactor`): what is
/// enrolled, an authenticator app enrolled (`TOTPEnrollmentSecret`, then `enroll`), a factor removed. Each
/// needs a recent sign-in and a verified email, as in the SDK. SMS enrolment is left to
/// `fbauth mfa enroll phone`, which runs the reCAPTCHA step in a browser.
package struct SecondFactors: Sendable {
    let user: SignedInUser

    /// `enrolledFactors`, as the saved session last saw them (`SignedInUser.reload()` asks again).
    package var enrolledFactors: [EnrolledSecondFactor] {
        let sessions = (try? user.auth.store.load().project(user.auth.project)?.sessions) ?? nil
        let session = sessions?.first { $0.reference == user.reference }
        return (session?.enrolledFactors ?? []).map {
            EnrolledSecondFactor(uid: $0.uid, factorID: $0.factorId, displayName: $0.displayName, enrollmentDate: $0.enrollmentTime, phoneNumber: $0.phoneNumber)
        }
    }

    /// `TOTPFactorProofs.generateSecret(with: multiFactor.getSession())` in one step:
    /// Firebase's secret for an authenticator app, to show as `qrCodeURL` or type.
    package func generateTOTPSecret() async throws(FBAuthError) -> TOTPEnrollmentSecret { try await user.auth.inBackground(totpSecret) }

    /// The same with a completion handler.
    package func generateTOTPSecret(completion: @escaping @Sendable (Result<TOTPEnrollmentSecret, FBAuthError>) -> Void) {
        user.auth.onBackground(totpSecret, completion)
    }

    /// `enroll(with: TOTPFactorProofs.assertionForEnrollment(with: secret, oneTimePassword:), displayName:)`.
    /// A wrong code throws (`isWrongSecondFactorCode`); the secret may be tried again.
    package func enroll(_ secret: TOTPEnrollmentSecret, oneTimePassword: String, displayName: String?) async throws(FBAuthError) {
        _ = try await user.auth.inBackground(enrolling(secret, oneTimePassword: oneTimePassword, displayName: displayName))
    }

    /// The same with a completion handler; the updated user.
    package func enroll(_ secret: TOTPEnrollmentSecret, oneTimePassword: String, displayName: String?,
                       completion: @escaping @Sendable (Result<SignedInUser, FBAuthError>) -> Void) {
        user.auth.onBackground(enrolling(secret, oneTimePassword: oneTimePassword, displayName: displayName), completion)
    }

    /// `PhoneAuthProvider.verifyPhoneNumber(_:multiFactorSession:)` for an enrolment: Firebase
    /// sends a code by SMS to `phoneNumber` (E.164), after the reCAPTCHA step when
    /// `AuthServiceSettings.recaptchaInBrowser` is on; the verification id.
    package func sendEnrollmentSMS(to phoneNumber: String, verifyingApp: Bool = true) async throws(FBAuthError) -> String {
        try await user.auth.inBackground(sendingSMS(to: phoneNumber, verifyingApp: verifyingApp))
    }

    /// The same with a completion handler.
    package func sendEnrollmentSMS(to phoneNumber: String, completion: @escaping @Sendable (Result<String, FBAuthError>) -> Void) {
        user.auth.onBackground(sendingSMS(to: phoneNumber, verifyingApp: true), completion)
    }

    /// `enroll(with: PhoneFactorProofs.assertion(with: credential), displayName:)`:
    /// the code of the SMS `sendEnrollmentSMS` sent.
    package func enroll(phoneVerificationID verificationID: String, verificationCode: String, displayName: String?) async throws(FBAuthError) {
        _ = try await user.auth.inBackground(enrollingPhone(verificationID, code: verificationCode, displayName: displayName))
    }

    /// The same with a completion handler; the updated user.
    package func enroll(phoneVerificationID verificationID: String, verificationCode: String, displayName: String?,
                       completion: @escaping @Sendable (Result<SignedInUser, FBAuthError>) -> Void) {
        user.auth.onBackground(enrollingPhone(verificationID, code: verificationCode, displayName: displayName), completion)
    }

    /// `unenroll(withFactorUID:)`.
    package func unenroll(withFactorUID uid: String) async throws(FBAuthError) {
        _ = try await user.auth.inBackground(unenrolling(uid))
    }

    /// The same with a completion handler; the updated user.
    package func unenroll(withFactorUID uid: String, completion: @escaping @Sendable (Result<SignedInUser, FBAuthError>) -> Void) {
        user.auth.onBackground(unenrolling(uid), completion)
    }

    private var totpSecret: @Sendable () throws(FBAuthError) -> TOTPEnrollmentSecret {
        user.withSession { (session, auth) throws(FBAuthError) -> TOTPEnrollmentSecret in TOTPEnrollmentSecret(secret: try auth.enrollment().startTOTP(for: session)) }
    }

    private func enrolling(_ secret: TOTPEnrollmentSecret, oneTimePassword: String, displayName: String?) -> @Sendable () throws(FBAuthError) -> SignedInUser {
        user.withSession { (session, auth) throws(FBAuthError) -> SignedInUser in
            SignedInUser(try auth.enrollment().finishTOTP(secret.secret, code: oneTimePassword, name: displayName, for: session), auth: auth)
        }
    }

    private func sendingSMS(to phoneNumber: String, verifyingApp: Bool) -> @Sendable () throws(FBAuthError) -> String {
        user.withSession { (session, auth) throws(FBAuthError) -> String in
            try auth.enrollment().sendCode(to: phoneNumber, for: session, verifier: verifyingApp ? auth.phoneVerifier : NoPhoneVerification())
        }
    }

    private func enrollingPhone(_ verificationID: String, code: String, displayName: String?) -> @Sendable () throws(FBAuthError) -> SignedInUser {
        user.withSession { (session, auth) throws(FBAuthError) -> SignedInUser in
            SignedInUser(try auth.enrollment().finishPhone(sessionInfo: verificationID, code: code, name: displayName, for: session), auth: auth)
        }
    }

    private func unenrolling(_ uid: String) -> @Sendable () throws(FBAuthError) -> SignedInUser {
        user.withSession { (session, auth) throws(FBAuthError) -> SignedInUser in SignedInUser(try auth.enrollment().withdraw(uid, for: session), auth: auth) }
    }
}

/// The SDK's `TOTPSecret`: an authenticator app's shared secret, for one enrolment.
package struct TOTPEnrollmentSecret: Sendable, Equatable {
    let secret: TotpSecret

    /// Base32, for typing into the app.
    package var sharedSecretKey: String { secret.sharedSecretKey }
    /// How many digits the app shows (6 to 8).
    package var codeLength: Int { secret.verificationCodeLength }

    /// `generateQRCodeURL(withAccountName:issuer:)`: the `otpauth://` URI to draw as a QR code.
    package func generateQRCodeURL(withAccountName account: String, issuer: String) -> String {
        secret.uri(account: account, issuer: issuer)
    }
}

extension SignedInUser {
    /// `multiFactor`: this user's second factors.
    package var multiFactor: SecondFactors { SecondFactors(user: self) }
}

extension AuthService {
    func enrollment() -> SecondFactorEnrollment {
        SecondFactorEnrollment(client: client(), store: store, project: project, tenantId: tenantID, clock: clock)
    }
}
