import FBAuth
import Foundation

/// Presents the SDK's web views on Apple platforms. On Linux the sign-in runs in the user's
/// browser through fbauth's loopback listener, so none is needed: pass nil.
public protocol AuthUIDelegate: AnyObject {}

/// An OAuth identity provider, as the SDK's `OAuthProvider`: the provider id, custom OAuth
/// parameters and scopes, and a credential from the user's consent.
///
/// On Linux `getCredentialWith(nil)` needs no UI delegate: the credential it gives runs
/// fbauth's browser sign-in (the system's browser, `$BROWSER`, opened on a page of a loopback
/// listener) when it is used with `signIn(with:)`, `link(with:)` or `reauthenticate(with:)`.
open class OAuthProvider: NSObject, @unchecked Sendable {
    /// `yahoo.com`, `microsoft.com`, `twitter.com`, `oidc.NAME`, …
    public let providerID: String
    /// Parameters for the provider's authorization request (`prompt`, Microsoft's `tenant`).
    public var customParameters: [String: String]?
    /// OAuth scopes beyond the provider's defaults.
    public var scopes: [String]?
    let auth: Auth

    /// A provider of the default app.
    public convenience init(providerID: String) {
        self.init(providerID: providerID, auth: Auth.auth())
    }

    /// A provider of `auth`.
    public init(providerID: String, auth: Auth) {
        self.providerID = providerID
        self.auth = auth
        super.init()
    }

    /// A provider named as the SDK's typed ids name it (`.microsoft`, `AuthProviderID("oidc.x")`).
    public convenience init(providerID: AuthProviderID, auth: Auth = Auth.auth()) {
        self.init(providerID: providerID.rawValue, auth: auth)
    }

    /// The SDK's factory, kept for source compatibility.
    public static func provider(providerID: String, auth: Auth = Auth.auth()) -> OAuthProvider {
        OAuthProvider(providerID: providerID, auth: auth)
    }

    /// The same, with the SDK's typed id.
    public static func provider(providerID: AuthProviderID, auth: Auth = Auth.auth()) -> OAuthProvider {
        OAuthProvider(providerID: providerID.rawValue, auth: auth)
    }

    /// A credential of this provider with its parameters and scopes; its browser sign-in runs
    /// when it is used. The completion runs on the main queue, as the SDK's does.
    open func getCredentialWith(_ uiDelegate: AuthUIDelegate?, completion: ((AuthCredential?, Error?) -> Void)? = nil) {
        let credential = OAuthCredential(browser: fbauthProvider)
        let deliver = UncheckedBox(completion)
        DispatchQueue.main.async { deliver.value?(credential, nil) }
    }

    /// The same, with `async`.
    open func credential(with uiDelegate: AuthUIDelegate?) async throws -> AuthCredential {
        OAuthCredential(browser: fbauthProvider)
    }

    var fbauthProvider: BrowserProvider {
        var provider = BrowserProvider(providerID: providerID)
        provider.scopes = scopes ?? []
        provider.customParameters = customParameters ?? [:]
        return provider
    }

    /// A provider token held already (Google Sign-In, Sign in with Apple, a CI's OpenID Connect
    /// token), as the SDK's `OAuthProvider.credential(providerID:idToken:rawNonce:accessToken:)`.
    public static func credential(providerID: AuthProviderID, idToken: String, rawNonce: String? = nil, accessToken: String? = nil) -> OAuthCredential {
        OAuthCredential(pending: BrowserProvider.credential(providerID: providerID.rawValue, idToken: idToken, rawNonce: rawNonce, accessToken: accessToken))
    }

    /// An access token held already (and, for OAuth 1.0a, its secret).
    public static func credential(providerID: AuthProviderID, accessToken: String, secret: String? = nil) -> OAuthCredential {
        OAuthCredential(pending: BrowserProvider.credential(providerID: providerID.rawValue, accessToken: accessToken, secret: secret))
    }
}

/// The SDK's provider ids, as `AuthProviderID`.
public struct AuthProviderID: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    /// The provider id itself.
    public let rawValue: String
    /// A provider id.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A provider id written as a string.
    public init(stringLiteral value: String) { rawValue = value }

    /// `apple.com`.
    public static let apple: AuthProviderID = "apple.com"
    /// `password`.
    public static let email: AuthProviderID = "password"
    /// `facebook.com`.
    public static let facebook: AuthProviderID = "facebook.com"
    /// `github.com`.
    public static let gitHub: AuthProviderID = "github.com"
    /// `google.com`.
    public static let google: AuthProviderID = "google.com"
    /// `phone`.
    public static let phone: AuthProviderID = "phone"
}
