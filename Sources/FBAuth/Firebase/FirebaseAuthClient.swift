#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP
import FBAuthSupport

/// Identity Toolkit v1 and securetoken over an `HTTPTransport`. Every answer is checked here:
/// transport failures become `.network`, error envelopes `.server`, anything that is not
/// Firebase's JSON `.badResponse`. Callers see values or one `FBAuthError`.
internal struct FirebaseAuthClient: Sendable {
    internal let endpoints: FirebaseEndpoints
    internal let apiKey: String
    let transport: HTTPTransport
    let timeout: TimeInterval
    let logger: HTTPExchangeLogger?
    /// Pause before the single retry of an idempotent call.
    let retryDelay: Duration
    /// Headers sent with every request (client version, locale, app identity).
    let identity: ClientIdentity
    /// Takes the pause before a retry.
    let sleeper: Sleeper
    /// Times each exchange, for `--verbose`.
    let clock: MonotonicClock
    /// The App Check token each request carries in `X-Firebase-AppCheck`; nil: none.
    var appCheck: (@Sendable () throws(FBAuthError) -> ExchangedAppCheckToken)?

    internal init(endpoints: FirebaseEndpoints, apiKey: String, transport: HTTPTransport, timeout: TimeInterval = 30,
                logger: HTTPExchangeLogger? = nil, retryDelay: Duration = .milliseconds(500), identity: ClientIdentity = ClientIdentity(),
                sleeper: Sleeper = ThreadSleeper(), clock: MonotonicClock = SystemMonotonicClock()) {
        self.sleeper = sleeper
        self.clock = clock
        self.endpoints = endpoints
        self.apiKey = apiKey
        self.transport = transport
        self.timeout = timeout
        self.logger = logger
        self.retryDelay = retryDelay
        self.identity = identity
    }

    /// Whether a failed call may be sent again. The code exchange never is: an authorization
    /// code is single-use.
    enum Retry { case never, onceIfTransient }

    // MARK: - Identity Toolkit

    internal func createAuthUri(_ request: CreateAuthUriRequest) throws(FBAuthError) -> CreateAuthUriResponse {
        try post("createAuthUri", request, action: "starting the sign-in", retry: .onceIfTransient)
    }

    internal func signInWithIdp(_ request: SignInWithIdpRequest, action: String = "sign-in") throws(FBAuthError) -> SignInWithIdpResponse {
        try post("signInWithIdp", request, action: action, retry: .never)
    }

    internal func lookup(idToken: String) throws(FBAuthError) -> AccountInfo {
        let response: LookupResponse = try post("lookup", LookupRequest(idToken: idToken), action: "account lookup", retry: .onceIfTransient)
        guard let user = response.users?.first, user.localId != nil else {
            throw .signInAgain("account lookup found no user for this session; sign in again")
        }
        return user
    }

    internal func signInWithPassword(email: String, password: String, tenantId: String?, recaptcha: RecaptchaFields? = nil) throws(FBAuthError) -> TokenSignInResponse {
        try post("signInWithPassword", PasswordSignInRequest(email: email, password: password, tenantId: tenantId, recaptcha: recaptcha),
                 action: "password sign-in", retry: .never)
    }

    internal func signUpAnonymously(tenantId: String?) throws(FBAuthError) -> TokenSignInResponse {
        try post("signUp", SignUpRequest(tenantId: tenantId), action: "anonymous sign-in", retry: .never)
    }

    internal func signInWithCustomToken(_ token: String, tenantId: String?) throws(FBAuthError) -> TokenSignInResponse {
        try post("signInWithCustomToken", SignInWithCustomTokenRequest(token: token, tenantId: tenantId), action: "custom-token sign-in", retry: .never)
    }

    /// Texts a code to `phoneNumber` (E.164); the session it belongs to, the SDK's verification id.
    internal func sendVerificationCode(phoneNumber: String, verification: PhoneVerificationFields, tenantId: String?) throws(FBAuthError) -> String {
        let answer: SendVerificationCodeResponse = try post(
            "sendVerificationCode", SendVerificationCodeRequest(phoneNumber: phoneNumber, verification: verification, tenantId: tenantId),
            action: "sending the SMS code", retry: .never)
        return try sessionInfo(answer.sessionInfo)
    }

    /// Signs in, links or reauthenticates with a texted code.
    internal func signInWithPhoneNumber(sessionInfo: String, code: String, idToken: String?, operation: String,
                                        tenantId: String?) throws(FBAuthError) -> TokenSignInResponse {
        try post("signInWithPhoneNumber", SignInWithPhoneNumberRequest(sessionInfo: sessionInfo, code: code, idToken: idToken, operation: operation, tenantId: tenantId),
                 action: "phone sign-in", retry: .never)
    }

