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
        /// An email and its sign-in link, read when the credential is used (a bad link is the
        /// SDK's `invalidActionCode` then, not a crash now).
        case emailLink(email: String, link: String)
    }

    let use: Use

    /// What the engine is handed: `Use` with the email link read.
    enum Resolved {
        case browser(BrowserProvider)
        case tokens(OAuthTokens)
        case other(SignInCredential)
    }

    func resolved() throws(FBAuthError) -> Resolved {
        switch use {
        case .browser(let provider): return .browser(provider)
        case .tokens(let tokens): return .tokens(tokens)
        case .other(let credential): return .other(credential)
        case .emailLink(let email, let link):
            guard let parsed = ActionLink(link: link) else {
                throw .failed(.invalidActionCode, "that link is not one of Firebase's email sign-in links")
            }
            return .other(EmailPassword.credential(withEmail: email, link: parsed))
        }
    }

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
        case .emailLink: nil
        }
    }
}

/// The credential of an OAuth provider, with the provider's tokens once a sign-in has them
/// (`(authResult.credential as? OAuthCredential)?.accessToken`).
open class OAuthCredential: AuthCredential, NSSecureCoding, @unchecked Sendable {
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

    // MARK: NSSecureCoding, with the SDK's keys (OAuthCredential.swift)

    /// Archives are decoded with their classes checked.
    public static let supportsSecureCoding = true

    /// Archives the tokens, as the SDK's does: an app that archives a credential asks for that.
    /// A browser sign-in not run yet archives as its provider alone.
    public func encode(with coder: NSCoder) {
        let tokens: OAuthTokens? = if case .tokens(let tokens) = use { tokens } else { nil }
        coder.encode(idToken, forKey: "IDToken")
        coder.encode(tokens?.rawNonce, forKey: "rawNonce")
        coder.encode(accessToken, forKey: "accessToken")
        coder.encode(tokens?.pendingToken, forKey: "pendingToken")
        coder.encode(secret, forKey: "secret")
        // The SDK archives no provider, and its decoded credentials say "oauth"; fbauth keeps
        // the provider so that a decoded credential still signs in.
        coder.encode(provider, forKey: "providerID")
    }

    /// A credential from an archive (the SDK's or fbauth's).
    public required init?(coder: NSCoder) {
        func string(_ key: String) -> String? { coder.decodedIfPresent(NSString.self, forKey: key).map { String($0) } }
        let provider = string("providerID") ?? "oauth"
        accessToken = string("accessToken")
        idToken = string("IDToken")
        secret = string("secret")
        let tokens = OAuthTokens(providerID: provider, accessToken: accessToken, idToken: idToken, secret: secret,
                                 pendingToken: string("pendingToken"), rawNonce: string("rawNonce"))
        super.init(provider: provider, use: .tokens(tokens))
    }
}

/// Builds email credentials, as the SDK's `EmailAuthProvider`: a password, or a sign-in link.
open class EmailAuthProvider: NSObject {
    /// `password`.
    public static let id = EmailAuthProviderID

    /// A credential of an email and its password (an `EmailAuthCredential`, archivable).
    open class func credential(withEmail email: String, password: String) -> AuthCredential {
        EmailAuthCredential(email: email, secret: .password(password))
    }

    /// A credential of an email and the sign-in link mailed to it (`sendSignInLink`), to link or
    /// reauthenticate with; its provider is `password`, as the SDK's.
    open class func credential(withEmail email: String, link: String) -> AuthCredential {
        EmailAuthCredential(email: email, secret: .link(link))
    }
}

/// What `EmailAuthProvider` makes, as the SDK's (internal) `EmailAuthCredential`: archivable with
/// its keys, `email` and `password` or `link` (firebase-ios-sdk `EmailAuthProvider.swift`). As
/// there, the archive holds the password: an app that archives one keeps it as a secret.
final class EmailAuthCredential: AuthCredential, NSSecureCoding, @unchecked Sendable {
    enum Secret {
        case password(String)
        case link(String)
    }

    let email: String
    let secret: Secret

    init(email: String, secret: Secret) {
        self.email = email
        self.secret = secret
        switch secret {
        case .password(let password): super.init(provider: EmailAuthProviderID, use: .other(EmailPassword.credential(withEmail: email, password: password)))
        case .link(let link): super.init(provider: EmailAuthProviderID, use: .emailLink(email: email, link: link))
        }
    }

    static let supportsSecureCoding = true

    func encode(with coder: NSCoder) {
        coder.encode(email, forKey: "email")
        switch secret {
        case .password(let password): coder.encode(password, forKey: "password")
        case .link(let link): coder.encode(link, forKey: "link")
        }
    }

    convenience init?(coder: NSCoder) {
        func string(_ key: String) -> String? { coder.decodedIfPresent(NSString.self, forKey: key).map { String($0) } }
        guard let email = string("email") else { return nil }
        if let password = string("password") {
            self.init(email: email, secret: .password(password))
        } else if let link = string("link") {
            self.init(email: email, secret: .link(link))
        } else {
            return nil
        }
    }
}

/// `password`: the provider id of email and password accounts.
public let EmailAuthProviderID = "password"
