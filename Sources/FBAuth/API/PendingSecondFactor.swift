#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport

/// A sign-in that needs a second factor, as the Apple SDK's `MultiFactorResolver`
/// (`FirebaseAuth/Sources/Swift/MultiFactor/MultiFactorResolver.swift`): thrown inside
/// `FBAuthError.secondFactorRequired` by any sign-in, reauthentication or link of `AuthService`; the
/// program picks one of `hints`, gets its code, and finishes with `resolveSignIn(with:)`. The
/// pending credential stays in memory. Unlike the SDK, an SMS is asked for here
/// (`sendSMS(to:)`): a program outside an app has no `PhoneAuthProvider` UI, and its request
/// carries no reCAPTCHA token, which production projects that enforce reCAPTCHA refuse (the
/// command line's `fbauth` runs that step in the browser).
package struct PendingSecondFactor: Sendable {
    /// The user's second factors to choose from (phone numbers masked).
    package let hints: [EnrolledSecondFactor]
    let auth: AuthService
    let enrollments: [MfaEnrollmentInfo]
    let signIn: SecondFactorSignIn

    /// Asks Firebase to send a code by SMS to the phone of `hint`; returns the verification id
    /// for `PhoneFactorProofs.assertion(withVerificationID:verificationCode:)`.
    /// `verifyingApp` false skips reCAPTCHA (the SDK's `isAppVerificationDisabledForTesting`).
    package func sendSMS(to hint: EnrolledSecondFactor, verifyingApp: Bool = true) async throws(FBAuthError) -> String {
        let factor = try enrollment(hint.uid)
        let signIn = signIn
        let verifier: PhoneVerifier? = verifyingApp ? nil : NoPhoneVerification()
        return try await auth.inBackground { () throws(FBAuthError) in try signIn.sendCode(to: factor, verifier: verifier) }
    }

    /// `resolveSignIn(with:)`: finishes the sign-in with a factor's code, saves the session and
    /// makes it current.
    package func resolveSignIn(with assertion: SecondFactorProof) async throws(FBAuthError) -> AuthOutcome {
        let factor = try enrollment(assertion.enrollmentID)
        let (auth, signIn) = (auth, signIn)
        return try await auth.signInSaving { () throws(FBAuthError) -> SignInRecord in
            let result = switch assertion.kind {
            case .totp(let code): try signIn.finish(totp: code, factor: factor)
            case .phone(let verificationID, let code): try signIn.finish(smsCode: code, sessionInfo: verificationID, factor: factor)
            }
            // As the SDKs: the method is the token's sign_in_provider (anonymous and custom: none).
            let method = IDTokenClaims.payload(of: result.tokens.idToken)?["firebase"]?["sign_in_provider"]?.stringValue
                .flatMap { ["anonymous", "custom"].contains($0) ? nil : $0 }
            return SignInRecord(tokens: result.tokens, idp: nil, account: try auth.client().lookup(idToken: result.tokens.idToken), method: method,
                                isNewUser: false, tenantId: auth.tenantID, receivedAt: auth.clock.now(), secondFactor: result.factor)
        }
    }

    private func enrollment(_ id: String) throws(FBAuthError) -> MfaEnrollmentInfo {
        guard let factor = enrollments.first(where: { $0.mfaEnrollmentId == id }) else {
            throw .usage("'\(TerminalText.safe(String(id.prefix(60))))' is none of this account's second factors")
        }
        return factor
    }
}

/// One second factor of a user, as the SDK's `MultiFactorInfo` (and `PhoneMultiFactorInfo`).
package struct EnrolledSecondFactor: Sendable, Equatable {
    /// The enrollment id.
    package let uid: String
    /// `totp` or `phone`.
    package let factorID: String
    package let displayName: String?
    package let enrollmentDate: Date?
    /// Phone factors only, masked in a sign-in's hints (`+*******0100`).
    package let phoneNumber: String?

    init(_ info: MfaEnrollmentInfo) {
        self.init(uid: info.mfaEnrollmentId, factorID: info.factorId, displayName: info.displayName, enrollmentDate: info.enrolledAt,
                  phoneNumber: info.phoneInfo)
    }

    package init(uid: String, factorID: String, displayName: String?, enrollmentDate: Date?, phoneNumber: String?) {
        self.uid = uid
        self.factorID = factorID
        self.displayName = displayName
        self.enrollmentDate = enrollmentDate
        self.phoneNumber = phoneNumber
    }
}

/// A second factor's answer, made by `TOTPFactorProofs` or `PhoneFactorProofs`.
package struct SecondFactorProof: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case totp(code: String)
        case phone(verificationID: String, code: String)
    }

    let enrollmentID: String
    let kind: Kind
}

/// The SDK's `TOTPMultiFactorGenerator`, for sign-in.
package enum TOTPFactorProofs {
    /// The code an authenticator app shows for the factor `enrollmentID`.
    package static func assertionForSignIn(withEnrollmentID enrollmentID: String, oneTimePassword: String) -> SecondFactorProof {
        SecondFactorProof(enrollmentID: enrollmentID, kind: .totp(code: oneTimePassword))
    }
}

/// The SDK's `PhoneMultiFactorGenerator`, for sign-in.
package enum PhoneFactorProofs {
    /// The code of the SMS `PendingSecondFactor.sendSMS(to:)` asked for, for the factor `hint`.
    package static func assertion(for hint: EnrolledSecondFactor, verificationID: String, verificationCode: String) -> SecondFactorProof {
        SecondFactorProof(enrollmentID: hint.uid, kind: .phone(verificationID: verificationID, code: verificationCode))
    }
}

/// What `AuthService`'s sign-ins answer a second factor with: the resolver, thrown to the program.
struct ThrowingSecondFactorResolver: SecondFactorResolver {
    let auth: AuthService

    func resolve(_ challenge: SecondFactorChallenge, with signIn: SecondFactorSignIn) throws(FBAuthError) -> SecondFactorResult {
        throw .secondFactorRequired(PendingSecondFactor(
            hints: challenge.factors.map(EnrolledSecondFactor.init), auth: auth, enrollments: challenge.factors, signIn: signIn))
    }
}
