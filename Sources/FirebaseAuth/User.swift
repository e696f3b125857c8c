import FBAuth
import Foundation

/// One provider's view of the user, as the SDK's `UserInfo`.
public protocol UserInfo: NSObjectProtocol {
    var providerID: String { get }
    var uid: String { get }
    var displayName: String? { get }
    var photoURL: URL? { get }
    var email: String? { get }
    var phoneNumber: String? { get }
}

final class ProviderUserInfo: NSObject, UserInfo, @unchecked Sendable {
    let providerID: String
    let uid: String
    let displayName: String?
    let photoURL: URL?
    let email: String?
    let phoneNumber: String?

    init(_ info: FBAuth.UserInfo) {
        providerID = info.providerID
        uid = info.uid
        displayName = info.displayName
        photoURL = info.photoURL.flatMap(URL.init(string:))
        email = info.email
        phoneNumber = info.phoneNumber
    }
}

/// The signed-in user, as the SDK's `User`.
public final class User: NSObject, UserInfo, @unchecked Sendable {
    let core: FBAuth.User
    let auth: Auth

    init(_ core: FBAuth.User, auth: Auth) {
        self.core = core
        self.auth = auth
        super.init()
    }

    /// `firebase`, as the SDK's.
    public var providerID: String { "firebase" }
    public var uid: String { core.uid }
    public var displayName: String? { core.displayName }
    public var photoURL: URL? { core.photoURL.flatMap(URL.init(string:)) }
    public var email: String? { core.email }
    public var phoneNumber: String? { core.phoneNumber }
    public var isAnonymous: Bool { core.isAnonymous }
    public var isEmailVerified: Bool { core.isEmailVerified }
    public var tenantID: String? { core.tenantID }
    public var refreshToken: String? { core.refreshToken }
    /// Each linked provider's view of the user.
    public var providerData: [UserInfo] { core.providerData.map(ProviderUserInfo.init) }

    // MARK: - Linking and reauthenticating

    public func link(with credential: AuthCredential, completion: ((AuthDataResult?, Error?) -> Void)? = nil) {
        auth.run({ () async throws(FBAuthError) -> AuthDataResult in try await self.linking(credential) }, completion)
    }

    public func link(with credential: AuthCredential) async throws -> AuthDataResult {
        try await auth.bridged { () async throws(FBAuthError) in try await self.linking(credential) }
    }

    private func linking(_ credential: AuthCredential) async throws(FBAuthError) -> AuthDataResult {
        let result: FBAuth.AuthDataResult
        switch credential.use {
        case .browser(let provider): result = try await core.link(with: provider)
        case .tokens(let tokens): result = try await core.link(with: tokens)
        case .other(let other): result = try await core.link(with: other)
        }
        return auth.signedIn(result)
    }

    public func reauthenticate(with credential: AuthCredential, completion: ((AuthDataResult?, Error?) -> Void)? = nil) {
        auth.run({ () async throws(FBAuthError) -> AuthDataResult in try await self.reauthenticating(credential) }, completion)
    }

    public func reauthenticate(with credential: AuthCredential) async throws -> AuthDataResult {
        try await auth.bridged { () async throws(FBAuthError) in try await self.reauthenticating(credential) }
    }

    private func reauthenticating(_ credential: AuthCredential) async throws(FBAuthError) -> AuthDataResult {
        let result: FBAuth.AuthDataResult
        switch credential.use {
        case .browser(let provider): result = try await core.reauthenticate(with: provider)
        case .tokens(let tokens): result = try await core.reauthenticate(with: FBAuth.AuthCredential(tokens))
        case .other(let other): result = try await core.reauthenticate(with: other)
        }
        return auth.signedIn(result)
    }

    public func unlink(fromProvider provider: String, completion: ((User?, Error?) -> Void)? = nil) {
        auth.run({ () async throws(FBAuthError) -> User in User(try await self.core.unlink(fromProvider: provider), auth: self.auth) }, completion)
    }

    public func unlink(fromProvider provider: String) async throws -> User {
        try await auth.bridged { () async throws(FBAuthError) in User(try await self.core.unlink(fromProvider: provider), auth: self.auth) }
    }

    public func delete(completion: ((Error?) -> Void)? = nil) {
        auth.run({ () async throws(FBAuthError) -> Void in try await self.core.delete() }) { (_: Void?, error) in
            self.auth.tellListeners()
            completion?(error)
        }
    }

    public func delete() async throws {
        try await auth.bridged { () async throws(FBAuthError) in try await self.core.delete() }
        auth.tellListeners()
    }

    // MARK: - Tokens

    /// The ID token, refreshed when it is about to expire.
    public func getIDToken(completion: ((String?, Error?) -> Void)? = nil) {
        getIDTokenForcingRefresh(false, completion: completion)
    }

    public func getIDTokenForcingRefresh(_ forceRefresh: Bool, completion: ((String?, Error?) -> Void)? = nil) {
        auth.run({ () async throws(FBAuthError) -> String in try await self.core.idToken(forcingRefresh: forceRefresh) }, completion)
    }

    public func getIDToken() async throws -> String {
        try await auth.bridged { () async throws(FBAuthError) in try await self.core.idToken() }
    }

    public func idTokenForcingRefresh(_ forceRefresh: Bool) async throws -> String {
        try await auth.bridged { () async throws(FBAuthError) in try await self.core.idToken(forcingRefresh: forceRefresh) }
    }

    /// The ID token and its claims.
    public func getIDTokenResult(completion: ((AuthTokenResult?, Error?) -> Void)? = nil) {
        getIDTokenResult(forcingRefresh: false, completion: completion)
    }

    public func getIDTokenResult(forcingRefresh: Bool, completion: ((AuthTokenResult?, Error?) -> Void)? = nil) {
        auth.run({ () async throws(FBAuthError) -> AuthTokenResult in try AuthTokenResult(try await self.core.idToken(forcingRefresh: forcingRefresh)) }, completion)
    }

    public func getIDTokenResult(forcingRefresh: Bool = false) async throws -> AuthTokenResult {
        try await auth.bridged { () async throws(FBAuthError) in try AuthTokenResult(try await self.core.idToken(forcingRefresh: forcingRefresh)) }
    }
}

/// An ID token and what it says, as the SDK's `AuthTokenResult`.
public final class AuthTokenResult: NSObject, @unchecked Sendable {
    public let token: String
    public let expirationDate: Date
    public let authDate: Date
    public let issuedAtDate: Date
    public let signInProvider: String
    public let signInSecondFactor: String
    /// Every claim of the token.
    public let claims: [String: Any]

    init(_ token: String) throws(FBAuthError) {
        guard let result = FBAuth.AuthTokenResult(idToken: token) else {
            throw .failed(.invalidResponse, "the ID token cannot be decoded")
        }
        self.token = token
        expirationDate = result.expirationDate
        authDate = result.authDate
        issuedAtDate = result.issuedAtDate
        signInProvider = result.signInProvider ?? ""
        signInSecondFactor = result.signInSecondFactor ?? ""
        claims = FoundationJSON.object(result.claimValues) as? [String: Any] ?? [:]
    }
}
