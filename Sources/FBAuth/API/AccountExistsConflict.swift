/// What `accountExistsWithDifferentCredential` carries, as the SDK's error does in its
/// `userInfo` (`AuthErrorUserInfoEmailKey`, `AuthErrorUserInfoUpdatedCredentialKey`): the email
/// that already has an account, and the provider's credential, to link with
/// `User.link(with: OAuthCredential)` once the user has signed in to that account.
public struct AccountExistsConflict: Sendable {
    /// The email the provider reported, which belongs to an existing account.
    public let email: String?
    /// The provider's credential Firebase could not sign in with.
    public let updatedCredential: OAuthCredential
    /// The sign-in methods Firebase says the account has, when it says (`verifiedProvider`).
    public let existingProviders: [String]
    /// One line for people.
    public let message: String

    internal init(response: SignInWithIdpResponse, providerId: String, message: String) {
        email = response.email
        updatedCredential = OAuthCredential(
            providerID: response.providerId ?? providerId, accessToken: response.oauthAccessToken, idToken: response.oauthIdToken,
            secret: response.oauthTokenSecret, pendingToken: response.pendingToken)
        existingProviders = response.verifiedProvider ?? []
        self.message = message
    }

    private init(email: String?, updatedCredential: OAuthCredential, existingProviders: [String], message: String) {
        self.email = email
        self.updatedCredential = updatedCredential
        self.existingProviders = existingProviders
        self.message = message
    }

    /// The same conflict told in a program's own words (what its user runs next).
    public func rewording(_ message: String) -> AccountExistsConflict {
        AccountExistsConflict(email: email, updatedCredential: updatedCredential, existingProviders: existingProviders, message: message)
    }
}
