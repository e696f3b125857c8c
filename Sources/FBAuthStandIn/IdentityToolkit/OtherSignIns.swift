#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Backend {
    static let signInWithPasswordFields: Set<String> = ["email", "password", "returnSecureToken", "tenantId", "captchaResponse", "captchaChallenge", "idToken", "pendingIdToken", "delegatedProjectNumber", "instanceId", "clientType", "recaptchaVersion"]
    static let signUpFields: Set<String> = ["email", "password", "displayName", "photoUrl", "returnSecureToken", "tenantId", "idToken", "emailVerified", "disabled", "localId", "phoneNumber", "captchaResponse", "captchaChallenge", "instanceId", "targetProjectId", "clientType", "recaptchaVersion", "mfaInfo"]
    static let signInWithCustomTokenFields: Set<String> = ["token", "returnSecureToken", "tenantId", "instanceId", "delegatedProjectNumber"]

    /// Claims a custom token's developer claims may not name (the Admin SDKs' reserved claims).
    static let reservedClaims: Set<String> = ["acr", "amr", "at_hash", "aud", "auth_time", "azp", "cnf", "c_hash", "exp", "iat", "iss", "jti", "nbf",
                                              "nonce", "sub", "firebase"]

    /// The audience of custom tokens made by the Admin SDK.
    static let customTokenAudience = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"

    /// `accounts:signInWithPassword`: EMAIL_NOT_FOUND, then USER_DISABLED, then INVALID_PASSWORD
    /// (INVALID_LOGIN_CREDENTIALS for all but the second under email enumeration protection).
    func signInWithPassword(_ body: JSONBody) throws(APIError) -> [String: Any] {
        guard let email = try body.string("email") else { throw .badRequest("MISSING_EMAIL") }
        guard Self.looksLikeEmail(email) else { throw .badRequest("INVALID_EMAIL") }
        guard let password = try body.string("password"), !password.isEmpty else { throw .badRequest("MISSING_PASSWORD") }
        try checkPasswordRecaptcha(body, action: "signInWithPassword")
        let hidden = configuration.emailEnumerationProtection
        guard var account = account(withEmail: email, tenantId: try body.string("tenantId")) else {
            throw .badRequest(hidden ? "INVALID_LOGIN_CREDENTIALS" : "EMAIL_NOT_FOUND")
        }
        guard !account.disabled else { throw .badRequest("USER_DISABLED") }
        guard passwordMatches(account, password) else { throw .badRequest(hidden ? "INVALID_LOGIN_CREDENTIALS" : "INVALID_PASSWORD") }
        // Production rehashes an imported password with its own at the first sign-in.
        if account.password == nil { account.password = password }
        var answer: [String: Any] = ["kind": "identitytoolkit#VerifyPasswordResponse", "registered": true, "localId": account.localId, "email": email.lowercased()]
        if let challenge = secondFactorChallenge(for: account, signInProvider: "password") {
            return answer.merging(challenge) { $1 }
        }
        let sessionClaims = try runSignInFunctions(&account, isNewUser: false, signInMethod: "password")
        account.lastLoginAt = now()
        accounts[account.key] = account
        for (key, value) in issueTokens(for: account, signInProvider: "password", developerClaims: sessionClaims) { answer[key] = value }
        return answer
    }

    /// `accounts:signUp`: an anonymous user without email and password, else an email/password
    /// user (linked to the `idToken`'s user when one is given).
    func signUp(_ body: JSONBody) throws(APIError) -> [String: Any] {
        let email = try body.string("email"), password = try body.string("password"), idToken = try body.string("idToken")
        guard body.fields["localId"] == nil else { throw .badRequest("UNEXPECTED_PARAMETER : User ID") }
        var answer: [String: Any] = ["kind": "identitytoolkit#SignupNewUserResponse"]
        if email != nil || password != nil { try checkPasswordRecaptcha(body, action: "signUpPassword") }
        if idToken == nil { try admitNewUser(email: email) }
        // Second factors given with the new user (firebase-tools operations.ts, signUp: `mfaInfo`).
        let factors = try Self.enrollments(body.fields["mfaInfo"], now: now())
        guard email != nil || password != nil || idToken != nil else {
            var account = createAccount(tenantId: try body.string("tenantId"))
            account.lastLoginAt = now()
            account.mfaEnrollments = factors
            accounts[account.key] = account
            answer["localId"] = account.localId
            for (key, value) in issueTokens(for: account, signInProvider: "anonymous") { answer[key] = value }
            return answer
        }
        guard let email else { throw .badRequest("MISSING_EMAIL") }
        guard let password else { throw .badRequest("MISSING_PASSWORD") }
        guard Self.looksLikeEmail(email) else { throw .badRequest("INVALID_EMAIL") }
        let tenantId = try body.string("tenantId")
        let linked = try idToken.map { (token: String) throws(APIError) -> Account in try verify(idToken: token) }
        // linkWithCredential(EmailAuthProvider.credential(...)): one password per user.
        // (Google's emulator replaces the user's address and password instead.)
        if linked?.hasPassword == true, !configuration.profile.has(.linkingPasswordReplacesIt) { throw .badRequest("PROVIDER_ALREADY_LINKED") }
        if let owner = self.account(withEmail: email, tenantId: linked?.tenantId ?? tenantId), owner.localId != linked?.localId {
            throw .badRequest("EMAIL_EXISTS")
        }
        try checkPasswordPolicy(password)
        var account = linked ?? createAccount(tenantId: tenantId)
        // The email stays verified only when the user's provider had verified this address.
        account.emailVerified = account.emailVerified && account.email?.lowercased() == email.lowercased()
        account.email = email.lowercased()
        account.password = password
        account.passwordUpdatedAt = now()
        if let displayName = try body.string("displayName") { account.displayName = displayName }
        if !factors.isEmpty { account.mfaEnrollments = factors }
        account.lastLoginAt = now()
        // A client's new user meets the blocking functions (an administrator's is made elsewhere);
        // linking a password to a signed-in user calls none, as in Google's emulator.
        let sessionClaims = linked == nil ? try runSignInFunctions(&account, isNewUser: true, signInMethod: "password") : [:]
        accounts[account.key] = account
        answer["localId"] = account.localId
        answer["email"] = account.email
        answer["displayName"] = account.displayName
        for (key, value) in issueTokens(for: account, signInProvider: "password", developerClaims: sessionClaims) { answer[key] = value }
        return answer
    }

    /// `accounts:signInWithCustomToken`: an Admin-SDK-style JWT (signature not checked here) or,
    /// as the official emulator allows, plain JSON, naming the user by `uid`.
    func signInWithCustomToken(_ body: JSONBody) throws(APIError) -> [String: Any] {
        guard let token = try body.string("token"), !token.isEmpty else { throw .badRequest("MISSING_CUSTOM_TOKEN") }
        let claims: [String: Any]
        if token.hasPrefix("{") {
            guard let parsed = JSONText.parse(Data(token.utf8)) as? [String: Any] else {
                throw .badRequest("INVALID_CUSTOM_TOKEN : ((Auth Emulator only accepts strict JSON or JWTs as fake custom tokens.))")
            }
            claims = parsed
        } else {
            guard let parsed = UnsignedJWT.claims(of: token) else { throw .badRequest("INVALID_CUSTOM_TOKEN : Invalid assertion format") }
            guard parsed["aud"] as? String == Self.customTokenAudience else {
                throw .badRequest("INVALID_CUSTOM_TOKEN : ((Invalid aud (audience): \(parsed["aud"] ?? "") Note: Firebase ID Tokens / third-party tokens cannot be used with signInWithCustomToken.))")
            }
            claims = parsed
            // A tenant's custom token names that tenant (firebase-admin's tenant-aware createCustomToken).
            if let tenantId = try body.string("tenantId"), parsed["tenant_id"] as? String != tenantId {
                throw .badRequest("TENANT_ID_MISMATCH")
            }
        }
        guard let uid = (claims["uid"] ?? claims["user_id"]).map({ "\($0)" }), !uid.isEmpty else { throw .badRequest("MISSING_IDENTIFIER") }
        // The token's developer claims (`claims`, as the Admin SDK's createCustomToken puts them)
        // are the session's, in its ID tokens; reserved names may not be among them.
        let developerClaims = claims["claims"] as? [String: Any] ?? [:]
        if let reserved = developerClaims.keys.sorted().first(where: { Self.reservedClaims.contains($0) }) {
            throw .badRequest(configuration.profile.has(.googleErrorWords)
                ? "FORBIDDEN_CLAIM : \(reserved)" : "INVALID_CUSTOM_TOKEN : Developer claim \"\(reserved)\" is reserved and cannot be specified.")
        }
        var answer: [String: Any] = ["kind": "identitytoolkit#VerifyCustomTokenResponse"]
        var account: Account
        // The user of the tenant the request names: each tenant has users of its own.
        let tenantId = try body.string("tenantId")
        if let existing = accounts[AccountKey(tenantId: tenantId, localId: uid)] {
            guard !existing.disabled else { throw .badRequest("USER_DISABLED") }
            account = existing
            answer["isNewUser"] = false
        } else {
            let now = now()
            account = Account(localId: uid, tenantId: tenantId, createdAt: now, lastLoginAt: now, validSince: now.addingTimeInterval(-1))
            answer["isNewUser"] = true
        }
        account.lastLoginAt = now()
        accounts[account.key] = account
        for (key, value) in issueTokens(for: account, signInProvider: "custom", developerClaims: developerClaims) { answer[key] = value }
        return answer
    }

    static func looksLikeEmail(_ text: String) -> Bool {
        // One `@`, with something on each side; over the bytes (an import checks thousands).
        let bytes = text.utf8
        guard let at = bytes.firstIndex(of: UInt8(ascii: "@")) else { return false }
        let after = bytes.index(after: at)
        return at != bytes.startIndex && after != bytes.endIndex && !bytes[after...].contains(UInt8(ascii: "@"))
    }

    /// Whether `password` is the user's: the one in clear, or the one its imported hash was made
    /// from, checked with the import's algorithm or else the project's own `hashConfig`.
    func passwordMatches(_ account: Account, _ password: String) -> Bool {
        if let clear = account.password { return PasswordHashConfig.constantTimeEqual(Array(clear.utf8), Array(password.utf8)) }
        guard let hash = account.importedPasswordHash.flatMap(PasswordHashConfig.bytes(base64:)),
              let config = account.importedHashConfig ?? configuration.passwordHashConfig
        else { return false }
        return config.matches(password: password, hash: hash, salt: account.importedSalt.flatMap(PasswordHashConfig.bytes(base64:)) ?? [])
    }
}
