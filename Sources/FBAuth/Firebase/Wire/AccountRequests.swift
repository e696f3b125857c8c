/// `accounts:signUp` without email or password: an anonymous user.
struct SignUpRequest: Encodable {
    var returnSecureToken = true
    var tenantId: String?
}

/// `accounts:signInWithCustomToken`.
struct SignInWithCustomTokenRequest: Encodable {
    var token: String
    var returnSecureToken = true
    var tenantId: String?
}

/// `accounts:update` removing providers (unlink).
struct DeleteProviderRequest: Encodable {
    var idToken: String
    var deleteProvider: [String]
}

/// `accounts:delete` of the ID token's user.
/// `accounts:revokeToken` (v2): `tokenType` ACCESS_TOKEN (JS `revokeAccessToken`) or CODE
/// (iOS `revokeToken(withAuthorizationCode:)`).
struct RevokeTokenRequest: Encodable {
    var idToken: String
    var providerId: String
    var tokenType: String
    var token: String
    var tenantId: String?
}

struct DeleteAccountRequest: Encodable {
    var idToken: String
}

/// `accounts:sendVerificationCode`: texts a code to `phoneNumber`, with the reCAPTCHA fields a
/// `PhoneVerifier` gives.
struct SendVerificationCodeRequest: Encodable {
    var phoneNumber: String
    var recaptchaToken: String?
    var captchaResponse: String?
    var clientType: String?
    var recaptchaVersion: String?
    var tenantId: String?

    init(phoneNumber: String, verification: PhoneVerificationFields, tenantId: String?) {
        self.phoneNumber = phoneNumber
        recaptchaToken = verification.recaptchaToken
        captchaResponse = verification.captchaResponse
        clientType = verification.clientType
        recaptchaVersion = verification.recaptchaVersion
        self.tenantId = tenantId
    }
}

struct SendVerificationCodeResponse: Decodable {
    var sessionInfo: String?
}

/// `accounts:signInWithPhoneNumber`: a texted code, to sign in (`SIGN_UP_OR_IN`), link
/// (`idToken`, `LINK`) or reauthenticate (`REAUTH`), as the iOS SDK names the operations
/// (VerifyPhoneNumberRequest.swift).
struct SignInWithPhoneNumberRequest: Encodable {
    var sessionInfo: String
    var code: String
    var idToken: String?
    var operation: String
    var tenantId: String?
}

/// Answers that carry nothing fbauth needs.
struct EmptyAnswer: Decodable {}

/// The answer of signInWithPassword, signUp and signInWithCustomToken.
internal struct TokenSignInResponse: Decodable, Sendable {
    internal var idToken: String?
    internal var refreshToken: String?
    internal var expiresIn: Int?
    internal var localId: String?
    internal var email: String?
    internal var isNewUser: Bool?
    internal var mfaPendingCredential: String?
    internal var mfaInfo: [MfaEnrollmentInfo]?
    /// `signInWithPhoneNumber`'s answer when the number is another user's: a proof of it
    /// instead of tokens.
    internal var temporaryProof: String?

    enum CodingKeys: String, CodingKey {
        case idToken, refreshToken, expiresIn, localId, email, isNewUser, mfaPendingCredential, mfaInfo, temporaryProof
    }

    internal init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        idToken = try c.token(.idToken, .jwt)
        refreshToken = try c.token(.refreshToken, .bearer)
        expiresIn = try c.integer(.expiresIn, in: ServerValueBounds.tokenLifetime)
        localId = try c.identifier(.localId)
        email = c.string(.email)
        isNewUser = c.bool(.isNewUser)
        mfaPendingCredential = try c.token(.mfaPendingCredential, .visible)
        mfaInfo = try c.decodeIfPresent([MfaEnrollmentInfo].self, forKey: .mfaInfo)
        temporaryProof = try c.token(.temporaryProof, .visible)
    }
}