    /// The sign-in methods registered for an email (`createAuthUri` with `identifier`).
    internal func signInMethods(email: String, tenantId: String?) throws(FBAuthError) -> CreateAuthUriResponse {
        try post("createAuthUri", CreateAuthUriRequest(continueUri: "http://localhost", tenantId: tenantId, identifier: email),
                 action: "looking up sign-in methods", retry: .onceIfTransient)
    }

    /// Unlinks providers (`accounts:update` with `deleteProvider`); returns the user as it is now.
    internal func deleteProviders(_ providerIds: [String], idToken: String) throws(FBAuthError) -> AccountInfo {
        try post("update", DeleteProviderRequest(idToken: idToken, deleteProvider: providerIds), action: "unlinking", retry: .never)
    }

    internal func deleteAccount(idToken: String) throws(FBAuthError) {
        let _: EmptyAnswer = try post("delete", DeleteAccountRequest(idToken: idToken), action: "deleting the account", retry: .never)
    }

    /// Revokes a provider's token for the user (`POST /v2/accounts:revokeToken`; Apple only, as
    /// the SDKs' `revokeAccessToken` and `revokeToken(withAuthorizationCode:)`).
    internal func revokeToken(_ token: String, type: String, providerId: String, idToken: String, tenantId: String?) throws(FBAuthError) {
        let _: EmptyAnswer = try post(endpoints.revokeToken(apiKey: apiKey),
                                      RevokeTokenRequest(idToken: idToken, providerId: providerId, tokenType: type, token: token, tenantId: tenantId),
                                      action: "revoking the \(providerId) token", retry: .never)
    }

    /// The project of the API key and its authorized domains (`GET /v1/projects`).
    internal func projectConfig() throws(FBAuthError) -> ProjectConfigResponse {
        let request = HTTPClientRequest(method: "GET", url: endpoints.projectConfig(apiKey: apiKey), headers: identity.headers, timeout: timeout)
        return try decode(ProjectConfigResponse.self, from: send(request, action: "reading the project configuration", retry: .onceIfTransient), request: request)
    }

    /// `endpoints.mailNote`, naming the project: `knownProjectId`, else, on an emulator, the
    /// one its project configuration names. fbauth's stand-in answers with the project id;
    /// Google's emulator, as production, with the project number (firebase-tools
    /// `operations.ts`, `getProjects`), which names no `oobCodes` listing: then `PROJECT_ID`.
    internal func mailNote(knownProjectId: String?) -> String {
        guard endpoints.isEmulator else { return "" }
        if let knownProjectId { return endpoints.mailNote(projectId: knownProjectId) }
        return endpoints.mailNote(projectId: (try? projectConfig())?.namedProjectId)
    }

    // MARK: - Multi-factor authentication (v2)

    /// Sends an SMS code to the enrolled phone of a pending sign-in; returns its session.
    internal func startPhoneSignIn(pendingCredential: String, enrollmentId: String, verification: PhoneVerificationFields, tenantId: String?) throws(FBAuthError) -> String {
        let answer: StartMfaSignInResponse = try post(endpoints.accountsV2("mfaSignIn:start", apiKey: apiKey), StartMfaSignInRequest(
            mfaPendingCredential: pendingCredential, mfaEnrollmentId: enrollmentId, phoneSignInInfo: verification, tenantId: tenantId),
            action: "second-factor sign-in", retry: .never)
        return try sessionInfo(answer.phoneResponseInfo?.sessionInfo)
    }

    /// Completes a pending sign-in with an SMS code or a TOTP code.
    internal func finalizeSecondFactorSignIn(pendingCredential: String, enrollmentId: String, code: SecondFactorCode, tenantId: String?) throws(FBAuthError) -> MfaTokensResponse {
        try post(endpoints.accountsV2("mfaSignIn:finalize", apiKey: apiKey), FinalizeMfaSignInRequest(
            mfaPendingCredential: pendingCredential, mfaEnrollmentId: enrollmentId, phoneVerificationInfo: code.phone, totpVerificationInfo: code.totp,
            tenantId: tenantId), action: "second-factor sign-in", retry: .never)
    }

    /// Starts a TOTP enrolment: the secret for the authenticator app.
    internal func startTotpEnrollment(idToken: String, tenantId: String?) throws(FBAuthError) -> TotpSecret {
        let answer: StartMfaEnrollmentResponse = try post(endpoints.accountsV2("mfaEnrollment:start", apiKey: apiKey), StartMfaEnrollmentRequest(
            idToken: idToken, totpEnrollmentInfo: [:], tenantId: tenantId), action: "TOTP enrolment", retry: .never)
        guard let secret = answer.totpSession else {
            throw .badResponse(host: endpoints.identityToolkitHost, reason: "mfaEnrollment:start returned no totpSessionInfo")
        }
        return secret
    }

