/// reCAPTCHA Enterprise for email/password, as the JS SDK's `handleRecaptchaFlow` does it
/// (firebase-js-sdk `platform_browser/recaptcha/recaptcha_enterprise_verifier.ts`): the request
/// goes without a token first; when the server answers `MISSING_RECAPTCHA_TOKEN` and the
/// project's configuration says Enterprise protects `EMAIL_PASSWORD_PROVIDER`, a token for the
/// action is fetched in the browser and the request sent again. A server without a reCAPTCHA
/// configuration (Google's Auth emulator) is never sent the fields.
internal struct PasswordRecaptcha: Sendable {
    let client: FirebaseAuthClient
    let tenantId: String?
    /// Where tokens come from; nil: such a request fails with the server's error.
    let source: RecaptchaTokenSource?

    internal init(client: FirebaseAuthClient, tenantId: String?, source: RecaptchaTokenSource?) {
        self.client = client
        self.tenantId = tenantId
        self.source = source
    }

    /// `action`: `signInWithPassword`, `signUpPassword` or `getOobCode`.
    internal func perform<Answer>(action: String, _ call: (RecaptchaFields?) throws(FBAuthError) -> Answer) throws(FBAuthError) -> Answer {
        do {
            return try call(nil)
        } catch .server(let error, let what) where error.code == "MISSING_RECAPTCHA_TOKEN" {
            guard let source, let config = try client.recaptchaConfig(tenantId: tenantId), config.protects("EMAIL_PASSWORD_PROVIDER"),
                let siteKey = config.siteKey
            else { throw FBAuthError.server(error, action: what) }
            return try call(RecaptchaFields(token: source.enterpriseToken(siteKey: siteKey, action: action)))
        }
    }
}

/// Gets a reCAPTCHA Enterprise token for an action (in the browser, or a test's double).
internal protocol RecaptchaTokenSource: Sendable {
    func enterpriseToken(siteKey: String, action: String) throws(FBAuthError) -> String
}
