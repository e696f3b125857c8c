/// The common end of every identity-provider sign-in: classify the `signInWithIdp` answer and,
/// on success, fetch the whole user with `accounts:lookup`, as the SDKs do after each sign-in.
struct SignInCompletion {
    let client: FirebaseAuthClient
    let clock: WallClock
    let tenantId: String?

    func complete(_ response: SignInWithIdpResponse, providerId: String, purpose: FlowPurpose) throws(FBAuthError) -> BrowserSignInFlow.Result {
        switch try IdpSignInOutcome.classify(response, host: client.endpoints.identityToolkitHost, action: purpose.action) {
        case .accountExists(let response):
            return .accountExists(response)
        case .signedIn(let response):
            let account = try client.lookup(idToken: response.idToken!)
            return .signedIn(SignInRecord(
                response: response, account: account, requestedProviderId: providerId,
                tenantId: tenantId, receivedAt: clock.now()))
        }
    }
}