    /// Starts an SMS enrolment: a code sent to `phoneNumber`; returns its session.
    internal func startPhoneEnrollment(idToken: String, phoneNumber: String, verification: PhoneVerificationFields, tenantId: String?) throws(FBAuthError) -> String {
        var info = verification
        info.phoneNumber = phoneNumber
        let answer: StartMfaEnrollmentResponse = try post(endpoints.accountsV2("mfaEnrollment:start", apiKey: apiKey), StartMfaEnrollmentRequest(
            idToken: idToken, phoneEnrollmentInfo: info, tenantId: tenantId), action: "phone enrolment", retry: .never)
        return try sessionInfo(answer.phoneSessionInfo)
    }

    /// Completes an enrolment with the code the new factor gave.
    internal func finalizeEnrollment(idToken: String, code: SecondFactorCode, displayName: String?, tenantId: String?) throws(FBAuthError) -> MfaTokensResponse {
        try post(endpoints.accountsV2("mfaEnrollment:finalize", apiKey: apiKey), FinalizeMfaEnrollmentRequest(
            idToken: idToken, displayName: displayName, phoneVerificationInfo: code.phone, totpVerificationInfo: code.totp, tenantId: tenantId),
            action: "second-factor enrolment", retry: .never)
    }

    /// Removes a second factor.
    internal func withdrawSecondFactor(idToken: String, enrollmentId: String, tenantId: String?) throws(FBAuthError) -> MfaTokensResponse {
        try post(endpoints.accountsV2("mfaEnrollment:withdraw", apiKey: apiKey), WithdrawMfaRequest(
            idToken: idToken, mfaEnrollmentId: enrollmentId, tenantId: tenantId), action: "removing the second factor", retry: .never)
    }

    /// The project's reCAPTCHA configuration; nil where the server has none (the Auth emulator
    /// answers 501: it checks no reCAPTCHA, and must be sent none).
    internal func recaptchaConfig(tenantId: String?) throws(FBAuthError) -> RecaptchaConfigResponse? {
        let request = HTTPClientRequest(method: "GET", url: endpoints.recaptchaConfig(apiKey: apiKey, tenantId: tenantId), headers: identity.headers, timeout: timeout)
        do {
            return try decode(RecaptchaConfigResponse.self, from: send(request, action: "reading the reCAPTCHA configuration", retry: .onceIfTransient), request: request)
        } catch .server(let error, _) where endpoints.isEmulator && [404, 501].contains(error.httpStatus) {
            return nil
        }
    }

    /// The reCAPTCHA v2 site key (`GET /v1/recaptchaParams`).
    internal func recaptchaV2SiteKey() throws(FBAuthError) -> String {
        let request = HTTPClientRequest(method: "GET", url: endpoints.recaptchaParams(apiKey: apiKey), headers: identity.headers, timeout: timeout)
        let answer = try decode(RecaptchaParamsResponse.self, from: send(request, action: "reading the reCAPTCHA site key", retry: .onceIfTransient), request: request)
        guard let key = answer.recaptchaSiteKey, !key.isEmpty, HeaderValue.isSafe(key), !key.contains(" ") else {
            throw .badResponse(host: endpoints.identityToolkitHost, reason: "recaptchaParams returned no site key")
        }
        return key
    }

    private func sessionInfo(_ value: String?) throws(FBAuthError) -> String {
        guard let value, TokenAlphabet.visible.accepts(value) else {
            throw .badResponse(host: endpoints.identityToolkitHost, reason: "the answer has no sessionInfo")
        }
        return value
    }

    // MARK: - securetoken

