import FBAuthAdmin

/// A user to create (firebase-admin's `CreateRequest`). Anything not given is not set; `uid`
/// nil: Firebase makes one.
public struct CreateRequest: Sendable {
    /// The new user's id: 1 to 128 characters; nil: Firebase makes one.
    public var uid: String?
    /// The user's primary email address.
    public var email: String?
    /// Whether that address is to be taken as verified.
    public var emailVerified: Bool?
    /// The user's password: at least 6 characters.
    public var password: String?
    /// The user's name.
    public var displayName: String?
    /// The address of the user's picture: an http or https URL.
    public var photoURL: String?
    /// The user's phone number (E.164: `+` and digits).
    public var phoneNumber: String?
    /// Whether the user starts disabled.
    public var disabled: Bool?
    /// Phone second factors to enroll the user in.
    public var multiFactor: MultiFactorCreateSettings?

    /// A request with the properties given, the others not set.
    public init(uid: String? = nil, email: String? = nil, emailVerified: Bool? = nil, password: String? = nil, displayName: String? = nil,
                photoURL: String? = nil, phoneNumber: String? = nil, disabled: Bool? = nil, multiFactor: MultiFactorCreateSettings? = nil) {
        self.multiFactor = multiFactor
        self.uid = uid
        self.email = email
        self.emailVerified = emailVerified
        self.password = password
        self.displayName = displayName
        self.photoURL = photoURL
        self.phoneNumber = phoneNumber
        self.disabled = disabled
    }

    var engine: AdminNewUser {
        var user = AdminNewUser()
        (user.uid, user.email, user.emailVerified, user.password) = (uid, email, emailVerified, password)
        (user.displayName, user.photoURL, user.phoneNumber, user.disabled) = (displayName, photoURL, phoneNumber, disabled)
        user.secondFactors = (multiFactor?.enrolledFactors ?? []).map { factor in
            var engine = AdminImportUser.SecondFactor(phoneNumber: factor.phoneNumber)
            (engine.displayName, engine.factorId) = (factor.displayName, factor.factorId)
            return engine
        }
        return user
    }
}

/// What to change of a user (firebase-admin's `UpdateRequest`). A property left nil is left
/// as it is; `displayName`, `photoURL` and `phoneNumber` set to `.some(nil)` are removed, as
/// `null` removes them in firebase-admin-node (`UpdateRequest(displayName: .some(nil))`).
public struct UpdateRequest: Sendable {
    /// A new primary email address.
    public var email: String?
    /// Whether the address is to be taken as verified.
    public var emailVerified: Bool?
    /// A new password: at least 6 characters.
    public var password: String?
    /// A new name; `.some(nil)` removes it.
    public var displayName: String??
    /// A new picture's address; `.some(nil)` removes it.
    public var photoURL: String??
    /// A new phone number; `.some(nil)` removes it (and unlinks the `phone` provider).
    public var phoneNumber: String??
    /// Whether the user is disabled.
    public var disabled: Bool?
    /// The providers to unlink from the user (`providersToUnlink`).
    public var providersToUnlink: [String]
    /// A provider account to link to the user (`providerToLink`).
    public var providerToLink: UserProvider?
    /// The user's second factors from now on; `enrolledFactors` nil or empty removes them all.
    public var multiFactor: MultiFactorUpdateSettings?

    /// A request changing the properties given, the others left as they are.
    public init(email: String? = nil, emailVerified: Bool? = nil, password: String? = nil, displayName: String?? = nil,
                photoURL: String?? = nil, phoneNumber: String?? = nil, disabled: Bool? = nil, providersToUnlink: [String] = [],
                providerToLink: UserProvider? = nil, multiFactor: MultiFactorUpdateSettings? = nil) {
        (self.providerToLink, self.multiFactor) = (providerToLink, multiFactor)
        self.email = email
        self.emailVerified = emailVerified
        self.password = password
        self.displayName = displayName
        self.photoURL = photoURL
        self.phoneNumber = phoneNumber
        self.disabled = disabled
        self.providersToUnlink = providersToUnlink
    }

