import FBAuth
import Foundation

// The account of the signed-in user, as the SDK's `User` manages it
// (firebase-ios-sdk FirebaseAuth/Sources/Swift/User/User.swift): reload, password, email
// verification, profile, and when the account was made and last signed in to.
extension User {
    /// When the account was made and last signed in to.
    public var metadata: UserMetadata { UserMetadata(core.metadata) }

    /// Reads the account again from Firebase (a change made elsewhere: a verified email, another
    /// device's profile change); this object takes it.
    public func reload(completion: ((Error?) -> Void)? = nil) {
        auth.run({ () async throws(FBAuthError) -> Void in try await self.reloading() }) { (_: Void?, error) in completion?(error) }
    }

    /// The same, with `async`.
    public func reload() async throws {
        try await auth.bridged { () async throws(FBAuthError) in try await self.reloading() }
    }

    private func reloading() async throws(FBAuthError) {
        update(try await core.reload())
    }

    /// Sets a new password (it needs a recent sign-in: `requiresRecentLogin` otherwise).
    public func updatePassword(to password: String, completion: ((Error?) -> Void)? = nil) {
        auth.run({ () async throws(FBAuthError) -> Void in try await self.updatingPassword(password) }) { (_: Void?, error) in completion?(error) }
    }

    /// The same, with `async`.
    public func updatePassword(to password: String) async throws {
        try await auth.bridged { () async throws(FBAuthError) in try await self.updatingPassword(password) }
    }

    private func updatingPassword(_ password: String) async throws(FBAuthError) {
        try await core.updatePassword(to: password)
        update(try await core.reload())
    }

    /// Mails the user a link that verifies their email address.
    public func sendEmailVerification(completion: ((Error?) -> Void)? = nil) {
        auth.run({ () async throws(FBAuthError) -> Void in try await self.core.sendEmailVerification() }) { (_: Void?, error) in completion?(error) }
    }

    /// The same, with `async`.
    public func sendEmailVerification() async throws {
        try await auth.bridged { () async throws(FBAuthError) in try await self.core.sendEmailVerification() }
    }

    /// Mails a verification link that leads to `actionCodeSettings.url` once used.
    public func sendEmailVerification(with actionCodeSettings: ActionCodeSettings, completion: ((Error?) -> Void)? = nil) {
        let settings = actionCodeSettings.engineSettings
        auth.run({ () async throws(FBAuthError) -> Void in try await self.core.sendEmailVerification(actionCodeSettings: settings) }) { (_: Void?, error) in
            completion?(error)
        }
    }

    /// The same, with `async`.
    public func sendEmailVerification(with actionCodeSettings: ActionCodeSettings) async throws {
        let settings = actionCodeSettings.engineSettings
        try await auth.bridged { () async throws(FBAuthError) in try await self.core.sendEmailVerification(actionCodeSettings: settings) }
    }

    /// Mails `email` a link that, once opened, makes it the account's email address (the address
    /// changes only then, as Firebase requires of projects with email enumeration protection).
    public func sendEmailVerification(beforeUpdatingEmail email: String, actionCodeSettings: ActionCodeSettings? = nil,
                                      completion: ((Error?) -> Void)? = nil) {
        let settings = actionCodeSettings?.engineSettings
        auth.run({ () async throws(FBAuthError) -> Void in
            try await self.core.sendEmailVerification(beforeUpdatingEmail: email, actionCodeSettings: settings)
        }) { (_: Void?, error) in completion?(error) }
    }

    /// The same, with `async`.
    public func sendEmailVerification(beforeUpdatingEmail email: String, actionCodeSettings: ActionCodeSettings? = nil) async throws {
        let settings = actionCodeSettings?.engineSettings
        try await auth.bridged { () async throws(FBAuthError) in
            try await self.core.sendEmailVerification(beforeUpdatingEmail: email, actionCodeSettings: settings)
        }
    }

