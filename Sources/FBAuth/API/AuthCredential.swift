/// A credential for `Auth.signIn(with:)`, `User.link(with:)` and `User.reauthenticate(with:)`,
/// as the SDK's `AuthCredential`: a password, a mailed link, or a provider's token.
public struct AuthCredential: Sendable {
    enum Kind: Sendable {
        case password(email: String, password: String)
        case emailLink(email: String, link: ActionCodeURL)
        /// Mail a link, and wait for it on a loopback listener (`port`, 0: any).
        case emailLinkAwaited(email: String, port: UInt16, timeout: Duration)
        case oauth(OAuthCredential)
    }

    let kind: Kind

    /// A provider's token (`OAuthProvider.credential(…)`), or the `updatedCredential` of an
    /// `accountExistsWithDifferentCredential` error.
    public init(_ credential: OAuthCredential) { kind = .oauth(credential) }

    init(kind: Kind) { self.kind = kind }

    /// `password`, `emailLink`, or the provider's id.
    public var provider: String {
        switch kind {
        case .password: "password"
        case .emailLink, .emailLinkAwaited: "emailLink"
        case .oauth(let credential): credential.providerID
        }
    }
}

/// The SDK's `EmailAuthProvider`: the credentials of an email address.
public enum EmailAuthProvider {
    /// `credential(withEmail:password:)`.
    public static func credential(withEmail email: String, password: String) -> AuthCredential {
        AuthCredential(kind: .password(email: email, password: password))
    }

    /// `credential(withEmail:link:)`: a sign-in link Firebase mailed to `email`.
    public static func credential(withEmail email: String, link: ActionCodeURL) -> AuthCredential {
        AuthCredential(kind: .emailLink(email: email, link: link))
    }

    /// A sign-in link that Firebase mails when the credential is used, and that the operation
    /// waits for: opened in a browser on this machine, it returns to a loopback listener on
    /// `port` (0: any free one), for at most `timeout`. A program without its own handler for
    /// the link's page signs in this way.
    public static func credential(awaitingLinkSentTo email: String, port: UInt16 = 0, timeout: Duration = .seconds(600)) -> AuthCredential {
        AuthCredential(kind: .emailLinkAwaited(email: email, port: port, timeout: timeout))
    }
}
