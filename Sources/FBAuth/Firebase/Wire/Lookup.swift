/// `accounts:lookup` with the user's own ID token (the Firebase Auth REST API reference).
public struct LookupRequest: Encodable, Sendable {
    public var idToken: String
}

public struct LookupResponse: Decodable, Sendable {
    public var users: [AccountInfo]?

    enum CodingKeys: String, CodingKey { case users }

    public init(from decoder: Decoder) throws {
        users = try decoder.container(keyedBy: CodingKeys.self).list(AccountInfo.self, .users)
    }
}

/// A user as Identity Toolkit describes it.
public struct AccountInfo: Decodable, Sendable, Equatable {
    public var localId: String?
    public var email: String?
    public var emailVerified: Bool?
    public var displayName: String?
    public var photoUrl: String?
    public var phoneNumber: String?
    public var providerUserInfo: [ProviderUserInfo]
    public var disabled: Bool?
    public var tenantId: String?
    /// Milliseconds since 1970, as a string.
    public var createdAt: String?
    public var lastLoginAt: String?
    public var passwordHash: String?

    enum CodingKeys: String, CodingKey {
        case localId, email, emailVerified, displayName, photoUrl, phoneNumber, providerUserInfo
        case disabled, tenantId, createdAt, lastLoginAt, passwordHash
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        localId = c.string(.localId)
        email = c.string(.email)
        emailVerified = c.bool(.emailVerified)
        displayName = c.string(.displayName)
        photoUrl = c.string(.photoUrl)
        phoneNumber = c.string(.phoneNumber)
        providerUserInfo = c.list(ProviderUserInfo.self, .providerUserInfo) ?? []
        disabled = c.bool(.disabled)
        tenantId = c.string(.tenantId)
        createdAt = c.string(.createdAt)
        lastLoginAt = c.string(.lastLoginAt)
        passwordHash = c.string(.passwordHash)
    }
}

public struct ProviderUserInfo: Decodable, Sendable, Equatable {
    public var providerId: String?
    public var federatedId: String?
    /// The provider's own user id (what the SDKs show as `providerData[].uid`).
    public var rawId: String?
    public var displayName: String?
    public var email: String?
    public var phoneNumber: String?
    public var photoUrl: String?
    public var screenName: String?

    enum CodingKeys: String, CodingKey {
        case providerId, federatedId, rawId, displayName, email, phoneNumber, photoUrl, screenName
    }

    public init(from decoder: Decoder) throws {
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
