#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// All of the stand-in's mutable state. Used only under `StandIn`'s lock: the server thread
/// handles one request at a time, and tests inspect it from their own threads.
final class Backend {
    var configuration: StandInConfiguration
    /// `http://127.0.0.1:PORT`, for the authorization URLs of the fake providers.
    var baseURL = ""
    var accounts = AccountDirectory()

    /// The key of the user of `uid` where only the uid is known (a test's helpers, an export's
    /// factors and sessions): the project's, else the first tenant's with that uid.
    func key(ofUID uid: String) -> AccountKey {
        let project = AccountKey(tenantId: nil, localId: uid)
        if accounts[project] != nil { return project }
        return accounts.keys.filter { $0.localId == uid }.min { ($0.tenantId ?? "") < ($1.tenantId ?? "") } ?? project
    }
    /// The project's blocking functions (`projects/P/config`, `--blocking-function`): their
    /// triggers are called (BlockingFunctions.swift).
    var blockingFunctions = BlockingFunctionsConfig()
    /// Runs its argument with `StandIn`'s lock released, and takes it again: for a blocking
    /// function's call, which may take seconds, while other clients are served.
    var outsideLock: (() -> Void) -> Void = { $0() }
    /// The project configuration's `signIn.phoneNumber` (`enabled`, `testPhoneNumbers`), kept as set.
    var phoneNumberSignIn = PhoneSignInConfig()
    /// The project configuration's other settings as the Admin API last set them (`mfa`,
    /// `recaptchaConfig`, `passwordPolicyConfig`, `smsRegionConfig`, `mobileLinksConfig`), kept
    /// as given and read back as they were.
    var projectSettings: [String: JSONValue] = [:]
    /// Tenants made through the Admin API (`projects/P/tenants`), by id: their resource.
    var tenants: [String: TenantRecord] = [:]
    /// OpenID Connect and SAML provider configurations (`oauthIdpConfigs`, `inboundSamlConfigs`),
    /// by collection, then by resource name.
    var providerConfigs: [String: [String: [String: JSONValue]]] = [:]
    /// Proofs of a verified phone number another user has (`signInWithPhoneNumber`), by proof.
    var temporaryProofs: [String: String] = [:]
    var pendingAuthorizations: [String: PendingAuthorization] = [:]
    var grants: [String: IssuedGrant] = [:]
    var idTokens: [String: IssuedIDToken] = [:]
    var refreshTokens: [String: IssuedRefreshToken] = [:]
    var pendingCredentials: [String: ProviderIdentity] = [:]
    var pendingMfaSignIns: [String: PendingMfaSignIn] = [:]
    var phoneVerifications: [String: PhoneVerification] = [:]
    var totpEnrollments: [String: PendingTotpEnrollment] = [:]
    /// Codes "mailed" for password reset, verification, email change and email-link sign-in.
    var oobCodes: [String: OobRecord] = [:]
    /// Told each mail and SMS the stand-in "sends", in the words Google's Auth emulator logs
    /// them (`fbauth emulator` prints them); nil: told nobody.
    var outbox: (@Sendable (String) -> Void)?
    /// Provider tokens the fake providers handed out (or tests minted), which a credential
    /// sign-in may present: access tokens and ID tokens, by token.
    var providerCredentials: [String: ProviderIdentity] = [:]
    /// App Check tokens issued by the debug-token exchange, with when they expire.
    var appCheckTokens: [String: Date] = [:]
    /// App Check tokens a server consumed (`verifyAppCheckToken`), for replay protection.
    var consumedAppCheckTokens: Set<String> = []
    /// Apple tokens revoked through `accounts:revokeToken`.
    var revokedProviderTokens: Set<String> = []
    /// Access tokens the Admin API takes (from `/oauth2.googleapis.com/token`), and until when.
    var adminAccessTokens: [String: Date] = [:]
    var requests: [RecordedRequest] = []
    var authorizations: [RecordedAuthorization] = []
    var faults: [Fault] = []
    /// Added to the wall clock, so tests can age tokens without waiting.
    var clockOffset: TimeInterval = 0

