import FBAuth
import FirebaseCore
import Foundation

/// One provider's view of the user, as the SDK's `UserInfo`.
public protocol UserInfo: NSObjectProtocol {
    /// The provider: `yahoo.com`, `password`, …
    var providerID: String { get }
    /// The provider's own id of the user.
    var uid: String { get }
    /// The name the provider gives.
    var displayName: String? { get }
    /// The photo the provider gives.
    var photoURL: URL? { get }
    /// The email the provider gives.
    var email: String? { get }
    /// The phone number the provider gives.
    var phoneNumber: String? { get }
}

// Named as the SDK names its own (`UserInfoImpl`); the engine's wire type is ProviderUserInfo.
final class UserInfoImpl: NSObject, UserInfo, @unchecked Sendable {
    let providerID: String
    let uid: String
    let displayName: String?
    let photoURL: URL?
    let email: String?
    let phoneNumber: String?

    init(_ info: LinkedProvider) {
        providerID = info.providerID
        uid = info.uid
        displayName = info.displayName
        photoURL = info.photoURL.flatMap(URL.init(string:))
        email = info.email
        phoneNumber = info.phoneNumber
    }
}

/// The signed-in user, as the SDK's `User`.
open class User: NSObject, UserInfo, NSSecureCoding, @unchecked Sendable {
    private let lock = NSLock()
    private var current: SignedInUser
    /// The ID token this object gave last, to tell a new one to the listeners.
    private var lastToken: String?
    /// The user as the engine last gave it: live, as the SDK's `User` is (`reload()`, a profile
    /// change or a new password update this same object).
    var core: SignedInUser { lock.withLock { current } }
    let auth: Auth

    init(_ core: SignedInUser, auth: Auth) {
        current = core
        self.auth = auth
        super.init()
    }

    // MARK: NSSecureCoding, with the SDK's keys (User.swift)
    //
    // The SDK archives the user's tokens with it (that is how its keychain keeps a user). fbauth
    // keeps tokens in its session store and the OS keyring only: the archive names the user
    // (uid, tenant, the app's API key) with the profile, and decoding finds the user signed in
    // on this machine. Where that user is not signed in, decoding gives nil, as the SDK's does
    // for an archive without tokens.

    /// Archives are decoded with their classes checked.
    public static let supportsSecureCoding = true

    /// Archives who the user is and the profile, without tokens.
    public func encode(with coder: NSCoder) {
        coder.encode(uid, forKey: "userID")
        coder.encode(isAnonymous, forKey: "anonymous")
        coder.encode(email, forKey: "email")
        coder.encode(phoneNumber, forKey: "phoneNumber")
        coder.encode(isEmailVerified, forKey: "emailVerified")
        coder.encode(photoURL.map { NSURL(string: $0.absoluteString) } ?? nil, forKey: "photoURL")
        coder.encode(displayName, forKey: "displayName")
        coder.encode(metadata, forKey: "metadata")
        coder.encode(tenantID, forKey: "tenantID")
        coder.encode(auth.app?.options.apiKey, forKey: "APIKey")
        coder.encode(auth.app?.options.googleAppID, forKey: "firebaseAppID")
        coder.encode(auth.app?.name, forKey: "firebaseAppName")  // fbauth's: which of the apps
    }

    /// The user of an archive, as signed in on this machine to the configured app it was
    /// archived from (by name, else by API key, else the default app); nil when that user is
    /// not signed in here.
    public required init?(coder: NSCoder) {
        func string(_ key: String) -> String? { coder.decodedIfPresent(NSString.self, forKey: key).map { String($0) } }
        guard let uid = string("userID") else { return nil }
        let tenantID = string("tenantID")
        let apiKey = string("APIKey")
        let app = string("firebaseAppName").flatMap(FirebaseApp.app(name:))
            ?? FirebaseApp.allApps?.values.first { apiKey != nil && $0.options.apiKey == apiKey } ?? FirebaseApp.app()
        guard let app else { return nil }
        let auth = Auth.auth(app: app)
        guard let saved = auth.fbauth.savedUsers.first(where: { $0.uid == uid && $0.tenantID == tenantID }) else { return nil }
        current = saved
        self.auth = auth
        super.init()
    }

    /// Takes the engine's newer view of the user.
    func update(_ newer: SignedInUser) { lock.withLock { current = newer } }

    /// "Firebase", as the SDK's `User` says (its providers are in `providerData`).
    public var providerID: String { "Firebase" }
    /// The Firebase user id.
    public var uid: String { core.uid }
    /// The user's name.
    public var displayName: String? { core.displayName }
    /// The user's photo.
    public var photoURL: URL? { core.photoURL.flatMap(URL.init(string:)) }
    /// The user's email address.
    public var email: String? { core.email }
    /// The user's phone number.
    public var phoneNumber: String? { core.phoneNumber }
    /// Whether the user signed in anonymously.
    public var isAnonymous: Bool { core.isAnonymous }
    /// Whether the email address is verified.
    public var isEmailVerified: Bool { core.isEmailVerified }
    /// `isAnonymous`, as Objective-C reads it (the SDK keeps both).
    open func anonymous() -> Bool { isAnonymous }
    /// `isEmailVerified`, as Objective-C reads it.
    open func emailVerified() -> Bool { isEmailVerified }
    /// The tenant the user belongs to (Identity Platform).
    public var tenantID: String? { core.tenantID }
    /// The refresh token (read from the OS keyring where it is kept there).
    public var refreshToken: String? { core.refreshToken }
    /// Each linked provider's view of the user.
    public var providerData: [UserInfo] { core.providerData.map(UserInfoImpl.init) }

