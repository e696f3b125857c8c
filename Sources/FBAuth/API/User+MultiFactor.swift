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
    public func generateTOTPSecret() async throws(FBAuthError) -> TOTPSecret {
        let user = user
        return try await user.auth.inBackground { () throws(FBAuthError) -> TOTPSecret in
            let session = try user.auth.refresher().session(.exactly(user.reference), minValid: 60)
            return TOTPSecret(secret: try user.auth.enrollment().startTOTP(for: session))
        }
    }

    /// `enroll(with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword:), displayName:)`.
    public func enroll(_ secret: TOTPSecret, oneTimePassword: String, displayName: String?) async throws(FBAuthError) {
        let user = user
        _ = try await user.auth.inBackground { () throws(FBAuthError) -> Session in
            let session = try user.auth.refresher().session(.exactly(user.reference), minValid: 60)
            return try user.auth.enrollment().finishTOTP(secret.secret, code: oneTimePassword, name: displayName, for: session)
        }
    }

    /// `unenroll(withFactorUID:)`.
    public func unenroll(withFactorUID uid: String) async throws(FBAuthError) {
        let user = user
        _ = try await user.auth.inBackground { () throws(FBAuthError) -> Session in
            let session = try user.auth.refresher().session(.exactly(user.reference), minValid: 60)
            return try user.auth.enrollment().withdraw(uid, for: session)
        }
    }
}

/// The SDK's `TOTPSecret`: an authenticator app's shared secret, for one enrolment.
public struct TOTPSecret: Sendable, Equatable {
    let secret: TotpSecret

    /// Base32, for typing into the app.
    public var sharedSecretKey: String { secret.sharedSecretKey }

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