    init(configuration: StandInConfiguration) {
        self.configuration = configuration
        if !configuration.blockingFunctionURIs.isEmpty {
            blockingFunctions = BlockingFunctionsConfig(uris: configuration.blockingFunctionURIs)
        }
    }

    func now() -> Date { Date().addingTimeInterval(clockOffset) }

    /// The project's authorized domains, as `GET /v1/projects` reports them.
    var authorizedDomains: [String] { projectConfig()["authorizedDomains"] as? [String] ?? [] }

    // MARK: - Accounts

    func account(linkedTo providerId: String, rawId: String, tenantId: String?) -> Account? {
        accounts.account(linkedTo: providerId, rawId: rawId, tenantId: tenantId)
    }

    /// The user with `email` (any case); the earliest made where a project lets several share it.
    func account(withEmail email: String, tenantId: String?) -> Account? {
        accounts.accounts(withEmail: email, tenantId: tenantId).first
    }

    /// What the project says before a sign-in creates a user: sign-ups may be disabled, and a
    /// beforeCreate blocking function may refuse (as production words it).
    func admitNewUser(email: String?) throws(APIError) {
        if configuration.signUpsDisabled { throw .badRequest("ADMIN_ONLY_OPERATION") }
        if let refusal = configuration.blockingFunctionRefusal {
            let answer = #"{"error":{"message":"\#(refusal)","status":"PERMISSION_DENIED"}}"#
            throw .badRequest("BLOCKING_FUNCTION_ERROR_RESPONSE : ((HTTP Cloud Function returned an error: \(answer)))")
        }
    }

    func createAccount(tenantId: String?) -> Account {
        let now = now()
        let account = Account(localId: RandomToken.localId(), tenantId: tenantId, createdAt: now, lastLoginAt: now, validSince: now.addingTimeInterval(-1))
        accounts[account.key] = account
        return account
    }

    // MARK: - Firebase tokens

    /// Mints an ID token and a refresh token for the account (`issueTokens` in the emulator).
    func issueTokens(for account: Account, signInProvider: String, secondFactor: SecondFactorClaim? = nil,
                     developerClaims: [String: Any] = [:], signInAttributes: [String: Any]? = nil) -> [String: Any] {
        let refreshToken = configuration.profile.has(.readableRefreshTokens)
            ? Self.googleEmulatorRefreshToken(localId: account.localId, tenantId: account.tenantId, provider: signInProvider,
                                              projectId: configuration.projectId, extraClaims: developerClaims)
            : "AMf-vB" + RandomToken.make(bytes: 48)
        refreshTokens[refreshToken] = IssuedRefreshToken(
            localId: account.localId, tenantId: account.tenantId, issuedAt: now(), signInProvider: signInProvider, secondFactor: secondFactor,
            developerClaims: developerClaims)
        return [
            "idToken": mintIDToken(for: account, signInProvider: signInProvider, secondFactor: secondFactor, developerClaims: developerClaims,
                                   signInAttributes: signInAttributes),
            "refreshToken": refreshToken,
            "expiresIn": String(configuration.idTokenLifetime),
        ]
    }

    /// A refresh token shaped as Google's emulator makes them (firebase-tools state.ts,
    /// encodeRefreshToken: its record, JSON in base64), which its clients may read; a nonce
    /// keeps each one distinct. It works only while the stand-in knows it, as any other.
    static func googleEmulatorRefreshToken(localId: String, tenantId: String?, provider: String, projectId: String,
                                           extraClaims: [String: Any]) -> String {
        var record: [String: Any] = ["_AuthEmulatorRefreshToken": "DO NOT MODIFY", "localId": localId, "provider": provider,
                                     "extraClaims": extraClaims, "projectId": projectId, "nonce": RandomToken.make(bytes: 12)]
        record["tenantId"] = tenantId
        return JSONText.data(record).base64EncodedString()
    }

