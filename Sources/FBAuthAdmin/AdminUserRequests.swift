import FBAuthHTTP
import FBAuthVerification

/// A user to create (firebase-admin-node `CreateRequest`), checked before it is sent.
package struct AdminNewUser: Sendable {
    package var uid: String?
    package var email: String?
    package var emailVerified: Bool?
    package var password: String?
    package var displayName: String?
    package var photoURL: String?
    package var phoneNumber: String?
    package var disabled: Bool?
    /// Phone second factors to enroll the user in (no ids or times: Firebase gives them).
    package var secondFactors: [AdminImportUser.SecondFactor] = []

    package init() {}

    /// The body of `accounts` (`signUp` as an administrator).
    func body() throws(TokenRefusal) -> JSONValue {
        var fields: [String: JSONValue] = [:]
        if let uid { try AdminChecks.uid(uid); fields["localId"] = .string(uid) }
        if let email { try AdminChecks.email(email); fields["email"] = .string(email) }
        if let password { try AdminChecks.password(password); fields["password"] = .string(password) }
        if let displayName { fields["displayName"] = .string(displayName) }
        if let photoURL { try AdminChecks.photoURL(photoURL); fields["photoUrl"] = .string(photoURL) }
        if let phoneNumber { try AdminChecks.phoneNumber(phoneNumber); fields["phoneNumber"] = .string(phoneNumber) }
        if let emailVerified { fields["emailVerified"] = .bool(emailVerified) }
        if let disabled { fields["disabled"] = .bool(disabled) }
        if !secondFactors.isEmpty {
            fields["mfaInfo"] = .array(try secondFactors.map { (factor: AdminImportUser.SecondFactor) throws(TokenRefusal) -> JSONValue in
                guard factor.enrollmentTime == nil else {
                    throw AdminErrors.client("INVALID_ARGUMENT", message: "\"enrollmentTime\" is not supported when adding second factors via \"createUser()\"")
                }
                guard factor.uid == nil else {
                    throw AdminErrors.client("INVALID_ARGUMENT", message: "\"uid\" is not supported when adding second factors via \"createUser()\"")
                }
                return try AdminImportUser.factorFields(factor)
            })
        }
        return .object(fields)
    }
}

/// What to change of a user (firebase-admin-node `UpdateRequest`): a value sets it; for
/// `displayName`, `photoURL` and `phoneNumber`, `.some(nil)` removes it (`null` in Node).
package struct AdminUserChange: Sendable {
    package var email: String?
    package var emailVerified: Bool?
    package var password: String?
    package var displayName: String??
    package var photoURL: String??
    package var phoneNumber: String??
    package var disabled: Bool?
    /// Providers to unlink (`providersToUnlink`).
    package var providersToUnlink: [String] = []
    /// A provider account to link (`providerToLink`: `uid` is its id at the provider).
    package var providerToLink: AdminUserRecord.Provider?
    /// The user's second factors from now on; `.some([])` or `.some(nil)` removes them all.
    package var secondFactors: [AdminImportUser.SecondFactor]??

    package init() {}

    /// The body of `accounts:update` for `uid`.
    func body(uid: String) throws(TokenRefusal) -> JSONValue {
        try AdminChecks.uid(uid)
        var fields: [String: JSONValue] = ["localId": .string(uid)]
        var deleteAttributes: [JSONValue] = []
        var deleteProviders: [JSONValue] = []
        if let email { try AdminChecks.email(email); fields["email"] = .string(email) }
        if let password { try AdminChecks.password(password); fields["password"] = .string(password) }
        if let emailVerified { fields["emailVerified"] = .bool(emailVerified) }
        // Node's key for the flag is disableUser on update.
        if let disabled { fields["disableUser"] = .bool(disabled) }
        switch displayName {
        case .some(.some(let name)): fields["displayName"] = .string(name)
        case .some(.none): deleteAttributes.append("DISPLAY_NAME")
        case .none: break
        }
        switch photoURL {
        case .some(.some(let url)): try AdminChecks.photoURL(url); fields["photoUrl"] = .string(url)
        case .some(.none): deleteAttributes.append("PHOTO_URL")
        case .none: break
        }
        switch phoneNumber {
        case .some(.some(let number)): try AdminChecks.phoneNumber(number); fields["phoneNumber"] = .string(number)
        case .some(.none): deleteProviders.append("phone")
        case .none: break
        }
        for provider in providersToUnlink {
            guard !provider.isEmpty else { throw AdminErrors.client("INVALID_PROVIDER_ID") }
            deleteProviders.append(.string(provider))
        }
        if let link = providerToLink {
            guard !link.providerId.isEmpty else {
                throw AdminErrors.client("INVALID_ARGUMENT", message: "providerToLink.providerId of properties argument must be a non-empty string.")
            }
            guard !link.uid.isEmpty else { throw AdminErrors.client("INVALID_ARGUMENT", message: "providerToLink.uid of properties argument must be a non-empty string.") }
            var provider = AdminImportUser.Provider(uid: link.uid, providerId: link.providerId)
            (provider.displayName, provider.email, provider.photoURL) = (link.displayName, link.email, link.photoURL)
            guard case .object(var info) = try AdminImportUser.providerFields(provider) else { throw AdminErrors.client("INVALID_PROVIDER_DATA") }
            info["phoneNumber"] = link.phoneNumber.map(JSONValue.string)
            fields["linkProviderUserInfo"] = .object(info)
        }
        switch secondFactors {
        case .some(.some(let factors)) where !factors.isEmpty:
            fields["mfa"] = .object(["enrollments": .array(try factors.map(AdminImportUser.factorFields))])
        case .some: fields["mfa"] = .object([:])
        case .none: break
        }
        if !deleteAttributes.isEmpty { fields["deleteAttribute"] = .array(deleteAttributes) }
        if !deleteProviders.isEmpty { fields["deleteProvider"] = .array(deleteProviders) }
        return .object(fields)
    }
}

/// Who to look up (firebase-admin-node `UserIdentifier`).
package enum AdminUserIdentifier: Sendable, Equatable, Hashable {
    case uid(String)
    case email(String)
    case phoneNumber(String)
    case provider(providerId: String, providerUid: String)
}
