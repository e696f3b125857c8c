/// `accounts:signInWithIdp` (the Identity Toolkit v1 reference, accounts.signInWithIdp; firebase-js-sdk
/// packages/auth/src/api/authentication/idp.ts).
public struct SignInWithIdpRequest: Encodable, Sendable, Equatable {
    /// The callback URL exactly as received, or `http://localhost` for credential and pending-token forms.
    public var requestUri: String
    public var postBody: String?
    public var sessionId: String?
    public var returnSecureToken = true
    public var returnIdpCredential = true
    /// The ID token of the user to link to.
    public var idToken: String?
    public var pendingToken: String?
    public var tenantId: String?
    /// False for reauthentication: never create a user.
    public var autoCreate: Bool?

    public init(requestUri: String, postBody: String? = nil, sessionId: String? = nil, idToken: String? = nil,
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

public struct SignInWithIdpResponse: Decodable, Sendable, Equatable {
    public var idToken: String?
    public var refreshToken: String?
    public var expiresIn: Int?
    public var localId: String?
    public var federatedId: String?
    public var providerId: String?
    public var email: String?
    public var emailVerified: Bool?
    public var displayName: String?
    public var photoUrl: String?
    public var screenName: String?
    public var rawUserInfo: JSONValue?
    public var oauthAccessToken: String?
    public var oauthIdToken: String?
    public var oauthTokenSecret: String?
    public var oauthExpireIn: Int?
    public var oauthRefreshToken: String?
    public var isNewUser: Bool?
    public var needConfirmation: Bool?
    public var verifiedProvider: [String]?
    public var errorMessage: String?
    public var pendingToken: String?
    public var tenantId: String?
    public var mfaPendingCredential: String?

    enum CodingKeys: String, CodingKey {
        case idToken, refreshToken, expiresIn, localId, federatedId, providerId, email, emailVerified
        case displayName, photoUrl, screenName, rawUserInfo, oauthAccessToken, oauthIdToken
        case oauthTokenSecret, oauthExpireIn, oauthRefreshToken, isNewUser, needConfirmation
        case verifiedProvider, errorMessage, pendingToken, tenantId, mfaPendingCredential
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        idToken = c.string(.idToken)
        refreshToken = c.string(.refreshToken)
        expiresIn = c.int(.expiresIn)
        localId = c.string(.localId)
        federatedId = c.string(.federatedId)
        providerId = c.string(.providerId)
        email = c.string(.email)
        emailVerified = c.bool(.emailVerified)
        displayName = c.string(.displayName)
        photoUrl = c.string(.photoUrl)
        screenName = c.string(.screenName)
        rawUserInfo = c.embeddedJSON(.rawUserInfo)
        oauthAccessToken = c.string(.oauthAccessToken)
        oauthIdToken = c.string(.oauthIdToken)
        oauthTokenSecret = c.string(.oauthTokenSecret)
        oauthExpireIn = c.int(.oauthExpireIn)
        oauthRefreshToken = c.string(.oauthRefreshToken)
        isNewUser = c.bool(.isNewUser)
        // JS treats the mere presence of the key as "account exists"
        // (firebase-js-sdk packages/auth/src/api/index.ts, _performFetchWithErrorHandling).
        needConfirmation = c.contains(.needConfirmation) ? (c.bool(.needConfirmation) ?? true) : nil
        verifiedProvider = c.strings(.verifiedProvider)
        errorMessage = c.string(.errorMessage)
        pendingToken = c.string(.pendingToken)
        tenantId = c.string(.tenantId)
        mfaPendingCredential = c.string(.mfaPendingCredential)
    }
}
