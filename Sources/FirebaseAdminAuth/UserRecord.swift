import FBAuthAdmin
import FBAuthHTTP
import Foundation

/// A user of the project, as firebase-admin's `UserRecord` describes one.
public struct UserRecord: @unchecked Sendable {
    /// The user's id in the project.
    public let uid: String
    /// The user's primary email address.
    public let email: String?
    /// Whether that address is verified.
    public let emailVerified: Bool
    /// The user's name, as shown to others.
    public let displayName: String?
    /// The address of the user's picture.
    public let photoURL: String?
    /// The user's phone number (E.164).
    public let phoneNumber: String?
    /// Whether the user is disabled: a disabled user cannot sign in.
    public let disabled: Bool
    /// When the user was created, last signed in and last refreshed a token.
    public let metadata: UserMetadata
    /// The accounts of other providers linked to this user.
    public let providerData: [UserInfo]
    /// The password hash (base64), where the credentials may read it.
    public let passwordHash: String?
    /// The salt of that hash (base64), likewise.
    public let passwordSalt: String?
    /// The custom claims `setCustomUserClaims` set (JSONSerialization's values), if any.
    public let customClaims: [String: Any]?
    /// The tenant the user belongs to; nil for a user of the project itself.
    public let tenantId: String?
    /// Tokens issued before this time no longer pass `checkRevoked` (`revokeRefreshTokens`).
    public let tokensValidAfterTime: Date?
    /// The second factors the user has enrolled; nil when none.
    public let multiFactor: MultiFactorSettings?

    init(_ record: AdminUserRecord) {
        uid = record.uid
        email = record.email
        emailVerified = record.emailVerified
        displayName = record.displayName
        photoURL = record.photoURL
        phoneNumber = record.phoneNumber
        disabled = record.disabled
        metadata = UserMetadata(creationTime: record.creationTime, lastSignInTime: record.lastSignInTime, lastRefreshTime: record.lastRefreshTime)
        providerData = record.providerData.map(UserInfo.init)
        passwordHash = record.passwordHash
        passwordSalt = record.passwordSalt
        customClaims = record.customClaims.map(DecodedIDToken.foundationObjects)
        tenantId = record.tenantId
        tokensValidAfterTime = record.tokensValidAfterTime
        multiFactor = record.secondFactors.isEmpty ? nil : MultiFactorSettings(enrolledFactors: record.secondFactors.map(MultiFactorInfo.init))
    }
}

/// When a user was created, last signed in and last refreshed a token.
public struct UserMetadata: Sendable, Equatable {
    /// When the user was created.
    public let creationTime: Date?
    /// When the user last signed in; nil if never.
    public let lastSignInTime: Date?
    /// When the user last refreshed an ID token; nil if never.
    public let lastRefreshTime: Date?
}

/// A user's account at one provider (`google.com`, `password`, `phone`, …).
public struct UserInfo: Sendable, Equatable {
    /// The user's id at the provider.
    public let uid: String
    /// The provider (`google.com`, `password`, `phone`, `oidc.…`).
    public let providerId: String
    /// The user's name at the provider.
    public let displayName: String?
    /// The user's email address at the provider.
    public let email: String?
    /// The address of the user's picture at the provider.
    public let photoURL: String?
    /// The user's phone number at the provider.
    public let phoneNumber: String?

    init(_ provider: AdminUserRecord.Provider) {
        uid = provider.uid
        providerId = provider.providerId
        displayName = provider.displayName
        email = provider.email
        photoURL = provider.photoURL
        phoneNumber = provider.phoneNumber
    }
}

/// The second factors a user has enrolled.
public struct MultiFactorSettings: Sendable, Equatable {
    /// Every factor, in the order they were enrolled.
    public let enrolledFactors: [MultiFactorInfo]
}

/// One second factor: its enrollment id (`uid`), kind (`phone`, `totp`) and when it was enrolled.
public struct MultiFactorInfo: Sendable, Equatable {
    /// The factor's enrollment id.
    public let uid: String
    /// Its kind: `phone` or `totp`.
    public let factorId: String
    /// The name the user gave it.
    public let displayName: String?
    /// When it was enrolled.
    public let enrollmentTime: Date?
    /// A phone factor's number.
    public let phoneNumber: String?

    init(_ factor: AdminUserRecord.SecondFactor) {
        uid = factor.uid
        factorId = factor.factorId
        displayName = factor.displayName
        enrollmentTime = factor.enrollmentTime
        phoneNumber = factor.phoneNumber
    }
}
