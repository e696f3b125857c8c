#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A user's second factors, as the Apple SDK's `MultiFactor` (`user.multiFactor`): what is
/// enrolled, an authenticator app enrolled (`TOTPSecret`, then `enroll`), a factor removed. Each
/// needs a recent sign-in and a verified email, as in the SDK. SMS enrolment is left to
/// `fbauth mfa enroll phone`, which runs the reCAPTCHA step in a browser.
public struct MultiFactor: Sendable {
    let user: User

    /// `enrolledFactors`, as the saved session last saw them (`User.reload()` asks again).
    public var enrolledFactors: [MultiFactorInfo] {
        let sessions = (try? user.auth.store.load().project(user.auth.project)?.sessions) ?? nil
        let session = sessions?.first { $0.reference == user.reference }
        return (session?.enrolledFactors ?? []).map {
            MultiFactorInfo(uid: $0.uid, factorID: $0.factorId, displayName: $0.displayName, enrollmentDate: $0.enrollmentTime, phoneNumber: $0.phoneNumber)
        }
    }

    /// `TOTPMultiFactorGenerator.generateSecret(with: multiFactor.getSession())` in one step:
    /// Firebase's secret for an authenticator app, to show as `qrCodeURL` or type.
    public func generateTOTPSecret() async throws(FBAuthError) -> TOTPSecret { try await user.auth.inBackground(totpSecret) }

    /// The same with a completion handler.
    public func generateTOTPSecret(completion: @escaping @Sendable (Result<TOTPSecret, FBAuthError>) -> Void) {
        user.auth.onBackground(totpSecret, completion)
    }

    /// `enroll(with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword:), displayName:)`.
    /// A wrong code throws (`isWrongSecondFactorCode`); the secret may be tried again.
    public func enroll(_ secret: TOTPSecret, oneTimePassword: String, displayName: String?) async throws(FBAuthError) {
        _ = try await user.auth.inBackground(enrolling(secret, oneTimePassword: oneTimePassword, displayName: displayName))
    }

    /// The same with a completion handler; the updated user.
    public func enroll(_ secret: TOTPSecret, oneTimePassword: String, displayName: String?,
                       completion: @escaping @Sendable (Result<User, FBAuthError>) -> Void) {
        user.auth.onBackground(enrolling(secret, oneTimePassword: oneTimePassword, displayName: displayName), completion)
    }

    /// `PhoneAuthProvider.verifyPhoneNumber(_:multiFactorSession:)` for an enrolment: Firebase
    /// sends a code by SMS to `phoneNumber` (E.164), after the reCAPTCHA step when
    /// `AuthSettings.recaptchaInBrowser` is on; the verification id.
    public func sendEnrollmentSMS(to phoneNumber: String) async throws(FBAuthError) -> String {
        try await user.auth.inBackground(sendingSMS(to: phoneNumber))
    }

    /// The same with a completion handler.
    public func sendEnrollmentSMS(to phoneNumber: String, completion: @escaping @Sendable (Result<String, FBAuthError>) -> Void) {
        user.auth.onBackground(sendingSMS(to: phoneNumber), completion)
    }

    /// `enroll(with: PhoneMultiFactorGenerator.assertion(with: credential), displayName:)`:
    /// the code of the SMS `sendEnrollmentSMS` sent.
    public func enroll(phoneVerificationID verificationID: String, verificationCode: String, displayName: String?) async throws(FBAuthError) {
        _ = try await user.auth.inBackground(enrollingPhone(verificationID, code: verificationCode, displayName: displayName))
    }

    /// The same with a completion handler; the updated user.
    public func enroll(phoneVerificationID verificationID: String, verificationCode: String, displayName: String?,
                       completion: @escaping @Sendable (Result<User, FBAuthError>) -> Void) {
        user.auth.onBackground(enrollingPhone(verificationID, code: verificationCode, displayName: displayName), completion)
    }

    /// `unenroll(withFactorUID:)`.
    public func unenroll(withFactorUID uid: String) async throws(FBAuthError) {
        _ = try await user.auth.inBackground(unenrolling(uid))
    }

    /// The same with a completion handler; the updated user.
    public func unenroll(withFactorUID uid: String, completion: @escaping @Sendable (Result<User, FBAuthError>) -> Void) {
        user.auth.onBackground(unenrolling(uid), completion)
    }

    private var totpSecret: @Sendable () throws(FBAuthError) -> TOTPSecret {
        user.withSession { (session, auth) throws(FBAuthError) -> TOTPSecret in TOTPSecret(secret: try auth.enrollment().startTOTP(for: session)) }
    }

    private func enrolling(_ secret: TOTPSecret, oneTimePassword: String, displayName: String?) -> @Sendable () throws(FBAuthError) -> User {
        user.withSession { (session, auth) throws(FBAuthError) -> User in
            User(try auth.enrollment().finishTOTP(secret.secret, code: oneTimePassword, name: displayName, for: session), auth: auth)
        }
    }

    private func sendingSMS(to phoneNumber: String) -> @Sendable () throws(FBAuthError) -> String {
        user.withSession { (session, auth) throws(FBAuthError) -> String in
            try auth.enrollment().sendCode(to: phoneNumber, for: session, verifier: auth.phoneVerifier)
        }
    }

    private func enrollingPhone(_ verificationID: String, code: String, displayName: String?) -> @Sendable () throws(FBAuthError) -> User {
        user.withSession { (session, auth) throws(FBAuthError) -> User in
            User(try auth.enrollment().finishPhone(sessionInfo: verificationID, code: code, name: displayName, for: session), auth: auth)
        }
    }

    private func unenrolling(_ uid: String) -> @Sendable () throws(FBAuthError) -> User {
        user.withSession { (session, auth) throws(FBAuthError) -> User in User(try auth.enrollment().withdraw(uid, for: session), auth: auth) }
    }
}

/// The SDK's `TOTPSecret`: an authenticator app's shared secret, for one enrolment.
public struct TOTPSecret: Sendable, Equatable {
    let secret: TotpSecret

    /// Base32, for typing into the app.
    public var sharedSecretKey: String { secret.sharedSecretKey }
    /// How many digits the app shows (6 to 8).
    public var codeLength: Int { secret.verificationCodeLength }

    /// `generateQRCodeURL(withAccountName:issuer:)`: the `otpauth://` URI to draw as a QR code.
    public func generateQRCodeURL(withAccountName account: String, issuer: String) -> String {
        secret.uri(account: account, issuer: issuer)
    }
}

extension User {
    /// `multiFactor`: this user's second factors.
    public var multiFactor: MultiFactor { MultiFactor(user: self) }
}

extension Auth {
    func enrollment() -> SecondFactorEnrollment {
        SecondFactorEnrollment(client: client(), store: store, project: project, tenantId: tenantID, clock: clock)
    }
}
