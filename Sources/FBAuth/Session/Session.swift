#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A signed-in Firebase user as fbauth keeps it between runs. Its coding keys are the
/// on-disk field names of `sessions.json` (see `StoreFile` for the versioned envelope).
internal struct Session: Codable, Sendable, Equatable {
    internal var uid: String
    internal var tenantId: String?
    internal var email: String?
    internal var emailVerified: Bool
    internal var displayName: String?
    internal var photoURL: String?
    internal var phoneNumber: String?
    internal var isAnonymous: Bool
    internal var providerData: [ProviderProfile]
    internal var idToken: String
    internal var refreshToken: String
    /// When `idToken` expires.
    internal var expirationTime: Date
    /// When the user last signed in or reauthenticated through fbauth.
    internal var lastSignInTime: Date
    /// When the Firebase account was created, if the server said.
    internal var creationTime: Date?
    /// The provider credentials obtained at sign-in or linking, one per provider.
    internal var providerCredentials: [ProviderCredential]
    /// The user's second factors (multi-factor authentication), as `accounts:lookup` last said;
    /// nil when there are none.
    internal var enrolledFactors: [EnrolledFactor]?
    /// How the session was signed in (`--provider yahoo.com --loopback`), for the command a
    /// message tells the user to run when it must be signed in again; nil in older stores.
    internal var signInArguments: [String]?
    /// Files fbauth wrote for other programs with this session's tokens (google-auth's
    /// `GOOGLE_EXTERNAL_ACCOUNT_OUTPUT_FILE`): removed when the session goes, unless something
    /// else was written there since. Nil when there are none.
    internal var writtenFiles: [WrittenFile]?

    internal init(uid: String, tenantId: String? = nil, email: String? = nil, emailVerified: Bool = false,
                displayName: String? = nil, photoURL: String? = nil, phoneNumber: String? = nil,
                isAnonymous: Bool = false, providerData: [ProviderProfile] = [], idToken: String,
                refreshToken: String, expirationTime: Date, lastSignInTime: Date, creationTime: Date? = nil,
                providerCredentials: [ProviderCredential] = []) {
        self.uid = uid
        self.tenantId = tenantId
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.photoURL = photoURL
        self.phoneNumber = phoneNumber
        self.isAnonymous = isAnonymous
        self.providerData = providerData
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expirationTime = expirationTime
        self.lastSignInTime = lastSignInTime
        self.creationTime = creationTime
        self.providerCredentials = providerCredentials
    }

    /// Adds or replaces the credential of its provider.
    internal mutating func remember(_ credential: ProviderCredential) {
        providerCredentials.removeAll { $0.providerId == credential.providerId }
        providerCredentials.append(credential)
    }
}

/// One provider linked to the user (`providerData[]` of the SDKs).
internal struct ProviderProfile: Codable, Sendable, Equatable {
    internal var providerId: String
    /// The provider's own user id (`rawId`), not Firebase's `federatedId`.
    internal var uid: String
    internal var email: String?
    internal var displayName: String?
    internal var photoURL: String?
    internal var phoneNumber: String?

    internal init(providerId: String, uid: String, email: String? = nil, displayName: String? = nil,
                photoURL: String? = nil, phoneNumber: String? = nil) {
        self.providerId = providerId
        self.uid = uid
        self.email = email
        self.displayName = displayName
        self.photoURL = photoURL
        self.phoneNumber = phoneNumber
    }
}

/// A second factor of the user, as the SDKs' `MultiFactorInfo` describes it.
internal struct EnrolledFactor: Codable, Sendable, Equatable {
    /// The enrollment id (`mfaEnrollmentId`).
    internal var uid: String
    /// `phone` or `totp`.
    internal var factorId: String
    internal var displayName: String?
    internal var enrollmentTime: Date?
    /// Phone factors only.
    internal var phoneNumber: String?

    internal init(uid: String, factorId: String, displayName: String?, enrollmentTime: Date?, phoneNumber: String?) {
        self.uid = uid
        self.factorId = factorId
        self.displayName = displayName
        self.enrollmentTime = enrollmentTime
        self.phoneNumber = phoneNumber
    }

    internal init(_ info: MfaEnrollmentInfo) {
        self.init(uid: info.mfaEnrollmentId, factorId: info.factorId, displayName: info.displayName, enrollmentTime: info.enrolledAt,
                  phoneNumber: info.phoneInfo)
    }
}

/// A provider's OAuth credential, for calling the provider's own API (`fbauth token --provider`).
internal struct ProviderCredential: Codable, Sendable, Equatable {
    internal var providerId: String
    internal var accessToken: String?
    internal var idToken: String?
    /// OAuth 1.0a token secret (Twitter).
    internal var secret: String?
    internal var expirationTime: Date?
    internal var obtainedAt: Date

    internal init(providerId: String, accessToken: String? = nil, idToken: String? = nil, secret: String? = nil,
                expirationTime: Date? = nil, obtainedAt: Date) {
        self.providerId = providerId
        self.accessToken = accessToken
        self.idToken = idToken
        self.secret = secret
        self.expirationTime = expirationTime
        self.obtainedAt = obtainedAt
    }
}
