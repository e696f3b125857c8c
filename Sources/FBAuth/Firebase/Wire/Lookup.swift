/// `accounts:lookup` with the user's own ID token (the Firebase Auth REST API reference).
package struct LookupRequest: Encodable, Sendable {
    package var idToken: String
}

package struct LookupResponse: Decodable, Sendable {
    package var users: [AccountInfo]?

    enum CodingKeys: String, CodingKey { case users }

    package init(from decoder: Decoder) throws {
        // A user the checks refuse refuses the answer (not "no user").
        users = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent([AccountInfo].self, forKey: .users)
    }
}

/// A user as Identity Toolkit describes it.
package struct AccountInfo: Decodable, Sendable, Equatable {
    package var localId: String?
    package var email: String?
    package var emailVerified: Bool?
    package var displayName: String?
    package var photoUrl: String?
    package var phoneNumber: String?
    package var providerUserInfo: [ProviderUserInfo]
    package var disabled: Bool?
    package var tenantId: String?
    /// Milliseconds since 1970, as a string.
    package var createdAt: String?
    package var lastLoginAt: String?
    package var passwordHash: String?
    /// The user's second factors.
    package var mfaInfo: [MfaEnrollmentInfo]

    enum CodingKeys: String, CodingKey {
        case localId, email, emailVerified, displayName, photoUrl, phoneNumber, providerUserInfo
        case disabled, tenantId, createdAt, lastLoginAt, passwordHash, mfaInfo
    }

    package init(from decoder: Decoder) throws {
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

package struct ProviderUserInfo: Decodable, Sendable, Equatable {
    package var providerId: String?
    package var federatedId: String?
    /// The provider's own user id (what the SDKs show as `providerData[].uid`).
    package var rawId: String?
    package var displayName: String?
    package var email: String?
    package var phoneNumber: String?
    package var photoUrl: String?
    package var screenName: String?

    enum CodingKeys: String, CodingKey {
        case providerId, federatedId, rawId, displayName, email, phoneNumber, photoUrl, screenName
    }

    package init(from decoder: Decoder) throws {
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
