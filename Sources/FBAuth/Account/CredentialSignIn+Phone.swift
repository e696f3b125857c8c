/// A phone number as the first factor (firebase-ios-sdk AuthProvider/PhoneAuthProvider.swift,
/// Backend/RPC/VerifyPhoneNumberRequest.swift): the texted code signs in, links the number,
/// or reauthenticates.
extension CredentialSignIn {
    internal func phone(verificationID: String, code: String, purpose: FlowPurpose, replacing: Bool = false) throws(FBAuthError) -> SignInRecord {
        let operation = switch purpose {
        case .signIn: "SIGN_UP_OR_IN"
        case .link: replacing ? "UPDATE" : "LINK"
        case .reauthenticate: "REAUTH"
        }
        let response = try client.signInWithPhoneNumber(sessionInfo: verificationID, code: code, idToken: purpose.linkToken,
                                                        operation: operation, tenantId: tenantId)
        // The number is another user's: Firebase proves the code was right, and links nothing.
        if response.temporaryProof != nil, response.idToken == nil {
            throw .failed(.credentialAlreadyInUse, "that phone number is already another account's")
        }
        var record = try record(response, method: "phone", action: "phone \(purpose.action)")
        record.isNewUser = response.isNewUser ?? false
        return record
    }
}
