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
    private let record: AdminUserRecord

    init(_ record: AdminUserRecord) {
        self.record = record
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

    /// The user as firebase-admin-node's `UserRecord.toJSON()` gives it: times as UTC date
    /// strings (`Tue, 01 Dec 2026 22:37:05 GMT`), the metadata, providers and factors nested.
    public func toJSON() -> [String: Any] { foundationJSON(AdminRecordJSON.user(record)) }
}

/// When a user was created, last signed in and last refreshed a token.
public struct UserMetadata: Sendable, Equatable {
    /// When the user was created.
    public let creationTime: Date?
    /// When the user last signed in; nil if never.
    public let lastSignInTime: Date?
    /// When the user last refreshed an ID token; nil if never.
    public let lastRefreshTime: Date?

    /// The times as firebase-admin-node's `UserMetadata.toJSON()` gives them (UTC date strings).
    public func toJSON() -> [String: Any] {
        foundationJSON(AdminRecordJSON.metadata(creationTime: creationTime, lastSignInTime: lastSignInTime, lastRefreshTime: lastRefreshTime))
    }
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
    private let engine: AdminUserRecord.Provider

    /// The account as firebase-admin-node's `UserInfo.toJSON()` gives it.
    public func toJSON() -> [String: Any] { foundationJSON(AdminRecordJSON.provider(engine)) }

    init(_ provider: AdminUserRecord.Provider) {
        engine = provider
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

    /// The factors as firebase-admin-node's `MultiFactorSettings.toJSON()` gives them.
    public func toJSON() -> [String: Any] { ["enrolledFactors": enrolledFactors.map { $0.toJSON() }] }
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
    private let engine: AdminUserRecord.SecondFactor

    /// The factor as firebase-admin-node's `MultiFactorInfo.toJSON()` (and, for a phone factor,
    /// `PhoneMultiFactorInfo.toJSON()`) gives it.
    public func toJSON() -> [String: Any] { foundationJSON(AdminRecordJSON.factor(engine)) }

    init(_ factor: AdminUserRecord.SecondFactor) {
        engine = factor
        uid = factor.uid
        factorId = factor.factorId
        displayName = factor.displayName
        enrollmentTime = factor.enrollmentTime
        phoneNumber = factor.phoneNumber
    }
}

/// A JSON object as JSONSerialization's values, for the `toJSON()` methods.
func foundationJSON(_ value: JSONValue) -> [String: Any] {
    guard case .object(let fields) = value else { return [:] }
    return DecodedIDToken.foundationObjects(fields)
}
