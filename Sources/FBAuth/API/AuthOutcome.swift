#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a sign-in, link or reauthentication returns, as the SDK's `AuthDataResult`.
package struct AuthOutcome: Sendable {
    /// The signed-in user.
    package let user: SignedInUser
    /// What the provider said about the user.
    package let additionalUserInfo: SignInProviderDetails?
    /// The provider's own OAuth tokens, for calling its API.
    package let credential: OAuthTokens?
    /// The second factor that completed the sign-in, if one did (the SDKs leave it to the ID
    /// token's `sign_in_second_factor`; a command line prints which one it was).
    package let secondFactor: EnrolledSecondFactor?
    /// Whether this sign-in created the Firebase user (also in `additionalUserInfo`, which only
    /// a provider's sign-in has).
    package let isNewUser: Bool
}

/// As the SDK's `AdditionalUserInfo`.
package struct SignInProviderDetails: Sendable {
    package let providerID: String
    /// The provider's profile of the user, as it sent it.
    package let profile: JSONValue?
    /// GitHub's login or Twitter's screen name (firebase-js-sdk
    /// packages/auth/src/core/user/additional_user_info.ts); nil for other providers.
    package let username: String?
    /// Whether this sign-in created the Firebase user.
    package let isNewUser: Bool

    internal static func username(method: String?, idp: SignInWithIdpResponse?) -> String? {
        switch method {
        case "github.com": idp?.rawUserInfo?["login"]?.stringValue
        case "twitter.com": idp?.screenName
        default: nil
        }
    }
}

/// The provider's OAuth credential, as the SDK's `OAuthCredential`.
package struct OAuthTokens: Sendable {
    package let providerID: String
    package let accessToken: String?
    package let idToken: String?
    /// The OAuth 1.0a token secret (Twitter).
    package let secret: String?
    /// Firebase's handle on a credential it did not use (`needConfirmation`), which it takes
    /// back instead of the provider's tokens.
    package let pendingToken: String?
    /// The raw nonce whose SHA-256 the ID token carries (Apple, OpenID Connect).
    package let rawNonce: String?
    /// The user's name as Sign in with Apple gave it to the app (Apple's ID token has none).
    package var fullName: PersonName?

    package init(providerID: String, accessToken: String?, idToken: String?, secret: String?, pendingToken: String? = nil,
                 rawNonce: String? = nil) {
        self.providerID = providerID
        self.accessToken = accessToken
        self.idToken = idToken
        self.secret = secret
        self.pendingToken = pendingToken
        self.rawNonce = rawNonce
    }
}

extension AuthOutcome {
    init(_ record: SignInRecord, user: SignedInUser) {
        self.user = user
        additionalUserInfo = record.method.map { method in
            SignInProviderDetails(providerID: method, profile: record.idp?.rawUserInfo,
                               username: SignInProviderDetails.username(method: method, idp: record.idp), isNewUser: record.isNewUser)
        }
        credential = record.providerCredential.map(OAuthTokens.init)
        secondFactor = record.secondFactor.map(EnrolledSecondFactor.init)
        isNewUser = record.isNewUser
    }
}

extension OAuthTokens {
    /// A provider credential as the store keeps it.
    init(_ saved: ProviderCredential) {
        self.init(providerID: saved.providerId, accessToken: saved.accessToken, idToken: saved.idToken, secret: saved.secret)
    }
}

extension PendingCredential {
    /// The credential saved as the store keeps it (the store knows nothing of the API's types).
    internal init(credential: OAuthTokens, email: String?, savedAt: Date) {
        self.init(providerId: credential.providerID, pendingToken: credential.pendingToken, accessToken: credential.accessToken,
                  idToken: credential.idToken, secret: credential.secret, email: email, savedAt: savedAt)
    }
}
