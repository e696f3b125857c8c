/// What `accountExistsWithDifferentCredential` carries, as the SDK's error does in its
/// `userInfo` (`AuthErrorUserInfoEmailKey`, `AuthErrorUserInfoUpdatedCredentialKey`): the email
/// that already has an account, and the provider's credential, to link with
/// `SignedInUser.link(with: OAuthTokens)` once the user has signed in to that account.
package struct AccountExistsConflict: Sendable {
    /// The email the provider reported, which belongs to an existing account.
    package let email: String?
    /// The provider's credential Firebase could not sign in with.
    package let updatedCredential: OAuthTokens
    /// The sign-in methods Firebase says the account has, when it says (`verifiedProvider`).
    package let existingProviders: [String]
    /// One line for people.
    package let message: String

    internal init(response: SignInWithIdpResponse, providerId: String, message: String) {
        email = response.email
        updatedCredential = OAuthTokens(
            providerID: response.providerId ?? providerId, accessToken: response.oauthAccessToken, idToken: response.oauthIdToken,
            secret: response.oauthTokenSecret, pendingToken: response.pendingToken)
        existingProviders = response.verifiedProvider ?? []
        self.message = message
    }

    private init(email: String?, updatedCredential: OAuthTokens, existingProviders: [String], message: String) {
        self.email = email
        self.updatedCredential = updatedCredential
        self.existingProviders = existingProviders
        self.message = message
    }

    /// The same conflict told in a program's own words (what its user runs next).
    package func rewording(_ message: String) -> AccountExistsConflict {
        AccountExistsConflict(email: email, updatedCredential: updatedCredential, existingProviders: existingProviders, message: message)
    }
}