    func mintIDToken(for account: Account, signInProvider: String, secondFactor: SecondFactorClaim? = nil,
                     developerClaims: [String: Any] = [:], signInAttributes: [String: Any]? = nil) -> String {
        let now = now()
        // `lastRefreshAt` is the time of the last token, as production and Google's emulator keep it.
        accounts[account.key]?.lastRefreshAt = now
        let expires = now.addingTimeInterval(TimeInterval(configuration.idTokenLifetime))
        var identities: [String: [String]] = [:]
        for link in account.links { identities[link.providerId, default: []].append(link.rawId) }
        if let email = account.email { identities["email"] = [email] }
        var firebase: [String: Any] = ["identities": identities, "sign_in_provider": signInProvider]
        if let tenantId = account.tenantId { firebase["tenant"] = tenantId }
        firebase["sign_in_attributes"] = signInAttributes
        if let secondFactor {
            firebase["sign_in_second_factor"] = secondFactor.factorId
            firebase["second_factor_identifier"] = secondFactor.enrollmentId
        }
        var claims: [String: Any] = [
            "iss": "https://securetoken.google.com/\(configuration.projectId)", "aud": configuration.projectId,
            "auth_time": Int(account.lastLoginAt.timeIntervalSince1970), "user_id": account.localId,
            "sub": account.localId, "iat": Int(now.timeIntervalSince1970), "exp": Int(expires.timeIntervalSince1970),
            "email_verified": account.emailVerified, "firebase": firebase,
        ]
        if let phone = account.phoneNumber { claims["phone_number"] = phone }
        // Custom claims may not replace the reserved ones (Firebase's custom-claims guide).
        // A custom token's claims win over the user's own (as Google's emulator merges them).
        for (name, value) in account.customClaims.merging(developerClaims, uniquingKeysWith: { $1 })
        where claims[name] == nil && name != "firebase" { claims[name] = value }
        if signInProvider == "anonymous" { claims["provider_id"] = "anonymous" }
        if let email = account.email { claims["email"] = email }
        if let name = account.displayName { claims["name"] = name }
        if let picture = account.photoUrl { claims["picture"] = picture }
        let token = mintJWT(claims)
        idTokens[token] = IssuedIDToken(localId: account.localId, tenantId: account.tenantId, issuedAt: now, expiresAt: expires,
                                        authTime: account.lastLoginAt, signInProvider: signInProvider, secondFactor: secondFactor)
        return token
    }

    /// The account an ID token belongs to, checked in the emulator's order: INVALID_ID_TOKEN,
    /// USER_NOT_FOUND, TOKEN_EXPIRED (revoked — and, as in production, past `exp`), USER_DISABLED.
    func verify(idToken: String) throws(APIError) -> Account {
        try verifiedToken(idToken).account
    }

    func verifiedToken(_ idToken: String) throws(APIError) -> (account: Account, token: IssuedIDToken) {
        guard let issued = idTokens[idToken] else { throw .badRequest("INVALID_ID_TOKEN") }
        guard let account = accounts[AccountKey(tenantId: issued.tenantId, localId: issued.localId)] else { throw .badRequest("USER_NOT_FOUND") }
        guard issued.expiresAt > now(), issued.issuedAt >= account.validSince else { throw .badRequest("TOKEN_EXPIRED") }
        guard !account.disabled else { throw .badRequest("USER_DISABLED") }
        return (account, issued)
    }

    /// Seconds since 1970 in milliseconds, as a string (Identity Toolkit's timestamp format).
    static func milliseconds(_ date: Date) -> String { String(Int64(date.timeIntervalSince1970 * 1000)) }
}

extension Backend {
    /// A token of `claims`, signed as the configuration says: RS256 by the stand-in's key,
    /// `alg: none` as Google's Auth emulator makes them, or RS256-shaped with random bytes.
    func mintJWT(_ claims: [String: Any]) -> String {
        if configuration.signsIDTokens { return UnsignedJWT.make(claims, signed: true) }
        if configuration.unsignedTokens { return UnsignedJWT.none(claims) }
        return UnsignedJWT.make(claims)
    }
}