    /// Makes `email` the account's address at once; it needs a recent sign-in. Projects with
    /// email enumeration protection (the default since 2023) refuse it with
    /// `operationNotAllowed`: `sendEmailVerification(beforeUpdatingEmail:)` is their way. The
    /// SDK deprecates it for that reason, and so does fbauth.
    @available(*, deprecated, message: "Use sendEmailVerification(beforeUpdatingEmail:actionCodeSettings:) instead.")
    public func updateEmail(to email: String, completion: ((Error?) -> Void)? = nil) {
        auth.run({ () async throws(FBAuthError) -> Void in try await self.updatingEmail(email) }) { (_: Void?, error) in completion?(error) }
    }

    /// The same, with `async`.
    @available(*, deprecated, message: "Use sendEmailVerification(beforeUpdatingEmail:actionCodeSettings:) instead.")
    public func updateEmail(to email: String) async throws {
        try await auth.bridged { () async throws(FBAuthError) in try await self.updatingEmail(email) }
    }

    private func updatingEmail(_ email: String) async throws(FBAuthError) {
        update(try await core.updateEmail(to: email))
        auth.tellListeners()
    }

    /// A change of the display name and photo URL, sent by `commitChanges`.
    public func createProfileChangeRequest() -> UserProfileChangeRequest {
        UserProfileChangeRequest(user: self)
    }
}

/// A change of the user's profile, as the SDK's: set `displayName` and `photoURL`, then
/// `commitChanges`. What is not set stays as it is.
open class UserProfileChangeRequest: NSObject, @unchecked Sendable {
    private let user: User
    /// The new display name; nil leaves it.
    open var displayName: String?
    /// The new photo URL; nil leaves it.
    open var photoURL: URL?

    init(user: User) {
        self.user = user
        super.init()
    }

    /// Sends the change; the user object takes it.
    open func commitChanges(completion: ((Error?) -> Void)? = nil) {
        let change = (displayName, photoURL?.absoluteString)
        user.auth.run({ () async throws(FBAuthError) -> Void in try await self.committing(change) }) { (_: Void?, error) in completion?(error) }
    }

    /// The same, with `async`.
    open func commitChanges() async throws {
        let change = (displayName, photoURL?.absoluteString)
        try await user.auth.bridged { () async throws(FBAuthError) in try await self.committing(change) }
    }

    private func committing(_ change: (String?, String?)) async throws(FBAuthError) {
        user.update(try await user.core.updateProfile(displayName: change.0, photoURL: change.1))
    }
}

/// When the account was made and last signed in to, as the SDK's `UserMetadata`.
open class UserMetadata: NSObject, NSSecureCoding, @unchecked Sendable {
    /// When the user last signed in.
    public let lastSignInDate: Date?
    /// When the account was made.
    public let creationDate: Date?

    init(_ dates: AccountDates) {
        lastSignInDate = dates.lastSignInDate
        creationDate = dates.creationDate
        super.init()
    }

    // MARK: NSSecureCoding, with the SDK's keys (UserMetadata.swift)

    /// Archives are decoded with their classes checked.
    public static let supportsSecureCoding = true

    /// Archives both dates.
    public func encode(with coder: NSCoder) {
        coder.encode(creationDate.map { NSDate(timeIntervalSince1970: $0.timeIntervalSince1970) }, forKey: "creationDate")
        coder.encode(lastSignInDate.map { NSDate(timeIntervalSince1970: $0.timeIntervalSince1970) }, forKey: "lastSignInDate")
    }

    /// The dates of an archive.
    public required init?(coder: NSCoder) {
        creationDate = coder.decodedIfPresent(NSDate.self, forKey: "creationDate").map { Date(timeIntervalSince1970: $0.timeIntervalSince1970) }
        lastSignInDate = coder.decodedIfPresent(NSDate.self, forKey: "lastSignInDate").map { Date(timeIntervalSince1970: $0.timeIntervalSince1970) }
        super.init()
    }
}
