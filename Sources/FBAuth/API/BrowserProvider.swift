/// An OAuth identity provider to sign in with, as `OAuthProvider` in Firebase's Apple SDK
/// (FirebaseAuth/Sources/Swift/AuthProvider/OAuthProvider.swift): the provider id Firebase
/// knows it by, extra scopes, and custom OAuth parameters (Microsoft's `tenant`, `prompt`, …).
package struct BrowserProvider: Sendable, Equatable {
    /// `yahoo.com`, `microsoft.com`, `twitter.com`, `github.com`, `oidc.NAME`, `saml.NAME`, …
    package let providerID: String
    /// OAuth scopes beyond the provider's defaults.
    package var scopes: [String] = []
    /// Parameters for the provider's authorization request; those Firebase sets itself
    /// (`client_id`, `redirect_uri`, `state`, …) are refused.
    package var customParameters: [String: String] = [:]
    /// The account's email, sent to the provider as `login_hint`; against an Auth emulator,
    /// which runs no provider's page, the account the fake sign-in is for.
    package var accountEmail: String?

    /// The parameters Firebase sets itself, which `customParameters` may not hold.
    package static var reservedParameters: Set<String> { FlowOptions.reservedParameters }

    package init(providerID: String) {
        self.providerID = providerID
    }

    /// `BrowserProvider.credential(providerID:idToken:rawNonce:accessToken:)`: a provider token
    /// held already (Google Sign-In, Sign in with Apple, a CI's OpenID Connect token), for
    /// `AuthService.signIn(with:)` without the browser. Yahoo and Microsoft tokens obtained elsewhere
    /// are refused by Firebase, and by `signIn(with:)` before anything is sent.
    package static func credential(providerID: String, idToken: String? = nil, rawNonce: String? = nil, accessToken: String? = nil,
                                  secret: String? = nil) -> OAuthTokens {
        OAuthTokens(providerID: providerID, accessToken: accessToken, idToken: idToken, secret: secret, rawNonce: rawNonce)
    }

    /// `appleCredential(withIDToken:rawNonce:fullName:)`: Apple gives the user's name only to the
    /// app, at the first sign-in, so the app hands it on with the ID token.
    package static func appleCredential(idToken: String, rawNonce: String?, fullName: PersonName?) -> OAuthTokens {
        var tokens = credential(providerID: "apple.com", idToken: idToken, rawNonce: rawNonce)
        tokens.fullName = fullName
        return tokens
    }

    /// Why tokens of `providerID` obtained elsewhere cannot be used (Yahoo, Microsoft, …: Firebase
    /// refuses them), or nil; said before any token is read or sent.
    package static func tokenRefusal(providerID: String) -> String? { ProviderTokenCredential.refusal(providerID) }
}