    /// Exchanges a refresh token for a new ID token (`POST /v1/token`, form body).
    internal func refresh(refreshToken: String) throws(FBAuthError) -> SecureTokenResponse {
        let body = FormEncoding.encode([("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
        let request = HTTPClientRequest(
            method: "POST", url: endpoints.token(apiKey: apiKey),
            headers: identity.headers.merging(["Content-Type": "application/x-www-form-urlencoded"]) { $1 }, body: Data(body.utf8), timeout: timeout)
        let answer = try decode(SecureTokenResponse.self, from: send(request, action: "token refresh", retry: .onceIfTransient), request: request)
        guard answer.idToken != nil else {
            throw .badResponse(host: endpoints.displayHost(for: request.url), reason: "the token answer has no id_token")
        }
        return answer
    }

    // MARK: - Transport

    func post<Body: Encodable, Answer: Decodable>(_ method: String, _ body: Body, action: String, retry: Retry) throws(FBAuthError) -> Answer {
        try post(endpoints.accounts(method, apiKey: apiKey), body, action: action, retry: retry)
    }

    func post<Body: Encodable, Answer: Decodable>(_ url: URL, _ body: Body, action: String, retry: Retry) throws(FBAuthError) -> Answer {
        let json: Data
        do { json = try JSONEncoder().encode(body) } catch { throw .failed(.internalError, "could not encode the request for \(action): \(error)") }
        let request = HTTPClientRequest(
            method: "POST", url: url,
            headers: identity.headers.merging(["Content-Type": "application/json"]) { $1 }, body: json, timeout: timeout)
        return try decode(Answer.self, from: send(request, action: action, retry: retry), request: request)
    }

    /// Sends the request (and, when allowed, once more after a transient failure) and returns
    /// the body of a 2xx JSON answer.
    func send(_ request: HTTPClientRequest, action: String, retry: Retry) throws(FBAuthError) -> Data {
        do {
            return try sendOnce(request, action: action)
        } catch let error where retry == .onceIfTransient && error.isTransient {
            sleeper.sleep(for: retryDelay)
            return try sendOnce(request, action: action)
        }
    }

    private func sendOnce(_ request: HTTPClientRequest, action: String) throws(FBAuthError) -> Data {
        var request = request
        // As the SDKs send it with every Auth request (firebase-js-sdk packages/auth
        // `_getAdditionalHeaders`), refreshes included.
        if let appCheck { request.headers["X-Firebase-AppCheck"] = try appCheck().token }
        let host = endpoints.displayHost(for: request.url)
        // Options and app configs are checked where they are read; this is the last line.
        if let unsafe = request.headers.first(where: { !HeaderValue.isSafe($0.key) || !HeaderValue.isSafe($0.value) }) {
            throw .failed(.invalidArgument, "refusing to send the \(TerminalText.safe(unsafe.key)) header: it holds a line break or control character")
        }
        let started = clock.now
        let seconds = { () -> TimeInterval in
            let elapsed = started.duration(to: clock.now).components
            return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        }
        let response: HTTPClientResponse
        do {
            response = try transport.send(request)
        } catch {
            logger?.log(LoggedExchange(request, response: nil, failure: error.message, duration: seconds()))
            if error.kind == .tooLarge { throw .badResponse(host: host, reason: error.message) }
            let reason = error.kind == .timedOut ? "no answer within \(Int(request.timeout)) s" : error.message
            throw .network(host: host, reason: reason)
        }
        logger?.log(LoggedExchange(request, response: response, failure: nil, duration: seconds()))
        if (300..<400).contains(response.status) {
            // Identity Toolkit never redirects; a redirect is a proxy or portal, not Firebase.
            let location = TerminalText.safe(response.headers["location"] ?? "nowhere")
            throw .badResponse(host: host, reason: "HTTP \(response.status) redirect to \(location), which is not followed")
        }
        guard (200..<300).contains(response.status) else {
            throw Self.failure(from: response, host: host, action: action, sent: SentSecrets(request))
        }
        guard !response.body.isEmpty else { throw .badResponse(host: host, reason: "empty body (HTTP \(response.status))") }
        guard response.headers["content-type"]?.lowercased().contains("json") == true else {
            throw .badResponse(host: host, reason: "content type '\(response.headers["content-type"] ?? "none")' instead of JSON")
        }
        return response.body
    }

    func decode<Answer: Decodable>(_ type: Answer.Type, from data: Data, request: HTTPClientRequest) throws(FBAuthError) -> Answer {
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch let problem as ServerValueProblem {
            throw .badResponse(host: endpoints.displayHost(for: request.url), reason: TerminalText.safe(problem.description))
        } catch {
            throw .badResponse(host: endpoints.displayHost(for: request.url), reason: "malformed JSON")
        }
    }

    /// The error a non-2xx answer means. Its message never repeats a secret of the request
    /// (`sent`), whatever the server echoed.
    static func failure(from response: HTTPClientResponse, host: String, action: String, sent: SentSecrets = .none) -> FBAuthError {
        if let envelope = try? JSONDecoder().decode(ErrorEnvelope.self, from: response.body) {
            let reasons = (envelope.error.errors ?? []).compactMap(\.reason) + (envelope.error.details ?? []).compactMap(\.reason)
            return .server(ServerError(httpStatus: response.status, message: sent.removed(from: envelope.error.message), reasons: reasons, host: host),
                           action: action)
        }
        if response.status >= 500 || response.status == 429 {
            return .server(ServerError(httpStatus: response.status, message: "HTTP \(response.status)", host: host), action: action)
        }
        return .badResponse(host: host, reason: "HTTP \(response.status) without a Firebase error body")
    }
}

extension FBAuthError {
    /// Failures that a second attempt may cure: no answer, 5xx, 429.
    var isTransient: Bool {
        switch self {
        case .network: true
        case .server(let error, _): error.isTransient
        default: false
        }
    }
}
