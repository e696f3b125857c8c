import FBAuthSupport
/// The common end of every identity-provider sign-in: classify the `signInWithIdp` answer and,
/// on success, fetch the whole user with `accounts:lookup`, as the SDKs do after each sign-in.
internal struct SignInCompletion {
    let client: FirebaseAuthClient
    let clock: WallClock
    let tenantId: String?
    /// Who completes a sign-in that needs a second factor.
    var secondFactor: SecondFactorHandling?

    internal init(client: FirebaseAuthClient, clock: WallClock, tenantId: String?, secondFactor: SecondFactorHandling? = nil) {
        self.client = client
        self.clock = clock
        self.tenantId = tenantId
        self.secondFactor = secondFactor
    }

    internal func complete(_ response: SignInWithIdpResponse, providerId: String, purpose: FlowPurpose) throws(FBAuthError) -> SignInResult {
        let tokens: IssuedTokens, factor: MfaEnrollmentInfo?
        switch try IdpSignInOutcome.classify(response, host: client.endpoints.identityToolkitHost, action: purpose.action) {
        case .accountExists(let response):
            return .accountExists(response)
        case .signedIn(_, let issued):
            (tokens, factor) = (issued, nil)
        case .secondFactor(_, let challenge):
            let result = try SecondFactorHandling.complete(challenge, with: secondFactor, client: client, tenantId: tenantId)
            (tokens, factor) = (result.tokens, result.factor)
        }
        return .signedIn(SignInRecord(
            tokens: tokens, idp: response, account: try client.lookup(idToken: tokens.idToken),
            method: response.providerId ?? providerId, isNewUser: response.isNewUser ?? false,
            tenantId: tenantId, receivedAt: clock.now(), secondFactor: factor))
    }
}
