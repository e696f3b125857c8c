/// A phone number as the first factor, as the SDK's `PhoneAuthProvider`: a code is texted
/// (after the reCAPTCHA step in the browser, where the project asks for one), then the
/// credential of the code signs in, links or reauthenticates.
extension AuthService {
    /// `verifyPhoneNumber(_:uiDelegate:)`: Firebase texts a code to `phoneNumber` (E.164); the
    /// verification id. `verifyingApp` false skips reCAPTCHA (the SDK's
    /// `isAppVerificationDisabledForTesting`: fictional test numbers, emulators).
    package func sendVerificationCode(to phoneNumber: String, verifyingApp: Bool = true) async throws(FBAuthError) -> String {
        let verifier: PhoneVerifier = verifyingApp ? phoneVerifier : NoPhoneVerification()
        return try await inBackground { () throws(FBAuthError) -> String in
            try self.client().sendVerificationCode(phoneNumber: phoneNumber, verification: try verifier.verification(for: .signIn), tenantId: self.tenantID)
        }
    }
}

/// The SDK's `PhoneAuthProvider.credential(withVerificationID:verificationCode:)`.
package enum PhoneNumbers {
    package static func credential(verificationID: String, verificationCode: String) -> SignInCredential {
        SignInCredential(kind: .phone(verificationID: verificationID, code: verificationCode, replacing: false))
    }

    /// `updatePhoneNumber(_:)`'s: linked with `SignedInUser.link(with:)`, it replaces the user's
    /// number.
    package static func replacement(verificationID: String, verificationCode: String) -> SignInCredential {
        SignInCredential(kind: .phone(verificationID: verificationID, code: verificationCode, replacing: true))
    }
}
