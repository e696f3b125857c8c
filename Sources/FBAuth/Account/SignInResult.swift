/// How a sign-in with a provider ended, in the browser or with a credential.
internal enum SignInResult: Sendable {
    case signedIn(SignInRecord)
    /// `needConfirmation`: the provider's email belongs to an account with other methods.
    case accountExists(SignInWithIdpResponse)
}