    var engine: AdminUserChange {
        var change = AdminUserChange()
        (change.email, change.emailVerified, change.password, change.disabled) = (email, emailVerified, password, disabled)
        (change.displayName, change.photoURL, change.phoneNumber) = (displayName, photoURL, phoneNumber)
        change.providersToUnlink = providersToUnlink
        change.providerToLink = providerToLink.map {
            AdminUserRecord.Provider(uid: $0.uid ?? "", providerId: $0.providerId ?? "", displayName: $0.displayName, email: $0.email, photoURL: $0.photoURL,
                                     phoneNumber: $0.phoneNumber)
        }
        if let multiFactor {
            change.secondFactors = .some(multiFactor.enrolledFactors.map { factors in factors.map(\.engine) })
        }
        return change
    }
}

/// A provider account to link to a user (firebase-admin's `UserProvider`).
public struct UserProvider: Sendable {
    /// The user's id at the provider (required).
    public var uid: String?
    /// The user's name at the provider.
    public var displayName: String?
    /// The user's email address at the provider.
    public var email: String?
    /// The user's phone number at the provider.
    public var phoneNumber: String?
    /// The user's picture at the provider.
    public var photoURL: String?
    /// The provider (`google.com`; required).
    public var providerId: String?

    /// The account given.
    public init(uid: String? = nil, displayName: String? = nil, email: String? = nil, phoneNumber: String? = nil, photoURL: String? = nil, providerId: String? = nil) {
        (self.uid, self.displayName, self.email, self.phoneNumber, self.photoURL, self.providerId) = (uid, displayName, email, phoneNumber, photoURL, providerId)
    }
}

/// A phone second factor to enroll a new user in (firebase-admin's `CreatePhoneMultiFactorInfoRequest`).
public struct CreatePhoneMultiFactorInfoRequest: Sendable {
    /// The factor's name.
    public var displayName: String?
    /// Always `phone`.
    public var factorId: String
    /// The factor's phone number (E.164).
    public var phoneNumber: String

    /// A phone factor of `phoneNumber`.
    public init(displayName: String? = nil, factorId: String = "phone", phoneNumber: String) {
        (self.displayName, self.factorId, self.phoneNumber) = (displayName, factorId, phoneNumber)
    }
}

/// The second factors to enroll a new user in (firebase-admin's `MultiFactorCreateSettings`).
public struct MultiFactorCreateSettings: Sendable {
    /// The factors.
    public var enrolledFactors: [CreatePhoneMultiFactorInfoRequest]

    /// The factors given.
    public init(enrolledFactors: [CreatePhoneMultiFactorInfoRequest]) { self.enrolledFactors = enrolledFactors }
}

/// Who `getUsers` looks for (firebase-admin's `UidIdentifier`, `EmailIdentifier`,
/// `PhoneIdentifier` and `ProviderIdentifier`).
public enum UserIdentifier: Sendable, Hashable {
    /// The user of this uid.
    case uid(String)
    /// The user of this email address.
    case email(String)
    /// The user of this phone number.
    case phoneNumber(String)
    /// The user with this account at a provider.
    case provider(providerId: String, providerUid: String)

    var engine: AdminUserIdentifier {
        switch self {
        case .uid(let uid): .uid(uid)
        case .email(let email): .email(email)
        case .phoneNumber(let number): .phoneNumber(number)
        case .provider(let providerId, let providerUid): .provider(providerId: providerId, providerUid: providerUid)
        }
    }

    init(_ engine: AdminUserIdentifier) {
        switch engine {
        case .uid(let uid): self = .uid(uid)
        case .email(let email): self = .email(email)
        case .phoneNumber(let number): self = .phoneNumber(number)
        case .provider(let providerId, let providerUid): self = .provider(providerId: providerId, providerUid: providerUid)
        }
    }
}

/// What `getUsers` found, and the identifiers no user was found for.
public struct GetUsersResult: Sendable {
    /// The users found, in no particular order.
    public let users: [UserRecord]
    /// The identifiers no user was found for.
    public let notFound: [UserIdentifier]
}

/// A page of `listUsers`, and the token of the next page (nil: the last).
public struct ListUsersResult: Sendable {
    /// This page's users.
    public let users: [UserRecord]
    /// The token of the next page; nil on the last.
    public let pageToken: String?
}

/// What `deleteUsers` came to.
public struct DeleteUsersResult: Sendable {
    /// How many users were deleted (or were not there).
    public let successCount: Int
    /// How many could not be deleted.
    public let failureCount: Int
    /// Each user that was not deleted: its index in the list given, and why.
    public let errors: [(index: Int, error: AdminAuthError)]
}
