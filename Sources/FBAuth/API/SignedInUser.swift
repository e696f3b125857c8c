#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A signed-in Firebase user whose session is saved, as `User` in Firebase's Apple SDK.
package struct SignedInUser: Sendable {
    package let uid: String
    package let email: String?
    /// `isEmailVerified`: whether the user proved they read mail at `email`.
    package let isEmailVerified: Bool
    package let displayName: String?
    package let photoURL: String?
    package let phoneNumber: String?
    package let isAnonymous: Bool
    package let tenantID: String?
    /// The providers linked to the user (`yahoo.com`, `microsoft.com`, …).
    package let providerData: [LinkedProvider]
    /// When the account was made and when this session last signed in.
    package let metadata: AccountDates
    /// The token that renews the ID token, read from the OS keyring when it is kept there; nil
    /// once Firebase refused it (the user must sign in again), or when the keyring cannot give it.
    package var refreshToken: String? {
        guard refreshTokenStorage != nil else { return nil }
        return try? auth.store.refreshToken(of: session, in: auth.project)
    }
    /// Where the refresh token is kept (the keyring or `sessions.json`); nil once Firebase
    /// refused it. Reading this touches no keyring.
    package let refreshTokenStorage: SecretStorage?
    /// The ID token saved with the session and when it expires, as last received (the SDK keeps
    /// it out of sight; a command line prints it). `idToken()` gives a fresh one.
    package let savedIDToken: SavedIDToken?
    /// How the program that signed this user in can repeat that sign-in, in its own words, as
    /// it recorded them (`AuthService.record(signInArguments:for:)`); the library only keeps them.
    package let signInArguments: [String]?
    /// The provider whose credential the latest sign-in, link or reauthentication brought.
    package let lastCredentialProviderID: String?
    /// The provider credentials kept with the session, the latest of each provider (an X token
    /// secret read from the keyring when it is kept there).
    package var savedProviderCredentials: [SavedProviderCredential] {
        let revealed = (try? auth.store.revealingCredentials(of: session, in: auth.project)) ?? session
        return revealed.providerCredentials.map {
            SavedProviderCredential(credential: OAuthTokens($0), expirationDate: $0.expirationTime)
        }
    }
    /// The `Auth` this user belongs to, as the SDK's `User.auth`.
    package let auth: AuthService
    let reference: SessionReference
    /// As saved: secrets kept in the keyring are `Session.keptInKeyring` here.
    let session: Session

    init(_ session: Session, auth: AuthService) {
        uid = session.uid
        email = session.email
        isEmailVerified = session.emailVerified
        displayName = session.displayName
        photoURL = session.photoURL
        phoneNumber = session.phoneNumber
        isAnonymous = session.isAnonymous
        tenantID = session.tenantId
        providerData = session.providerData.map(LinkedProvider.init)
        metadata = AccountDates(creationDate: session.creationTime, lastSignInDate: session.lastSignInTime)
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
    package func idToken(forcingRefresh: Bool = false) async throws(FBAuthError) -> String {
        try await auth.inBackground { () throws(FBAuthError) in
            try auth.refresher().session(.exactly(reference), minValid: 60, forceRefresh: forcingRefresh).idToken
        }
    }

    /// Links `provider` to this user through the browser (`accounts:signInWithIdp` with the
    /// user's ID token).
    package func link(with provider: BrowserProvider) async throws(FBAuthError) -> AuthOutcome {
        try await auth.inBackground(linking(provider))
    }

    /// The same with a completion handler.
    package func link(with provider: BrowserProvider, completion: @escaping @Sendable (Result<AuthOutcome, FBAuthError>) -> Void) {
        auth.onBackground(linking(provider), completion)
    }

    /// Links a provider credential to this user without the browser: typically the
    /// `updatedCredential` of an `accountExistsWithDifferentCredential` error, once the user has
    /// signed in to the account that already had the email.
    package func link(with credential: OAuthTokens) async throws(FBAuthError) -> AuthOutcome {
        try await link(with: SignInCredential(credential))
    }

    /// `link(with: SignInCredential)`: a password, a mailed link or a provider's token.
    package func link(with credential: SignInCredential) async throws(FBAuthError) -> AuthOutcome {
        try await auth.inBackground(linking(credential))
    }

    /// The same with a completion handler.
    package func link(with credential: SignInCredential, completion: @escaping @Sendable (Result<AuthOutcome, FBAuthError>) -> Void) {
        auth.onBackground(linking(credential), completion)
    }

    /// Signs in again as this user (for operations that need a recent sign-in); a different
    /// account is refused with `userMismatch` and the session is left as it was.
    package func reauthenticate(with provider: BrowserProvider) async throws(FBAuthError) -> AuthOutcome {
        try await auth.inBackground(reauthenticating(provider))
    }

    /// The same with a completion handler.
    package func reauthenticate(with provider: BrowserProvider, completion: @escaping @Sendable (Result<AuthOutcome, FBAuthError>) -> Void) {
        auth.onBackground(reauthenticating(provider), completion)
    }

    /// `reauthenticate(with: SignInCredential)`.
    package func reauthenticate(with credential: SignInCredential) async throws(FBAuthError) -> AuthOutcome {
        try await auth.inBackground(reauthenticating(credential))
    }

    /// The same with a completion handler.
    package func reauthenticate(with credential: SignInCredential, completion: @escaping @Sendable (Result<AuthOutcome, FBAuthError>) -> Void) {
        auth.onBackground(reauthenticating(credential), completion)
    }

    private func linking(_ provider: BrowserProvider) -> @Sendable () throws(FBAuthError) -> AuthOutcome {
        // A browser may sit on a consent screen for minutes: the ID token must outlast it.
        linkingStep(providerID: provider.providerID, minValid: 600) { (auth, reference, idToken) throws(FBAuthError) in
            try auth.renew(reference, with: provider, purpose: .link(idToken: idToken))
        }
    }

    private func linking(_ credential: SignInCredential) -> @Sendable () throws(FBAuthError) -> AuthOutcome {
        linkingStep(providerID: credential.provider, minValid: 60) { (auth, reference, idToken) throws(FBAuthError) in
            try auth.renew(reference, with: credential, purpose: .link(idToken: idToken))
        }
    }

    /// A link with the user's ID token (valid for `minValid` seconds): tokens Firebase refuses
    /// are dropped, and a provider account that belongs to another user is said in its words.
    private func linkingStep(providerID: String, minValid: TimeInterval,
                             _ link: @escaping @Sendable (AuthService, SessionReference, String) throws(FBAuthError) -> AuthOutcome)
        -> @Sendable () throws(FBAuthError) -> AuthOutcome {
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

    private func reauthenticating(_ provider: BrowserProvider) -> @Sendable () throws(FBAuthError) -> AuthOutcome {
        let (auth, reference) = (self.auth, self.reference)
        return { () throws(FBAuthError) in try auth.renew(reference, with: provider, purpose: .reauthenticate) }
    }

    private func reauthenticating(_ credential: SignInCredential) -> @Sendable () throws(FBAuthError) -> AuthOutcome {
        let (auth, reference) = (self.auth, self.reference)
        return { () throws(FBAuthError) in try auth.renew(reference, with: credential, purpose: .reauthenticate) }
    }
}

/// One provider's view of the user, as the SDK's `UserInfo`.
package struct LinkedProvider: Sendable, Equatable {
    package let providerID: String
    /// The provider's own id of the user.
    package let uid: String
    package let email: String?
    package let displayName: String?
    package let photoURL: String?
    package let phoneNumber: String?
    /// Microsoft only: the account's object id (`oid`), which Microsoft Graph knows it by.
    package let microsoftObjectID: String?

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
package struct AccountDates: Sendable, Equatable {
    /// When the account was made, where Firebase said.
    package let creationDate: Date?
    /// When this session last signed in (a sign-in or reauthentication; not a link).
    package let lastSignInDate: Date
}

/// An ID token as saved, with its expiry.
package struct SavedIDToken: Sendable, Equatable {
    package let token: String
    package let expirationDate: Date
}
