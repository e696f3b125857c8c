import FBAuth
import Foundation

/// A credential to sign in, link or reauthenticate with, as the SDK's `AuthCredential`.
open class AuthCredential: NSObject, @unchecked Sendable {
    /// `yahoo.com`, `password`, …
    public let provider: String

    /// What fbauth does with it.
    enum Use {
        /// A browser sign-in with the provider, run when the credential is used (on Linux,
        /// `getCredentialWith` returns this: the code exchange is Firebase's, and binds to
        /// the sign-in, link or reauthentication it is used for).
        case browser(BrowserProvider)
        /// Tokens held already, or a pending credential Firebase handed back.
        case tokens(OAuthTokens)
        case other(SignInCredential)
    }

    let use: Use

    init(provider: String, use: Use) {
        self.provider = provider
        self.use = use
        super.init()
    }

    /// The FBAuth credential of tokens or another kind; nil for a browser sign-in.
    var fbauthCredential: SignInCredential? {
        switch use {
        case .browser: nil
        case .tokens(let credential): SignInCredential(credential)
        case .other(let credential): credential
        }
    }
}

/// The credential of an OAuth provider, with the provider's tokens once a sign-in has them
/// (`(authResult.credential as? OAuthCredential)?.accessToken`).
open class OAuthCredential: AuthCredential, @unchecked Sendable {
    /// The provider's OAuth access token.
    public let accessToken: String?
    /// The provider's OpenID Connect ID token.
    public let idToken: String?
    /// The OAuth 1.0a token secret (X/Twitter).
    public let secret: String?

    init(browser provider: BrowserProvider) {
        accessToken = nil
        idToken = nil
        secret = nil
        super.init(provider: provider.providerID, use: .browser(provider))
    }

    /// The provider's tokens from a sign-in, or the pending credential of an account-exists
    /// error.
    init(pending credential: OAuthTokens) {
        accessToken = credential.accessToken
        idToken = credential.idToken
        secret = credential.secret
        super.init(provider: credential.providerID, use: .tokens(credential))
    }
}

/// Builds email and password credentials, as the SDK's `EmailAuthProvider`.
public enum EmailAuthProvider {
    /// `password`.
    public static let id = EmailAuthProviderID

    /// A credential of an email and its password.
    public static func credential(withEmail email: String, password: String) -> AuthCredential {
        AuthCredential(provider: EmailAuthProviderID, use: .other(EmailPassword.credential(withEmail: email, password: password)))
    }
}

/// `password`: the provider id of email and password accounts.
public let EmailAuthProviderID = "password"
