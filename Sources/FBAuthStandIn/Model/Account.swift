#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a user is kept: each tenant is a uid namespace of its own, as in production and in
/// Google's emulator (a tenant's `ada` is not the project's `ada`).
struct AccountKey: Hashable {
    var tenantId: String?
    var localId: String
}

/// A Firebase user in the stand-in's directory.
struct Account {
    var localId: String
    var tenantId: String?
    /// The key it is kept by.
    var key: AccountKey { AccountKey(tenantId: tenantId, localId: localId) }
    var email: String?
    var emailVerified = false
    var displayName: String?
    var photoUrl: String?
    /// A provider's handle (Twitter's, or a fake IdP's `screen_name`), kept at sign-up.
    var screenName: String?
    /// The password in clear, as Google's emulator keeps it. Setting or removing it ends an
    /// imported hash too, as production rehashes an imported password at its first sign-in.
    var password: String? {
        didSet { (importedPasswordHash, importedSalt, importedHashConfig) = (nil, nil, nil) }
    }
    var links: [ProviderLink] = []
    var disabled = false
    var createdAt: Date
    var lastLoginAt: Date
    /// When an ID token was last minted for the user (a sign-in or a refresh); nil: never.
    var lastRefreshAt: Date?
    /// Tokens issued before this instant are revoked.
    var validSince: Date
    /// Second factors, in the order they were enrolled.
    var mfaEnrollments: [MfaEnrollment] = []
    /// Passkeys (served as Google's emulator serves them: `fbauth emulator` only).
    var passkeys: [Passkey] = []
    /// The user withdrew its last second factor: Google's emulator then lists `mfaInfo: []`.
    var withdrewLastSecondFactor = false
    /// Whether the user has signed in with an email link (`emailLinkSignin` in lookups).
    var emailLinkSignIn = false
    /// When the password was last set.
    var passwordUpdatedAt: Date?
    /// Claims set by the Admin SDK (`customAttributes`), added to every ID token.
    var customClaims: [String: Any] {
        get { storedClaims.object }
        // Claims come from JSON (an Admin call's `customAttributes`, a function's answer, an
        // import), so every value is one; a value that is no JSON could not be kept.
        set { storedClaims = JSONValue.members(newValue) ?? [:] }
    }
    /// The claims as they are kept; read and set them as `customClaims`.
    var storedClaims: [String: JSONValue] = [:]
    /// A password hash an import gave (`accounts:batchCreate`), kept as given, and how it was
    /// made (the batch's `hashAlgorithm`; without one, the project's own `hashConfig`).
    var importedPasswordHash: String?
    var importedSalt: String?
    var importedHashConfig: PasswordHashConfig?
    /// The address the user had before its first change (`initialEmail`), for RECOVER_EMAIL.
    var initialEmail: String?

    /// A password to sign in with: in clear, or an imported hash.
    var hasPassword: Bool { password != nil || importedPasswordHash != nil }
    var isAnonymous: Bool { links.isEmpty && email == nil && !hasPassword }
    /// The number of the user's phone provider, if any.
    var phoneNumber: String? { links.first { $0.providerId == "phone" }?.phoneNumber }
}

/// A provider account linked to a user.
struct ProviderLink: Equatable {
    var providerId: String
    var rawId: String
    var federatedId: String
    var email: String?
    var displayName: String?
    var photoUrl: String?
    var screenName: String?
    /// The phone provider's number (its `rawId` too; it has no federated id).
    var phoneNumber: String?

    /// Its entry of `providerUserInfo[]`.
    var info: [String: Any] {
        var info: [String: Any] = ["providerId": providerId, "rawId": rawId]
        if !federatedId.isEmpty { info["federatedId"] = federatedId }
        info["phoneNumber"] = phoneNumber
        info["email"] = email
        info["displayName"] = displayName
        info["photoUrl"] = photoUrl
        info["screenName"] = screenName
        return info
    }
}
