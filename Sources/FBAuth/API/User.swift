#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A signed-in Firebase user whose session is saved, as `User` in Firebase's Apple SDK.
public struct User: Sendable {
    public let uid: String
    public let email: String?
    /// `isEmailVerified`: whether the user proved they read mail at `email`.
    public let isEmailVerified: Bool
    public let displayName: String?
    public let photoURL: String?
    public let phoneNumber: String?
    public let isAnonymous: Bool
    public let tenantID: String?
    /// The providers linked to the user (`yahoo.com`, `microsoft.com`, …).
    public let providerData: [UserInfo]
    /// When the account was made and when this session last signed in.
    public let metadata: UserMetadata
    /// The token that renews the ID token, read from the OS keyring when it is kept there; nil
    /// once Firebase refused it (the user must sign in again), or when the keyring cannot give it.
    public var refreshToken: String? {
        guard refreshTokenStorage != nil else { return nil }
        return try? auth.store.refreshToken(of: session, in: auth.project)
    }
    /// Where the refresh token is kept (the keyring or `sessions.json`); nil once Firebase
    /// refused it. Reading this touches no keyring.
    public let refreshTokenStorage: SecretStorage?
    /// The ID token saved with the session and when it expires, as last received (the SDK keeps
    /// it out of sight; a command line prints it). `idToken()` gives a fresh one.
    public let savedIDToken: SavedIDToken?
    /// How the program that signed this user in can repeat that sign-in, in its own words, as
    /// it recorded them (`Auth.record(signInArguments:for:)`); the library only keeps them.
    public let signInArguments: [String]?
    /// The provider whose credential the latest sign-in, link or reauthentication brought.
    public let lastCredentialProviderID: String?
    /// The provider credentials kept with the session, the latest of each provider (an X token
    /// secret read from the keyring when it is kept there).
    public var savedProviderCredentials: [SavedProviderCredential] {
        let revealed = (try? auth.store.revealingCredentials(of: session, in: auth.project)) ?? session
        return revealed.providerCredentials.map {
            SavedProviderCredential(credential: OAuthCredential($0), expirationDate: $0.expirationTime)
        }
    }
    /// The `Auth` this user belongs to, as the SDK's `User.auth`.
    public let auth: Auth
    let reference: SessionReference
    /// As saved: secrets kept in the keyring are `Session.keptInKeyring` here.
    let session: Session

    init(_ session: Session, auth: Auth) {
        uid = session.uid
        email = session.email
        isEmailVerified = session.emailVerified
        displayName = session.displayName
        photoURL = session.photoURL
        phoneNumber = session.phoneNumber
        isAnonymous = session.isAnonymous
        tenantID = session.tenantId
        providerData = session.providerData.map(UserInfo.init)
        metadata = UserMetadata(creationDate: session.creationTime, lastSignInDate: session.lastSignInTime)
        refreshTokenStorage = session.refreshTokenStorage
        savedIDToken = session.idToken.isEmpty ? nil : SavedIDToken(token: session.idToken, expirationDate: session.expirationTime)
        signInArguments = session.signInArguments
        lastCredentialProviderID = session.providerCredentials.last?.providerId
        self.auth = auth
        reference = session.reference
        self.session = session
    }

    /// A Firebase ID token for the user: the saved one while it has more than a minute left,
    /// else (or when `forcingRefresh`) a new one from securetoken.
    public func idToken(forcingRefresh: Bool = false) async throws(FBAuthError) -> String {
        try await auth.inBackground { () throws(FBAuthError) in
            try auth.refresher().session(.exactly(reference), minValid: 60, forceRefresh: forcingRefresh).idToken
        }
    }

    /// Links `provider` to this user through the browser (`accounts:signInWithIdp` with the
    /// user's ID token).
    public func link(with provider: OAuthProvider) async throws(FBAuthError) -> AuthDataResult {
        try await auth.inBackground(linking(provider))
    }

    /// The same with a completion handler.
    public func link(with provider: OAuthProvider, completion: @escaping @Sendable (Result<AuthDataResult, FBAuthError>) -> Void) {
        auth.onBackground(linking(provider), completion)
    }

    /// Links a provider credential to this user without the browser: typically the
    /// `updatedCredential` of an `accountExistsWithDifferentCredential` error, once the user has
    /// signed in to the account that already had the email.
    public func link(with credential: OAuthCredential) async throws(FBAuthError) -> AuthDataResult {
        try await link(with: AuthCredential(credential))
    }

    /// `link(with: AuthCredential)`: a password, a mailed link or a provider's token.
    public func link(with credential: AuthCredential) async throws(FBAuthError) -> AuthDataResult {
        try await auth.inBackground(linking(credential))
    }

