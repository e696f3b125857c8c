/// `accounts:signInWithIdp` (the Identity Toolkit v1 reference, accounts.signInWithIdp; firebase-js-sdk
/// packages/auth/src/api/authentication/idp.ts).
internal struct SignInWithIdpRequest: Encodable, Sendable, Equatable {
    /// The callback URL exactly as received, or `http://localhost` for credential and pending-token forms.
    internal var requestUri: String
    internal var postBody: String?
    internal var sessionId: String?
    internal var returnSecureToken = true
    internal var returnIdpCredential = true
    /// The ID token of the user to link to.
    internal var idToken: String?
    internal var pendingToken: String?
    internal var tenantId: String?
    /// False for reauthentication: never create a user.
    internal var autoCreate: Bool?

    internal init(requestUri: String, postBody: String? = nil, sessionId: String? = nil, idToken: String? = nil,
                pendingToken: String? = nil, tenantId: String? = nil, autoCreate: Bool? = nil) {
        self.requestUri = requestUri
        self.postBody = postBody
        self.sessionId = sessionId
        self.idToken = idToken
        self.pendingToken = pendingToken
        self.tenantId = tenantId
        self.autoCreate = autoCreate
    }
}

internal struct SignInWithIdpResponse: Decodable, Sendable, Equatable {
    internal var idToken: String?
    internal var refreshToken: String?
    internal var expiresIn: Int?
    internal var localId: String?
    internal var federatedId: String?
    internal var providerId: String?
    internal var email: String?
    internal var emailVerified: Bool?
    internal var displayName: String?
    internal var photoUrl: String?
    internal var screenName: String?
    internal var rawUserInfo: JSONValue?
    internal var oauthAccessToken: String?
    internal var oauthIdToken: String?
    internal var oauthTokenSecret: String?
    internal var oauthExpireIn: Int?
    internal var oauthRefreshToken: String?
    internal var isNewUser: Bool?
    internal var needConfirmation: Bool?
    internal var verifiedProvider: [String]?
    internal var errorMessage: String?
    internal var pendingToken: String?
    internal var tenantId: String?
    internal var mfaPendingCredential: String?
    /// The second factors to choose from, with `mfaPendingCredential`.
    internal var mfaInfo: [MfaEnrollmentInfo]?

    enum CodingKeys: String, CodingKey {
        case idToken, refreshToken, expiresIn, localId, federatedId, providerId, email, emailVerified
        case displayName, photoUrl, screenName, rawUserInfo, oauthAccessToken, oauthIdToken
        case oauthTokenSecret, oauthExpireIn, oauthRefreshToken, isNewUser, needConfirmation
        case verifiedProvider, errorMessage, pendingToken, tenantId, mfaPendingCredential, mfaInfo
    }

    internal init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        idToken = try c.token(.idToken, .jwt)
        refreshToken = try c.token(.refreshToken, .bearer)
        expiresIn = try c.integer(.expiresIn, in: ServerValueBounds.tokenLifetime)
        localId = try c.identifier(.localId)
        federatedId = c.string(.federatedId)
        providerId = c.string(.providerId)
        email = c.string(.email)
        emailVerified = c.bool(.emailVerified)
        displayName = c.string(.displayName)
        photoUrl = c.string(.photoUrl)
        screenName = c.string(.screenName)
        rawUserInfo = c.embeddedJSON(.rawUserInfo)
        // `fbauth token --provider` prints the access token raw: visible ASCII only. The ID token
        // is only ever shown inside JSON (Google's emulator sends JSON claims there).
        oauthAccessToken = try c.token(.oauthAccessToken, .visible)
        oauthIdToken = try c.opaqueToken(.oauthIdToken)
        oauthTokenSecret = try c.token(.oauthTokenSecret, .visible)
        oauthExpireIn = try c.integer(.oauthExpireIn, in: ServerValueBounds.providerTokenLifetime)
        oauthRefreshToken = try c.opaqueToken(.oauthRefreshToken)
        isNewUser = c.bool(.isNewUser)
        // JS treats the mere presence of the key as "account exists"
        // (firebase-js-sdk packages/auth/src/api/index.ts, _performFetchWithErrorHandling).
        needConfirmation = c.contains(.needConfirmation) ? (c.bool(.needConfirmation) ?? true) : nil
        verifiedProvider = c.strings(.verifiedProvider)
        errorMessage = c.string(.errorMessage)
        pendingToken = try c.token(.pendingToken, .visible)
        tenantId = c.string(.tenantId)
        mfaPendingCredential = try c.token(.mfaPendingCredential, .visible)
        mfaInfo = try c.decodeIfPresent([MfaEnrollmentInfo].self, forKey: .mfaInfo)
    }
}
