import FBAuth
import Foundation

/// Presents the SDK's web views on Apple platforms. On Linux the sign-in runs in the user's
/// browser through fbauth's loopback listener, so none is needed: pass nil.
public protocol AuthUIDelegate: AnyObject {}

/// A provider whose sign-in runs in a web page, as the SDK's `FederatedAuthProvider`:
/// `Auth.signIn(with:uiDelegate:)`, `User.link(with:uiDelegate:)` and
/// `reauthenticate(with:uiDelegate:)` take one. `OAuthProvider` is the one there is.
public protocol FederatedAuthProvider: NSObjectProtocol {
    /// A credential of the provider's sign-in (on Linux, run in the browser when it is used).
    func credential(with uiDelegate: AuthUIDelegate?) async throws -> AuthCredential
}

/// An OAuth identity provider, as the SDK's `OAuthProvider`: the provider id, custom OAuth
/// parameters and scopes, and a credential from the user's consent.
///
/// On Linux `getCredentialWith(nil)` needs no UI delegate: the credential it gives runs
/// fbauth's browser sign-in (the system's browser, `$BROWSER`, opened on a page of a loopback
/// listener) when it is used with `signIn(with:)`, `link(with:)` or `reauthenticate(with:)`.
open class OAuthProvider: NSObject, FederatedAuthProvider, @unchecked Sendable {
    /// `yahoo.com`, `microsoft.com`, `twitter.com`, `oidc.NAME`, …
    public let providerID: String
    /// Parameters for the provider's authorization request (`prompt`, Microsoft's `tenant`).
    /// `login_hint` names the account; against an Auth emulator, which runs no provider's page,
    /// it is the account the emulator's fake sign-in is for (else `user@example.com`).
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

    /// A provider of the default app, as the SDK's factory.
    open class func provider(providerID: String) -> OAuthProvider {
        OAuthProvider(providerID: providerID, auth: Auth.auth())
    }

    /// The same, with the SDK's typed id.
    public class func provider(providerID: AuthProviderID) -> OAuthProvider {
        OAuthProvider(providerID: providerID.rawValue, auth: Auth.auth())
    }

    /// A provider of `auth`.
    open class func provider(providerID: String, auth: Auth) -> OAuthProvider {
        OAuthProvider(providerID: providerID, auth: auth)
    }

    /// The same, with the SDK's typed id.
    public class func provider(providerID: AuthProviderID, auth: Auth) -> OAuthProvider {
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
        provider.accountEmail = customParameters?["login_hint"]
        return provider
    }

    // Credentials of tokens held already (Google Sign-In, Sign in with Apple, a CI's OpenID
    // Connect token), in each of the SDK's spellings: typed ids, and the older String ones.

    /// An ID token (and access token) of the provider.
    public static func credential(providerID: AuthProviderID, idToken: String, accessToken: String? = nil) -> OAuthCredential {
        tokens(providerID.rawValue, idToken: idToken, accessToken: accessToken)
    }

    /// An ID token whose `nonce` is the SHA-256 of `rawNonce` (Apple, OpenID Connect).
    public static func credential(providerID: AuthProviderID, idToken: String, rawNonce: String, accessToken: String? = nil) -> OAuthCredential {
        tokens(providerID.rawValue, idToken: idToken, rawNonce: rawNonce, accessToken: accessToken)
    }

    /// An access token of the provider.
    public static func credential(providerID: AuthProviderID, accessToken: String) -> OAuthCredential {
        tokens(providerID.rawValue, accessToken: accessToken)
    }

    /// An ID token and access token, the provider named by a string.
    public static func credential(withProviderID providerID: String, idToken: String, accessToken: String?) -> OAuthCredential {
        tokens(providerID, idToken: idToken, accessToken: accessToken)
    }

    /// An access token, the provider named by a string.
    public static func credential(withProviderID providerID: String, accessToken: String) -> OAuthCredential {
        tokens(providerID, accessToken: accessToken)
    }

    /// An ID token with its raw nonce and an access token, the provider named by a string.
    public static func credential(withProviderID providerID: String, idToken: String, rawNonce: String, accessToken: String) -> OAuthCredential {
        tokens(providerID, idToken: idToken, rawNonce: rawNonce, accessToken: accessToken)
    }

    /// An ID token with its raw nonce, the provider named by a string.
    public static func credential(withProviderID providerID: String, idToken: String, rawNonce: String) -> OAuthCredential {
        tokens(providerID, idToken: idToken, rawNonce: rawNonce)
    }

    /// Sign in with Apple's ID token, its raw nonce, and the name Apple gave the app at the
    /// first sign-in (Firebase keeps it as the display name; Apple's token has none).
    public static func appleCredential(withIDToken idToken: String, rawNonce: String?, fullName: PersonNameComponents?) -> OAuthCredential {
        let name = fullName.map { PersonName(givenName: $0.givenName, familyName: $0.familyName) }
        return OAuthCredential(pending: BrowserProvider.appleCredential(idToken: idToken, rawNonce: rawNonce, fullName: name))
    }

    static func tokens(_ providerID: String, idToken: String? = nil, rawNonce: String? = nil, accessToken: String? = nil, secret: String? = nil) -> OAuthCredential {
        OAuthCredential(pending: BrowserProvider.credential(providerID: providerID, idToken: idToken, rawNonce: rawNonce, accessToken: accessToken, secret: secret))
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
    /// `gc.apple.com` (Game Center, whose sign-in needs GameKit: on Apple platforms only).
    public static let gameCenter: AuthProviderID = "gc.apple.com"
    /// Any other provider: `oidc.NAME`, `saml.NAME`, `yahoo.com`, `microsoft.com`, …
    public static func custom(_ value: String) -> AuthProviderID { AuthProviderID(rawValue: value) }
}
