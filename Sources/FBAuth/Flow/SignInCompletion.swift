/// The common end of every identity-provider sign-in: classify the `signInWithIdp` answer and,
/// on success, fetch the whole user with `accounts:lookup`, as the SDKs do after each sign-in.
package struct SignInCompletion {
    let client: FirebaseAuthClient
    let clock: WallClock
    let tenantId: String?

    package init(client: FirebaseAuthClient, clock: WallClock, tenantId: String?) {
        self.client = client
        self.clock = clock
        self.tenantId = tenantId
    }

    package func complete(_ response: SignInWithIdpResponse, providerId: String, purpose: FlowPurpose) throws(FBAuthError) -> BrowserSignInFlow.Result {
        switch try IdpSignInOutcome.classify(response, host: client.endpoints.identityToolkitHost, action: purpose.action) {
        case .accountExists(let response):
            return .accountExists(response)
        case .signedIn(let response, let tokens):
            return .signedIn(SignInRecord(
                tokens: tokens, idp: response, account: try client.lookup(idToken: tokens.idToken),
                method: response.providerId ?? providerId, isNewUser: response.isNewUser ?? false,
                tenantId: tenantId, receivedAt: clock.now()))
        }
    }
}
