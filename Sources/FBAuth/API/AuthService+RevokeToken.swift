/// Revoking a provider's token through Firebase: Apple requires an app to revoke the user's
/// Sign in with Apple tokens when the account is deleted (App Store Review Guideline 5.1.1(v)).
extension AuthService {
    /// `revokeAccessToken(_:)` (JS `revokeAccessToken`): revokes `token`, an Apple access token
    /// from the user's Sign in with Apple credential, through `accounts:revokeToken`; with
    /// `user` nil, for the current user.
    package func revokeAccessToken(_ token: String, of user: SignedInUser? = nil) async throws(FBAuthError) {
        try await inBackground(revoking(token, of: user))
    }

    /// The same with a completion handler.
    package func revokeAccessToken(_ token: String, of user: SignedInUser? = nil, completion: @escaping @Sendable (Result<Void, FBAuthError>) -> Void) {
        onBackground(revoking(token, of: user), completion)
    }

    /// `revokeToken(withAuthorizationCode:)` (iOS): revokes the user's Apple tokens by the
    /// authorization code of a Sign in with Apple, for the current user. The SDK sends the
    /// token type as the enum's number, `"3"` (RevokeTokenRequest.swift), and no redirect URI;
    /// so does fbauth.
    package func revokeAuthorizationCode(_ code: String) async throws(FBAuthError) {
        try await inBackground(revoking(code, of: nil, type: "3"))
    }

    private func revoking(_ token: String, of user: SignedInUser?, type: String = "ACCESS_TOKEN") -> @Sendable () throws(FBAuthError) -> Void {
        { () throws(FBAuthError) in
            guard let user = user ?? self.currentUser else { throw .signInAgain("no user is signed in to revoke a token for") }
            try user.withSession { (session, auth) throws(FBAuthError) in
                try auth.client().revokeToken(token, type: type, providerId: "apple.com", idToken: session.idToken, tenantId: session.tenantId)
            }()
        }
    }
}

extension SignedInUser {
    /// The Apple access token kept from this user's last Sign in with Apple (read from the
    /// keyring when it is kept there); nil when none is kept.
    package var keptAppleAccessToken: String? {
        savedProviderCredentials.first { $0.credential.providerID == "apple.com" }?.credential.accessToken
    }
}