    /// The same with a completion handler.
    public func link(with credential: AuthCredential, completion: @escaping @Sendable (Result<AuthDataResult, FBAuthError>) -> Void) {
        auth.onBackground(linking(credential), completion)
    }

    /// Signs in again as this user (for operations that need a recent sign-in); a different
    /// account is refused with `userMismatch` and the session is left as it was.
    public func reauthenticate(with provider: OAuthProvider) async throws(FBAuthError) -> AuthDataResult {
        try await auth.inBackground(reauthenticating(provider))
    }

    /// The same with a completion handler.
    public func reauthenticate(with provider: OAuthProvider, completion: @escaping @Sendable (Result<AuthDataResult, FBAuthError>) -> Void) {
        auth.onBackground(reauthenticating(provider), completion)
    }

    /// `reauthenticate(with: AuthCredential)`.
    public func reauthenticate(with credential: AuthCredential) async throws(FBAuthError) -> AuthDataResult {
        try await auth.inBackground(reauthenticating(credential))
    }

    /// The same with a completion handler.
    public func reauthenticate(with credential: AuthCredential, completion: @escaping @Sendable (Result<AuthDataResult, FBAuthError>) -> Void) {
        auth.onBackground(reauthenticating(credential), completion)
    }

    private func linking(_ provider: OAuthProvider) -> @Sendable () throws(FBAuthError) -> AuthDataResult {
        // A browser may sit on a consent screen for minutes: the ID token must outlast it.
        linkingStep(providerID: provider.providerID, minValid: 600) { (auth, reference, idToken) throws(FBAuthError) in
            try auth.renew(reference, with: provider, purpose: .link(idToken: idToken))
        }
    }

    private func linking(_ credential: AuthCredential) -> @Sendable () throws(FBAuthError) -> AuthDataResult {
        linkingStep(providerID: credential.provider, minValid: 60) { (auth, reference, idToken) throws(FBAuthError) in
            try auth.renew(reference, with: credential, purpose: .link(idToken: idToken))
        }
    }

    /// A link with the user's ID token (valid for `minValid` seconds): tokens Firebase refuses
    /// are dropped, and a provider account that belongs to another user is said in its words.
    private func linkingStep(providerID: String, minValid: TimeInterval,
                             _ link: @escaping @Sendable (Auth, SessionReference, String) throws(FBAuthError) -> AuthDataResult)
        -> @Sendable () throws(FBAuthError) -> AuthDataResult {
        let (auth, reference) = (self.auth, self.reference)
        return { () throws(FBAuthError) in
            let refresher = auth.refresher()
            let session = try refresher.session(.exactly(reference), minValid: minValid)
            do throws(FBAuthError) {
                return try link(auth, reference, session.idToken)
            } catch where error.rejectsSession {
                try refresher.reject(session, because: error)
            } catch {
                throw error.explainingLink(of: providerID)
            }
        }
    }

    private func reauthenticating(_ provider: OAuthProvider) -> @Sendable () throws(FBAuthError) -> AuthDataResult {
        let (auth, reference) = (self.auth, self.reference)
        return { () throws(FBAuthError) in try auth.renew(reference, with: provider, purpose: .reauthenticate) }
    }

    private func reauthenticating(_ credential: AuthCredential) -> @Sendable () throws(FBAuthError) -> AuthDataResult {
        let (auth, reference) = (self.auth, self.reference)
        return { () throws(FBAuthError) in try auth.renew(reference, with: credential, purpose: .reauthenticate) }
    }
}

/// One provider's view of the user, as the SDK's `UserInfo`.
public struct UserInfo: Sendable, Equatable {
    public let providerID: String
    /// The provider's own id of the user.
    public let uid: String
    public let email: String?
    public let displayName: String?
    public let photoURL: String?
    public let phoneNumber: String?
    /// Microsoft only: the account's object id (`oid`), which Microsoft Graph knows it by.
    public let microsoftObjectID: String?

    init(_ profile: ProviderProfile) {
        providerID = profile.providerId
        uid = profile.uid
        email = profile.email
        displayName = profile.displayName
        photoURL = profile.photoURL
        phoneNumber = profile.phoneNumber
        microsoftObjectID = profile.microsoftObjectID
    }
}

/// The SDK's `UserMetadata`.
public struct UserMetadata: Sendable, Equatable {
    /// When the account was made, where Firebase said.
    public let creationDate: Date?
    /// When this session last signed in (a sign-in or reauthentication; not a link).
    public let lastSignInDate: Date
}

/// An ID token as saved, with its expiry.
public struct SavedIDToken: Sendable, Equatable {
    public let token: String
    public let expirationDate: Date
}
