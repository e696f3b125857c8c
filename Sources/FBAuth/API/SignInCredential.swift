/// A credential for `AuthService.signIn(with:)`, `SignedInUser.link(with:)` and `SignedInUser.reauthenticate(with:)`,
/// as the SDK's `AuthCredential`: a password, a mailed link, or a provider's token.
package struct SignInCredential: Sendable {
    enum Kind: Sendable {
        case password(email: String, password: String)
        case emailLink(email: String, link: ActionLink)
        /// Mail a link, and wait for it on a loopback listener (`port`, 0: any).
        case emailLinkAwaited(email: String, port: UInt16, timeout: Duration)
        case oauth(OAuthTokens)
        /// The code texted for a verification id (`AuthService.sendVerificationCode`);
        /// `replacing`: linked, it replaces the user's number (`updatePhoneNumber`).
        case phone(verificationID: String, code: String, replacing: Bool)
    }

    let kind: Kind

    /// A provider's token (`BrowserProvider.credential(…)`), or the `updatedCredential` of an
    /// `accountExistsWithDifferentCredential` error.
    package init(_ credential: OAuthTokens) { kind = .oauth(credential) }

    init(kind: Kind) { self.kind = kind }

    /// `password`, `emailLink`, or the provider's id.
    package var provider: String {
        switch kind {
        case .password: "password"
        case .emailLink, .emailLinkAwaited: "emailLink"
        case .oauth(let credential): credential.providerID
        case .phone: "phone"
        }
    }
}

/// The SDK's `EmailAuthProvider`: the credentials of an email address.
package enum EmailPassword {
    /// `credential(withEmail:password:)`.
    package static func credential(withEmail email: String, password: String) -> SignInCredential {
        SignInCredential(kind: .password(email: email, password: password))
    }

    /// `credential(withEmail:link:)`: a sign-in link Firebase mailed to `email`.
    package static func credential(withEmail email: String, link: ActionLink) -> SignInCredential {
        SignInCredential(kind: .emailLink(email: email, link: link))
    }

    /// A sign-in link that Firebase mails when the credential is used, and that the operation
    /// waits for: opened in a browser on this machine, it returns to a loopback listener on
    /// `port` (0: any free one), for at most `timeout`. A program without its own handler for
    /// the link's page signs in this way.
    package static func credential(awaitingLinkSentTo email: String, port: UInt16 = 0, timeout: Duration = .seconds(600)) -> SignInCredential {
        SignInCredential(kind: .emailLinkAwaited(email: email, port: port, timeout: timeout))
    }
}
