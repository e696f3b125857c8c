import FBAuthSupport
/// Sign-in without a browser: email and password, anonymous, a custom token minted by the
/// app's server (the Firebase Auth REST API reference), or a provider credential Firebase
/// handed back earlier. Each ends like an identity-provider sign-in: the
/// whole user from `accounts:lookup`.
internal struct CredentialSignIn {
    let client: FirebaseAuthClient
    let clock: WallClock
    let tenantId: String?
    /// Who completes a sign-in that needs a second factor.
    internal let secondFactor: SecondFactorHandling?
    /// Where reCAPTCHA Enterprise tokens come from when the project protects email/password;
    /// nil: such a sign-in fails with the server's error.
    let recaptchaTokens: RecaptchaTokenSource?

    internal init(client: FirebaseAuthClient, clock: WallClock, tenantId: String?, secondFactor: SecondFactorHandling? = nil,
                 recaptchaTokens: RecaptchaTokenSource? = nil) {
        self.client = client
        self.clock = clock
        self.tenantId = tenantId
        self.secondFactor = secondFactor
        self.recaptchaTokens = recaptchaTokens
    }

    /// The same sign-in with reCAPTCHA Enterprise tokens, for the password requests that take them.
    internal func with(recaptchaTokens: RecaptchaTokenSource) -> CredentialSignIn {
        CredentialSignIn(client: client, clock: clock, tenantId: tenantId, secondFactor: secondFactor, recaptchaTokens: recaptchaTokens)
    }

    /// Signs in, links or reauthenticates with a provider credential Firebase handed back
    /// earlier (`needConfirmation`), without the browser.
    internal func providerCredential(_ credential: PendingCredential, purpose: FlowPurpose) throws(FBAuthError) -> SignInResult {
        try signInWithIdp(credential.request, providerId: credential.providerId, purpose: purpose)
    }

    /// `signInWithIdp` for the purpose (link, reauthentication), then the whole user.
    func signInWithIdp(_ credentialRequest: SignInWithIdpRequest, providerId: String, purpose: FlowPurpose) throws(FBAuthError) -> SignInResult {
        var request = credentialRequest
        request.idToken = purpose.linkToken
        request.autoCreate = purpose.autoCreate
        request.tenantId = tenantId
        let response = try client.signInWithIdp(request, action: purpose.action)
        return try SignInCompletion(client: client, clock: clock, tenantId: tenantId, secondFactor: secondFactor)
            .complete(response, providerId: providerId, purpose: purpose)
    }

    internal func password(email: String, password: String) throws(FBAuthError) -> SignInRecord {
        let response = try recaptcha.perform(action: "signInWithPassword") { (fields) throws(FBAuthError) in
            try client.signInWithPassword(email: email, password: password, tenantId: tenantId, recaptcha: fields)
        }
        return try record(response, method: "password", action: "password sign-in")
    }

    var recaptcha: PasswordRecaptcha { PasswordRecaptcha(client: client, tenantId: tenantId, source: recaptchaTokens) }

    internal func anonymous() throws(FBAuthError) -> SignInRecord {
        var record = try record(client.signUpAnonymously(tenantId: tenantId), method: nil, action: "anonymous sign-in")
        record.isNewUser = true  // signUp always creates the user
        return record
    }

    internal func customToken(_ token: String) throws(FBAuthError) -> SignInRecord {
        try record(client.signInWithCustomToken(token, tenantId: tenantId), method: nil, action: "custom-token sign-in")
    }

    func record(_ response: TokenSignInResponse, method: String?, action: String) throws(FBAuthError) -> SignInRecord {
        let host = client.endpoints.identityToolkitHost
        var tokens: IssuedTokens, factor: MfaEnrollmentInfo?
        if let pending = response.mfaPendingCredential {
            let challenge = try SecondFactorChallenge(pending: pending, factors: response.mfaInfo, host: host, action: action)
            let result = try SecondFactorHandling.complete(challenge, with: secondFactor, client: client, tenantId: tenantId)
            (tokens, factor) = (result.tokens, result.factor)
        } else {
            guard let idToken = response.idToken, let refreshToken = response.refreshToken else {
                throw .badResponse(host: host, reason: "the \(action) answer has no idToken or refreshToken")
            }
            (tokens, factor) = (IssuedTokens(idToken: idToken, refreshToken: refreshToken, expiresIn: response.expiresIn), nil)
        }
        return SignInRecord(
            tokens: tokens, idp: nil, account: try client.lookup(idToken: tokens.idToken), method: method,
            isNewUser: response.isNewUser ?? false, tenantId: tenantId, receivedAt: clock.now(), secondFactor: factor)
    }
}
