#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A signed-in Firebase user whose session is saved, as `User` in Firebase's Apple SDK.
public struct User: Sendable {
    public let uid: String
    public let email: String?
    public let displayName: String?
    public let photoURL: String?
    public let isAnonymous: Bool
    public let tenantID: String?
    /// The providers linked to the user (`yahoo.com`, `microsoft.com`, …).
    public let providerData: [UserInfo]
    let auth: Auth
    let reference: SessionReference

    init(_ session: Session, auth: Auth) {
        uid = session.uid
        email = session.email
        displayName = session.displayName
        photoURL = session.photoURL
        isAnonymous = session.isAnonymous
        tenantID = session.tenantId
        providerData = session.providerData.map {
            UserInfo(providerID: $0.providerId, uid: $0.uid, email: $0.email, displayName: $0.displayName)
        }
        self.auth = auth
        reference = session.reference
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
        try await auth.inBackground { () throws(FBAuthError) in
            let idToken = try auth.refresher().session(.exactly(reference), minValid: 60).idToken
            return try auth.renew(reference, with: provider, purpose: .link(idToken: idToken))
        }
    }

    /// Links a provider credential to this user without the browser: typically the
    /// `updatedCredential` of an `accountExistsWithDifferentCredential` error, once the user has
    /// signed in to the account that already had the email.
    public func link(with credential: OAuthCredential) async throws(FBAuthError) -> AuthDataResult {
        try await auth.inBackground { () throws(FBAuthError) in
            let idToken = try auth.refresher().session(.exactly(reference), minValid: 60).idToken
            return try auth.renew(reference, with: credential, purpose: .link(idToken: idToken))
        }
    }

    /// Signs in again as this user (for operations that need a recent sign-in); a different
    /// account is refused with `userMismatch` and the session is left as it was.
    public func reauthenticate(with provider: OAuthProvider) async throws(FBAuthError) -> AuthDataResult {
        try await auth.inBackground { () throws(FBAuthError) in
            try auth.renew(reference, with: provider, purpose: .reauthenticate)
        }
    }
}

/// One provider's view of the user, as the SDK's `UserInfo`.
public struct UserInfo: Sendable, Equatable {
    public let providerID: String
    /// The provider's own id of the user.
    public let uid: String
    public let email: String?
    public let displayName: String?
}
