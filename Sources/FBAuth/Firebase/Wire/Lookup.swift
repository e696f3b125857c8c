/// `accounts:lookup` with the user's own ID token (the Firebase Auth REST API reference).
internal struct LookupRequest: Encodable, Sendable {
    internal var idToken: String
}

internal struct LookupResponse: Decodable, Sendable {
    internal var users: [AccountInfo]?

    enum CodingKeys: String, CodingKey { case users }

    internal init(from decoder: Decoder) throws {
        // A user the checks refuse refuses the answer (not "no user").
        users = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent([AccountInfo].self, forKey: .users)
    }
}

/// A user as Identity Toolkit describes it.
internal struct AccountInfo: Decodable, Sendable, Equatable {
    internal var localId: String?
    internal var email: String?
    internal var emailVerified: Bool?
    internal var displayName: String?
    internal var photoUrl: String?
    internal var phoneNumber: String?
    internal var providerUserInfo: [ProviderUserInfo]
    internal var disabled: Bool?
    internal var tenantId: String?
    /// Milliseconds since 1970, as a string.
    internal var createdAt: String?
    internal var lastLoginAt: String?
    internal var passwordHash: String?
    /// The user's second factors.
    internal var mfaInfo: [MfaEnrollmentInfo]

    enum CodingKeys: String, CodingKey {
        case localId, email, emailVerified, displayName, photoUrl, phoneNumber, providerUserInfo
        case disabled, tenantId, createdAt, lastLoginAt, passwordHash, mfaInfo
    }

    internal init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        localId = try c.identifier(.localId)
        email = c.string(.email)
        emailVerified = c.bool(.emailVerified)
        displayName = c.string(.displayName)
        photoUrl = c.string(.photoUrl)
        phoneNumber = c.string(.phoneNumber)
        providerUserInfo = c.list(ProviderUserInfo.self, .providerUserInfo) ?? []
        disabled = c.bool(.disabled)
        tenantId = c.string(.tenantId)
        createdAt = try c.integer(.createdAt, in: ServerValueBounds.accountMilliseconds).map(String.init)
        lastLoginAt = try c.integer(.lastLoginAt, in: ServerValueBounds.accountMilliseconds).map(String.init)
        passwordHash = c.string(.passwordHash)
        mfaInfo = try c.decodeIfPresent([MfaEnrollmentInfo].self, forKey: .mfaInfo) ?? []
    }
}

internal struct ProviderUserInfo: Decodable, Sendable, Equatable {
    internal var providerId: String?
    internal var federatedId: String?
    /// The provider's own user id (what the SDKs show as `providerData[].uid`).
    internal var rawId: String?
    internal var displayName: String?
    internal var email: String?
    internal var phoneNumber: String?
    internal var photoUrl: String?
    internal var screenName: String?

    enum CodingKeys: String, CodingKey {
        case providerId, federatedId, rawId, displayName, email, phoneNumber, photoUrl, screenName
    }

    internal init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        providerId = c.string(.providerId)
        federatedId = c.string(.federatedId)
        rawId = c.string(.rawId)
        displayName = c.string(.displayName)
        email = c.string(.email)
        phoneNumber = c.string(.phoneNumber)
        photoUrl = c.string(.photoUrl)
        screenName = c.string(.screenName)
    }
}
