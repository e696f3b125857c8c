/// An OAuth identity provider to sign in with, as `OAuthProvider` in Firebase's Apple SDK
/// (FirebaseAuth/Sources/Swift/AuthProvider/OAuthProvider.swift): the provider id Firebase
/// knows it by, extra scopes, and custom OAuth parameters (Microsoft's `tenant`, `prompt`, …).
public struct OAuthProvider: Sendable, Equatable {
    /// `yahoo.com`, `microsoft.com`, `twitter.com`, `github.com`, `oidc.NAME`, `saml.NAME`, …
    public let providerID: String
    /// OAuth scopes beyond the provider's defaults.
    public var scopes: [String] = []
    /// Parameters for the provider's authorization request; those Firebase sets itself
    /// (`client_id`, `redirect_uri`, `state`, …) are refused.
    public var customParameters: [String: String] = [:]
    /// The account's email, sent to the provider as `login_hint`; against an Auth emulator,
    /// which runs no provider's page, the account the fake sign-in is for.
    public var accountEmail: String?

    /// The parameters Firebase sets itself, which `customParameters` may not hold.
    public static var reservedParameters: Set<String> { FlowOptions.reservedParameters }

    public init(providerID: String) {
        self.providerID = providerID
    }

    /// `OAuthProvider.credential(providerID:idToken:rawNonce:accessToken:)`: a provider token
    /// held already (Google Sign-In, Sign in with Apple, a CI's OpenID Connect token), for
    /// `Auth.signIn(with:)` without the browser. Yahoo and Microsoft tokens obtained elsewhere
    /// are refused by Firebase, and by `signIn(with:)` before anything is sent.
    public static func credential(providerID: String, idToken: String? = nil, rawNonce: String? = nil, accessToken: String? = nil,
                                  secret: String? = nil) -> OAuthCredential {
        OAuthCredential(providerID: providerID, accessToken: accessToken, idToken: idToken, secret: secret, rawNonce: rawNonce)
    }

    /// Why tokens of `providerID` obtained elsewhere cannot be used (Yahoo, Microsoft, …: Firebase
    /// refuses them), or nil; said before any token is read or sent.
    public static func tokenRefusal(providerID: String) -> String? { ProviderTokenCredential.refusal(providerID) }
}