    // MARK: - Linking and reauthenticating

    /// Adds the credential's provider to the user (a browser sign-in for `getCredentialWith`'s credential).
    public func link(with credential: AuthCredential, completion: ((AuthDataResult?, Error?) -> Void)? = nil) {
        auth.run({ () async throws(FBAuthError) -> AuthDataResult in try await self.linking(credential) }, completion)
    }

    /// The same, with `async`.
    public func link(with credential: AuthCredential) async throws -> AuthDataResult {
        try await auth.bridged { () async throws(FBAuthError) in try await self.linking(credential) }
    }

    private func linking(_ credential: AuthCredential) async throws(FBAuthError) -> AuthDataResult {
        let result: AuthOutcome
        switch try credential.resolved() {
        case .browser(let provider): result = try await core.link(with: provider)
        case .tokens(let tokens): result = try await core.link(with: tokens)
        case .other(let other): result = try await core.link(with: other)
        }
        return auth.signedIn(result, updating: self)
    }

    /// Signs the same user in again, for operations that need a recent sign-in (`userMismatch` for another user).
    public func reauthenticate(with credential: AuthCredential, completion: ((AuthDataResult?, Error?) -> Void)? = nil) {
        auth.run({ () async throws(FBAuthError) -> AuthDataResult in try await self.reauthenticating(credential) }, completion)
    }

    /// The same, with `async`.
    public func reauthenticate(with credential: AuthCredential) async throws -> AuthDataResult {
        try await auth.bridged { () async throws(FBAuthError) in try await self.reauthenticating(credential) }
    }

    private func reauthenticating(_ credential: AuthCredential) async throws(FBAuthError) -> AuthDataResult {
        let result: AuthOutcome
        switch try credential.resolved() {
        case .browser(let provider): result = try await core.reauthenticate(with: provider)
        case .tokens(let tokens): result = try await core.reauthenticate(with: SignInCredential(tokens))
        case .other(let other): result = try await core.reauthenticate(with: other)
        }
        return auth.signedIn(result, updating: self)
    }

    /// Links the provider's browser sign-in to the user, as `link(with:)` with the credential of
    /// `provider.getCredentialWith(uiDelegate)`. Off Apple platforms there is no view to present:
    /// the user's browser is the UI, and `uiDelegate` is not called.
    open func link(with provider: FederatedAuthProvider, uiDelegate: AuthUIDelegate?, completion: ((AuthDataResult?, Error?) -> Void)? = nil) {
        let credential = Auth.browserCredential(provider)
        auth.run({ () async throws(FBAuthError) -> AuthDataResult in try await self.linking(try credential.get()) }, completion)
    }

    /// The same, with `async`.
    open func link(with provider: FederatedAuthProvider, uiDelegate: AuthUIDelegate?) async throws -> AuthDataResult {
        let credential = Auth.browserCredential(provider)
        return try await auth.bridged { () async throws(FBAuthError) in try await self.linking(try credential.get()) }
    }

    /// Reauthenticates with the provider's browser sign-in, as `reauthenticate(with:)` with its
    /// credential; the user's browser is the UI.
    open func reauthenticate(with provider: FederatedAuthProvider, uiDelegate: AuthUIDelegate?, completion: ((AuthDataResult?, Error?) -> Void)? = nil) {
        let credential = Auth.browserCredential(provider)
        auth.run({ () async throws(FBAuthError) -> AuthDataResult in try await self.reauthenticating(try credential.get()) }, completion)
    }

    /// The same, with `async`.
    open func reauthenticate(with provider: FederatedAuthProvider, uiDelegate: AuthUIDelegate?) async throws -> AuthDataResult {
        let credential = Auth.browserCredential(provider)
        return try await auth.bridged { () async throws(FBAuthError) in try await self.reauthenticating(try credential.get()) }
    }

    /// Removes a provider from the user.
    public func unlink(fromProvider provider: String, completion: ((User?, Error?) -> Void)? = nil) {
        auth.run({ () async throws(FBAuthError) -> User in try await self.unlinking(provider) }, completion)
    }

    /// The same, with `async`.
    public func unlink(fromProvider provider: String) async throws -> User {
        try await auth.bridged { () async throws(FBAuthError) in try await self.unlinking(provider) }
    }

    /// The SDK's `User` is live: this same object, without the provider.
    private func unlinking(_ provider: String) async throws(FBAuthError) -> User {
        update(try await core.unlink(fromProvider: provider))
        auth.tellListeners()
        return self
    }

