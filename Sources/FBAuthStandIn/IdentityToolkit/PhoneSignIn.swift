#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// A phone number as the first factor: `accounts:sendVerificationCode` texts a code, and
// `accounts:signInWithPhoneNumber` signs in with it, or links the number to the user of an ID
// token. As Google's emulator does (firebase-tools src/emulator/auth/operations.ts), with
// production's reCAPTCHA check before the text.
extension Backend {
    static let sendVerificationCodeFields: Set<String> = [
        "phoneNumber", "recaptchaToken", "captchaResponse", "clientType", "recaptchaVersion", "tenantId", "iosReceipt", "iosSecret",
        "autoRetrievalInfo", "safetyNetToken", "playIntegrityToken",
    ]
    static let signInWithPhoneNumberFields: Set<String> = [
        "sessionInfo", "code", "idToken", "phoneNumber", "temporaryProof", "operation", "tenantId", "verificationProof",
    ]

    /// `accounts:sendVerificationCode`: the session of the code texted to `phoneNumber`.
    func sendVerificationCode(_ body: JSONBody) throws(APIError) -> [String: Any] {
        let tenantId = try body.string("tenantId")
        try refuseTenantPhoneSignIn(tenantId)
        // Production says INVALID_PHONE_NUMBER for a missing number too.
        guard let number = try body.string("phoneNumber"), Self.isPhoneNumber(number) else {
            throw .badRequest("INVALID_PHONE_NUMBER : Invalid format.")
        }
        try checkPhoneRecaptcha(body, action: "sendVerificationCode")
        if let owner = account(withPhoneNumber: number, tenantId: tenantId), !owner.mfaEnrollments.isEmpty {
            throw .badRequest("UNSUPPORTED_FIRST_FACTOR : A phone number cannot be set as a first factor on an SMS based MFA user.")
        }
        // beforeSendSms, which production runs before a text, may refuse it.
        var recipient = account(withPhoneNumber: number, tenantId: tenantId) ?? noUserYet(tenantId: tenantId)
        if recipient.phoneNumber == nil { recipient.links.append(ProviderLink(providerId: "phone", rawId: number, federatedId: "", phoneNumber: number)) }
        try callBlockingFunction(.beforeSendSms, for: recipient, signInMethod: nil, details: ["sms_type": "SIGN_IN_OR_SIGN_UP"])
        return ["sessionInfo": sendCode(to: number, tenantId: tenantId)]
    }

    /// Google's emulator serves phone numbers as a first factor only outside tenants.
    private func refuseTenantPhoneSignIn(_ tenantId: String?) throws(APIError) {
        if configuration.profile.has(.noPhoneSignInOnTenants), tenantId != nil { throw .badRequest("UNSUPPORTED_TENANT_OPERATION") }
    }

    /// `accounts:signInWithPhoneNumber`: signs in (making the user at the first sign-in), or,
    /// with `idToken`, links the number to that user. A number of another user answers with a
    /// temporary proof instead of tokens, as Google's emulator does.
    func signInWithPhoneNumber(_ body: JSONBody) throws(APIError) -> [String: Any] {
        try refuseTenantPhoneSignIn(try body.string("tenantId"))
        let number: String
        if let proof = try body.string("temporaryProof") {
            guard let claimed = try body.string("phoneNumber") else { throw .badRequest("MISSING_PHONE_NUMBER") }
            guard temporaryProofs[proof] == claimed else { throw .badRequest("INVALID_TEMPORARY_PROOF") }
            number = claimed
        } else {
            number = try verifyCode(body)
        }
        let tenantId = try body.string("tenantId")
        let owner = account(withPhoneNumber: number, tenantId: tenantId)
        // Reauthentication signs in the number's user, and makes none.
        if try body.string("operation") == "REAUTH", owner == nil { throw .badRequest("USER_NOT_FOUND") }
        let linking = try body.string("idToken").map { (token) throws(APIError) in try verify(idToken: token) }
        if let owner, let linking, owner.localId != linking.localId {
            guard try body.string("temporaryProof") == nil else { throw .badRequest("PHONE_NUMBER_EXISTS") }
            let proof = "AMtp" + RandomToken.make(bytes: 32)
            temporaryProofs[proof] = number
            return ["temporaryProof": proof, "phoneNumber": number]
        }
        let now = now()
        var account: Account
        var isNewUser = false
        if let existing = linking ?? owner {
            guard !existing.disabled else { throw .badRequest("USER_DISABLED") }
            guard existing.mfaEnrollments.isEmpty else {
                throw .badRequest("UNSUPPORTED_FIRST_FACTOR : A phone number cannot be set as a first factor on an SMS based MFA user.")
            }
            account = existing
        } else {
            try admitNewUser(email: nil)
            account = Account(localId: RandomToken.make(bytes: 21), tenantId: tenantId, createdAt: now, lastLoginAt: now, validSince: now.addingTimeInterval(-1))
            isNewUser = true
        }
        account.links.removeAll { $0.providerId == "phone" }
        account.links.append(ProviderLink(providerId: "phone", rawId: number, federatedId: "", phoneNumber: number))
        account.lastLoginAt = now
        accounts[account.key] = account
        let sessionClaims = try runSignInFunctions(&account, isNewUser: isNewUser, signInMethod: "phone")
        var answer: [String: Any] = ["isNewUser": isNewUser, "phoneNumber": number, "localId": account.localId]
        for (key, value) in issueTokens(for: account, signInProvider: "phone", developerClaims: sessionClaims) { answer[key] = value }
        return answer
    }

    /// The user whose phone provider is `number`.
    func account(withPhoneNumber number: String, tenantId: String?) -> Account? {
        accounts.accounts(withPhoneNumber: number, tenantId: tenantId).first
    }
}
