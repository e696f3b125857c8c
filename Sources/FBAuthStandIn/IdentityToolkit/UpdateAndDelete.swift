#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Backend {
    static let updateFields: Set<String> = ["idToken", "localId", "deleteProvider", "deleteAttribute", "displayName", "photoUrl", "email", "password", "returnSecureToken", "tenantId", "oobCode", "emailVerified", "validSince", "disableUser", "targetProjectId", "provider", "upgradeToFederatedLogin", "phoneNumber", "customAttributes", "linkProviderUserInfo", "mfa", "captchaChallenge", "captchaResponse", "instanceId", "delegatedProjectNumber", "deletePasskey"]
    static let deleteFields: Set<String> = ["idToken", "localId", "tenantId", "targetProjectId", "delegatedProjectNumber"]

    /// `accounts:update` (setAccountInfo) for the signed-in user: unlink (`deleteProvider`;
    /// removing `password` removes the email too), profile (`displayName`, `photoUrl`,
    /// `deleteAttribute`), a new password (needs a recent sign-in, as in production; revokes
    /// other sessions and returns new tokens); or, with `oobCode`, a mailed action.
    func update(_ body: JSONBody) throws(APIError) -> [String: Any] {
        if let code = try body.string("oobCode") { return try applyActionCode(code, tenantId: try body.string("tenantId")) }
        guard let idToken = try body.string("idToken") else { throw .badRequest("INVALID_REQ_TYPE : Unsupported request parameters.") }
        let (verified, token) = try verifiedToken(idToken)
        var account = verified
        var signInProvider = token.signInProvider
        var revokes = false, changedEmail = false
        for providerId in try body.strings("deleteProvider") ?? [] {
            if providerId == "password" {
                account.password = nil
                account.email = nil
                account.emailVerified = false
                account.emailLinkSignIn = false
            } else {
                account.links.removeAll { $0.providerId == providerId }
            }
        }
        if let email = try body.string("email") {
            // The deprecated direct change; production refuses it under email enumeration protection.
            guard !configuration.emailEnumerationProtection else { throw .badRequest("OPERATION_NOT_ALLOWED : Operation is not allowed.") }
            guard Self.looksLikeEmail(email) else { throw .badRequest("INVALID_EMAIL") }
            if let owner = self.account(withEmail: email, tenantId: account.tenantId), owner.localId != account.localId { throw .badRequest("EMAIL_EXISTS") }
            if account.email?.lowercased() != email.lowercased() {
                // The first address is kept, for the RECOVER_EMAIL mail Google's emulator sends.
                if signInProvider != "anonymous", account.initialEmail == nil { account.initialEmail = account.email }
                account.email = email.lowercased()
                account.emailVerified = false
                revokes = true
                changedEmail = true
            }
        }
        if let password = try body.string("password") {
            guard now().timeIntervalSince(token.authTime) <= configuration.recentSignIn else { throw .badRequest("CREDENTIAL_TOO_OLD_LOGIN_AGAIN") }
            try checkPasswordPolicy(password)
            account.password = password
            account.passwordUpdatedAt = now()
            signInProvider = "password"
            revokes = true
        }
        if let displayName = try body.string("displayName") { account.displayName = displayName }
        if let photoUrl = try body.string("photoUrl") { account.photoUrl = photoUrl }
        for attribute in try body.strings("deleteAttribute") ?? [] {
            switch attribute {
            case "DISPLAY_NAME": account.displayName = nil
            case "PHOTO_URL": account.photoUrl = nil
            case "PASSWORD": account.password = nil
            case "EMAIL": (account.email, account.emailVerified, account.emailLinkSignIn) = (nil, false, false)
            case "USER_ATTRIBUTE_NAME_UNSPECIFIED": break
            default: throw .badRequest("INVALID_ARGUMENT : Invalid value at 'delete_attribute' (\(attribute))")
            }
        }
        if configuration.profile.has(.updateLinksProviderUserInfo) {
            try linkProviderUserInfo(&account, body)
            let unenrolled = try body.strings("deletePasskey") ?? []
            account.passkeys.removeAll { unenrolled.contains($0.credentialId) }
        }
        // Google's emulator revokes in whole seconds, so the token just used goes on working.
        if revokes { account.validSince = configuration.profile.has(.revokesInWholeSeconds) ? Date(timeIntervalSince1970: now().timeIntervalSince1970.rounded(.down)) : now() }
        accounts[account.key] = account
        if changedEmail, configuration.profile.has(.recoverEmailMailOnChange), let initial = account.initialEmail {
            mailOob(to: initial, requestType: "RECOVER_EMAIL", mode: "recoverEmail", tenantId: account.tenantId)
        }
        var answer = setAccountInfoAnswer(account)
        if revokes {
            // The user's other sessions end; this one goes on with new tokens.
            for (key, value) in issueTokens(for: account, signInProvider: signInProvider, secondFactor: token.secondFactor) { answer[key] = value }
        }
        return answer
    }

    /// `projects/P/accounts:update` as the Admin SDK calls it (the emulator's `Bearer owner`):
    /// another user by `localId`, its email verified, the account disabled, its tokens revoked.
    /// `tenant`: the tenant the path names, else the body's `tenantId`.
    func adminUpdate(_ body: JSONBody, tenant: String? = nil) throws(APIError) -> [String: Any] {
        guard let localId = try body.string("localId") else { throw .badRequest("MISSING_LOCAL_ID") }
        let bodyTenant = try body.string("tenantId")
        let key = AccountKey(tenantId: tenant ?? bodyTenant, localId: localId)
        if let attributes = try body.string("customAttributes") { _ = try Self.customClaims(attributes) }
        if let enrollments = try body.object("mfa")?.fields["enrollments"], !(enrollments is [Any]) {
            throw .invalidArgument("Invalid JSON payload received. /mfa/enrollments must be array")
        }
        guard var account = accounts[key] else { throw .badRequest("USER_NOT_FOUND") }
        if let verified = try body.bool("emailVerified") { account.emailVerified = verified }
        if let disabled = try body.bool("disableUser") { account.disabled = disabled }
        if let displayName = try body.string("displayName") { account.displayName = displayName }
        if let photoUrl = try body.string("photoUrl") { account.photoUrl = photoUrl }
        if let email = try body.string("email") {
            guard Self.looksLikeEmail(email) else { throw .badRequest("INVALID_EMAIL") }
            if let owner = self.account(withEmail: email, tenantId: account.tenantId), owner.localId != localId { throw .badRequest("EMAIL_EXISTS") }
            account.email = email.lowercased()
        }
        if let password = try body.string("password") {
            guard password.count >= 6 else { throw .badRequest("WEAK_PASSWORD : Password should be at least 6 characters") }
            account.password = password
            account.passwordUpdatedAt = now()
        }
        if let number = try body.string("phoneNumber") {
            guard Self.isPhoneNumber(number) else { throw .badRequest("INVALID_PHONE_NUMBER : Invalid format.") }
            if let owner = self.account(withPhoneNumber: number, tenantId: account.tenantId), owner.localId != localId { throw .badRequest("PHONE_NUMBER_EXISTS") }
            account.links.removeAll { $0.providerId == "phone" }
            account.links.append(ProviderLink(providerId: "phone", rawId: number, federatedId: "", phoneNumber: number))
        }
        for attribute in try body.strings("deleteAttribute") ?? [] {
            switch attribute {
            case "DISPLAY_NAME": account.displayName = nil
            case "PHOTO_URL": account.photoUrl = nil
            case "EMAIL": account.email = nil
            default: break
            }
        }
        for provider in try body.strings("deleteProvider") ?? [] {
            if provider == "password" {
                (account.password, account.email, account.emailVerified, account.emailLinkSignIn) = (nil, nil, false, false)
            } else {
                account.links.removeAll { $0.providerId == provider }
            }
        }
        try updateSecondFactors(&account, body)
        try linkProviderUserInfo(&account, body)
        // Seconds, as a decimal string (int64 in JSON), the Admin API's revokeRefreshTokens.
        if let validSince = body.fields["validSince"] {
            guard let seconds = (validSince as? String).flatMap({ Int64($0) }) ?? (validSince as? Int).map(Int64.init) else {
                throw .invalidArgument("Invalid value at 'valid_since' (TYPE_INT64), \(validSince)")
            }
            account.validSince = Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        if let attributes = try body.string("customAttributes") { account.customClaims = try Self.customClaims(attributes) }
        accounts[key] = account
        return setAccountInfoAnswer(account, administrator: true)
    }

    /// `mfa.enrollments`: the user's second factors replaced (none: all withdrawn), with their ids.
    func updateSecondFactors(_ account: inout Account, _ body: JSONBody) throws(APIError) {
        guard let mfa = try body.object("mfa") else { return }
        account.mfaEnrollments = try Self.enrollments(mfa.fields["enrollments"], now: now(), generateIds: false)
        account.withdrewLastSecondFactor = false
    }

    /// `linkProviderUserInfo`: a provider's account added to the user as given, or replaced.
    func linkProviderUserInfo(_ account: inout Account, _ body: JSONBody) throws(APIError) {
        guard let info = try body.object("linkProviderUserInfo") else { return }
        guard let providerId = try info.string("providerId"), !providerId.isEmpty else { throw .badRequest("MISSING_PROVIDER_ID") }
        guard let rawId = try info.string("rawId"), !rawId.isEmpty else { throw .badRequest("MISSING_RAW_ID") }
        account.links.removeAll { $0.providerId == providerId }
        account.links.append(ProviderLink(providerId: providerId, rawId: rawId, federatedId: try info.string("federatedId") ?? "",
                                          email: try info.string("email"), displayName: try info.string("displayName"),
                                          photoUrl: try info.string("photoUrl"), screenName: try info.string("screenName")))
    }

    static let revokeTokenFields: Set<String> = ["idToken", "providerId", "tokenType", "token", "tenantId", "redirectUri"]

    /// `POST /v2/accounts:revokeToken` (`GoogleCloudIdentitytoolkitV2RevokeTokenRequest`):
    /// revokes an Apple token of the signed-in user. An access token must be one the fake
    /// Apple gave this user, and is revoked once; a CODE needs `redirectUri`. The official
    /// emulator has no such endpoint.
    func revokeToken(_ body: JSONBody) throws(APIError) -> [String: Any] {
        guard let idToken = try body.string("idToken") else { throw .badRequest("MISSING_ID_TOKEN") }
        let (account, _) = try verifiedToken(idToken)
        guard try body.string("providerId") == "apple.com" else { throw .badRequest("INVALID_PROVIDER_ID : Only apple.com is supported") }
        guard let token = try body.string("token"), !token.isEmpty else { throw .badRequest("INVALID_REQUEST : token is required") }
        switch try body.string("tokenType") {
        case "ACCESS_TOKEN":
            guard let identity = providerCredentials[token], identity.providerId == "apple.com",
                  account.links.contains(where: { $0.providerId == "apple.com" && $0.rawId == identity.rawId }),
                  !revokedProviderTokens.contains(token)
            else { throw .badRequest("INVALID_IDP_RESPONSE : The Apple token is invalid or was revoked") }
            revokedProviderTokens.insert(token)
        case "CODE", "3":
            // An authorization code of Sign in with Apple. The iOS SDK sends the type as the
            // enum's number ("3") and no redirectUri (firebase-ios-sdk RevokeTokenRequest.swift),
            // and production takes it: a code of Apple's native sign-in has no redirect URI.
            guard account.links.contains(where: { $0.providerId == "apple.com" }) else {
                throw .badRequest("INVALID_IDP_RESPONSE : The user has no Sign in with Apple to revoke")
            }
        default:
            throw .badRequest("INVALID_REQUEST : tokenType must be ACCESS_TOKEN or CODE")
        }
        return [:]
    }

    /// `accounts:delete`. Like production (unlike the official emulator), it requires a sign-in
    /// within the last five minutes: CREDENTIAL_TOO_OLD_LOGIN_AGAIN otherwise.
    func delete(_ body: JSONBody) throws(APIError) -> [String: Any] {
        guard let idToken = try body.string("idToken") else { throw .badRequest("MISSING_ID_TOKEN") }
        let (account, token) = try verifiedToken(idToken)
        guard now().timeIntervalSince(token.authTime) <= configuration.recentSignIn else {
            throw .badRequest("CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
        }
        accounts[account.key] = nil
        return ["kind": "identitytoolkit#DeleteAccountResponse"]
    }
}