    /// Deletes the account (it needs a recent sign-in).
    public func delete(completion: ((Error?) -> Void)? = nil) {
        auth.run({ () async throws(FBAuthError) -> Void in try await self.core.delete() }) { (_: Void?, error) in
            self.auth.tellListeners()
            completion?(error)
        }
    }

    /// The same, with `async`.
    public func delete() async throws {
        try await auth.bridged { () async throws(FBAuthError) in try await self.core.delete() }
        auth.tellListeners()
    }

    // MARK: - Tokens

    /// The ID token, refreshed when it is about to expire.
    public func getIDToken(completion: ((String?, Error?) -> Void)? = nil) {
        getIDTokenForcingRefresh(false, completion: completion)
    }

    /// The ID token, refreshed first when `forceRefresh`.
    public func getIDTokenForcingRefresh(_ forceRefresh: Bool, completion: ((String?, Error?) -> Void)? = nil) {
        auth.run({ () async throws(FBAuthError) -> String in try await self.token(forcingRefresh: forceRefresh) }, completion)
    }

    /// The ID token; a new one (forced, or the saved one about to expire) tells the ID-token
    /// listeners, as the SDK's does.
    private func token(forcingRefresh: Bool) async throws(FBAuthError) -> String {
        let token = try await core.idToken(forcingRefresh: forcingRefresh)
        let changed = lock.withLock {
            defer { lastToken = token }
            return token != (lastToken ?? current.savedIDToken?.token)
        }
        if forcingRefresh || changed { auth.tellListeners() }
        return token
    }

    /// The ID token, refreshed first when `forceRefresh`, with `async`.
    public func getIDToken(forcingRefresh forceRefresh: Bool = false) async throws -> String {
        try await auth.bridged { () async throws(FBAuthError) in try await self.token(forcingRefresh: forceRefresh) }
    }

    /// The ID token, refreshed first when `forceRefresh`, with `async`.
    public func idTokenForcingRefresh(_ forceRefresh: Bool) async throws -> String {
        try await auth.bridged { () async throws(FBAuthError) in try await self.token(forcingRefresh: forceRefresh) }
    }

    /// The ID token and its claims.
    public func getIDTokenResult(completion: ((AuthTokenResult?, Error?) -> Void)? = nil) {
        getIDTokenResult(forcingRefresh: false, completion: completion)
    }

    /// The ID token and its claims, refreshed first when `forcingRefresh`.
    public func getIDTokenResult(forcingRefresh: Bool, completion: ((AuthTokenResult?, Error?) -> Void)? = nil) {
        auth.run({ () async throws(FBAuthError) -> AuthTokenResult in try AuthTokenResult(try await self.token(forcingRefresh: forcingRefresh)) }, completion)
    }

    /// The same, with `async`.
    public func getIDTokenResult(forcingRefresh: Bool = false) async throws -> AuthTokenResult {
        try await auth.bridged { () async throws(FBAuthError) in try AuthTokenResult(try await self.token(forcingRefresh: forcingRefresh)) }
    }
}

/// An ID token and what it says, as the SDK's `AuthTokenResult`.
open class AuthTokenResult: NSObject, NSSecureCoding, @unchecked Sendable {
    /// The ID token itself.
    public let token: String
    /// When it expires (`exp`).
    public let expirationDate: Date
    /// When the user signed in (`auth_time`).
    public let authDate: Date
    /// When it was issued (`iat`).
    public let issuedAtDate: Date
    /// How the user signed in (`firebase.sign_in_provider`).
    public let signInProvider: String
    /// The second factor of the sign-in, if any (`firebase.sign_in_second_factor`).
    public let signInSecondFactor: String
    /// Every claim of the token.
    public let claims: [String: Any]

    convenience init(_ token: String) throws(FBAuthError) {
        guard let result = IDTokenDetails(idToken: token) else {
            throw .failed(.invalidResponse, "the ID token cannot be decoded")
        }
        self.init(token, result)
    }

    private init(_ token: String, _ result: IDTokenDetails) {
        self.token = token
        expirationDate = result.expirationDate
        authDate = result.authDate
        issuedAtDate = result.issuedAtDate
        signInProvider = result.signInProvider ?? ""
        signInSecondFactor = result.signInSecondFactor ?? ""
        claims = FoundationJSON.object(result.claimValues) as? [String: Any] ?? [:]
    }

    // MARK: NSSecureCoding, as the SDK's (AuthTokenResult.swift): the token alone, read again.

    /// Archives are decoded with their classes checked.
    public static let supportsSecureCoding = true

    /// Archives the ID token (an app that archives it asks for that).
    public func encode(with coder: NSCoder) {
        coder.encode(token, forKey: "token")
    }

    /// The token's result from an archive; nil when it holds no decodable ID token.
    public required convenience init?(coder: NSCoder) {
        guard let token = coder.decodedIfPresent(NSString.self, forKey: "token").map({ String($0) }),
              let result = IDTokenDetails(idToken: token) else { return nil }
        self.init(token, result)
    }
}
