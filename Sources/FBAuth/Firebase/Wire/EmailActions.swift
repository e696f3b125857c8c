/// Requests and answers of the email and password lifecycle (firebase-js-sdk
/// `packages/auth/src/api/authentication/email_and_password.ts`,
/// `api/account_management/email_and_password.ts`, `api/account_management/profile.ts`,
/// `api/authentication/email_link.ts`, `api/password_policy/get_password_policy.ts`).

/// The reCAPTCHA Enterprise fields the JS SDK adds (`injectRecaptchaFields`) when a project
/// protects email/password: the token, `CLIENT_TYPE_WEB` and `RECAPTCHA_ENTERPRISE`.
internal struct RecaptchaFields: Sendable, Equatable {
    internal var token: String
    internal var clientType = "CLIENT_TYPE_WEB"
    internal var version = "RECAPTCHA_ENTERPRISE"

    internal init(token: String) { self.token = token }
}

/// `accounts:signInWithPassword` with its reCAPTCHA fields.
struct PasswordSignInRequest: Encodable {
    var email: String
    var password: String
    var returnSecureToken = true
    var tenantId: String?
    var captchaResponse: String?
    var clientType: String?
    var recaptchaVersion: String?

    init(email: String, password: String, tenantId: String?, recaptcha: RecaptchaFields?) {
        self.email = email
        self.password = password
        self.tenantId = tenantId
        captchaResponse = recaptcha?.token
        clientType = recaptcha?.clientType
        recaptchaVersion = recaptcha?.version
    }
}

/// `accounts:signUp` with an email and password: a new user, or with `idToken` the password
/// added to that user (`linkWithCredential(EmailPassword.credential(…))`).
struct PasswordSignUpRequest: Encodable {
    var email: String
    var password: String
    var displayName: String?
    var idToken: String?
    var returnSecureToken = true
    var tenantId: String?
    var captchaResponse: String?
    var clientType: String?
    var recaptchaVersion: String?
}

/// `accounts:sendOobCode`. Email-link sign-in needs `canHandleCodeInApp` (the JS SDK's
/// `sendSignInLinkToEmail` insists on `handleCodeInApp`).
struct SendOobCodeRequest: Encodable {
    var requestType: String
    var email: String?
    var idToken: String?
    var newEmail: String?
    var continueUrl: String?
    var canHandleCodeInApp: Bool?
    var iOSBundleId: String?
    var androidPackageName: String?
    var androidInstallApp: Bool?
    var androidMinimumVersion: String?
    var linkDomain: String?
    var tenantId: String?
    var captchaResp: String?
    var clientType: String?
    var recaptchaVersion: String?
}

/// `accounts:resetPassword`: without `newPassword` it only says what a code is for
/// (`checkActionCode`).
struct ResetPasswordRequest: Encodable {
    var oobCode: String
    var newPassword: String?
    var tenantId: String?
}

/// What an out-of-band code is for, and for whom.
internal struct CheckedActionCode: Decodable, Sendable, Equatable {
    internal var requestType: String?
    internal var email: String?
    internal var newEmail: String?

    enum CodingKeys: String, CodingKey { case requestType, email, newEmail }

    internal init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        requestType = c.string(.requestType)
        email = c.string(.email)
        newEmail = c.string(.newEmail)
    }
}

/// `accounts:update` of the signed-in user (profile, password) or with a mailed `oobCode`.
struct UpdateAccountRequest: Encodable {
    var idToken: String?
    var oobCode: String?
    var email: String?
    var password: String?
    var displayName: String?
    var photoUrl: String?
    var deleteAttribute: [String]?
    var returnSecureToken: Bool?
    var tenantId: String?
}

/// The answer of `accounts:update`: the user as it is now and, when the change revoked the
/// user's other sessions (a new password), new tokens for this one.
internal struct UpdateAccountResponse: Decodable, Sendable {
    internal var localId: String?
    internal var email: String?
    internal var newEmail: String?
    internal var emailVerified: Bool?
    internal var displayName: String?
    internal var photoUrl: String?
    internal var idToken: String?
    internal var refreshToken: String?
    internal var expiresIn: Int?

    enum CodingKeys: String, CodingKey { case localId, email, newEmail, emailVerified, displayName, photoUrl, idToken, refreshToken, expiresIn }

    internal init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        localId = try c.identifier(.localId)
        email = c.string(.email)
        newEmail = c.string(.newEmail)
        emailVerified = c.bool(.emailVerified)
        displayName = c.string(.displayName)
        photoUrl = c.string(.photoUrl)
        idToken = try c.token(.idToken, .jwt)
        refreshToken = try c.token(.refreshToken, .bearer)
        expiresIn = try c.integer(.expiresIn, in: ServerValueBounds.tokenLifetime)
    }
}

/// `accounts:signInWithEmailLink` (with `idToken`: links the email to that user).
struct EmailLinkSignInRequest: Encodable {
    var email: String
    var oobCode: String
    var idToken: String?
    var tenantId: String?
}

/// `GET /v2/passwordPolicy`: the project's rules for new passwords.
internal struct PasswordPolicyResponse: Decodable, Sendable, Equatable {
    internal struct Options: Decodable, Sendable, Equatable {
        internal var minPasswordLength: Int?
        internal var maxPasswordLength: Int?
        internal var containsLowercaseCharacter: Bool?
        internal var containsUppercaseCharacter: Bool?
        internal var containsNumericCharacter: Bool?
        internal var containsNonAlphanumericCharacter: Bool?

        enum CodingKeys: String, CodingKey {
            case minPasswordLength, maxPasswordLength, containsLowercaseCharacter, containsUppercaseCharacter, containsNumericCharacter,
                 containsNonAlphanumericCharacter
        }

        internal init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            minPasswordLength = try c.integer(.minPasswordLength, in: 0...4096)
            maxPasswordLength = try c.integer(.maxPasswordLength, in: 0...4096)
            containsLowercaseCharacter = c.bool(.containsLowercaseCharacter)
            containsUppercaseCharacter = c.bool(.containsUppercaseCharacter)
            containsNumericCharacter = c.bool(.containsNumericCharacter)
            containsNonAlphanumericCharacter = c.bool(.containsNonAlphanumericCharacter)
        }

        internal init() {}
    }

    internal var customStrengthOptions: Options?
    internal var enforcementState: String?
    internal var allowedNonAlphanumericCharacters: [String]?

    enum CodingKeys: String, CodingKey { case customStrengthOptions, enforcementState, allowedNonAlphanumericCharacters }

    internal init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        customStrengthOptions = try c.decodeIfPresent(Options.self, forKey: .customStrengthOptions)
        enforcementState = c.string(.enforcementState)
        // Single printable characters only: they are shown to the user.
        allowedNonAlphanumericCharacters = c.strings(.allowedNonAlphanumericCharacters)?
            .filter { $0.count == 1 && $0.unicodeScalars.allSatisfy { (0x21...0x7E).contains($0.value) } }
    }

    internal init(options: Options?, enforcementState: String?, symbols: [String]? = nil) {
        customStrengthOptions = options
        self.enforcementState = enforcementState
        allowedNonAlphanumericCharacters = symbols
    }
}
