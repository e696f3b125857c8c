#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

extension Backend {
    static let signInWithIdpFields: Set<String> = [
        "requestUri", "postBody", "sessionId", "returnSecureToken", "returnIdpCredential", "idToken",
        "pendingToken", "tenantId", "autoCreate", "returnRefreshToken", "pendingIdToken", "delegatedProjectNumber",
    ]

    /// `accounts:signInWithIdp` (the Identity Toolkit v1 reference, accounts.signInWithIdp;
    /// firebase-js-sdk packages/auth/src/api/authentication/idp.ts): turns the provider's redirect
    /// (or a
    /// credential) into a Firebase session, for sign-in or, with `idToken`, for linking.
    func signInWithIdp(_ body: JSONBody) throws(APIError) -> [String: Any] {
        guard let requestUri = try body.string("requestUri"), !requestUri.isEmpty else { throw .badRequest("MISSING_REQUEST_URI") }
        guard let requestURL = URL(string: requestUri), requestURL.scheme != nil, requestURL.host != nil else {
            throw .badRequest("INVALID_REQUEST_URI")
        }
        let tenantId = try body.string("tenantId")
        let identity = try identityFromAssertion(body, requestUri: requestUri, tenantId: tenantId)
        let returnIdpCredential = try body.bool("returnIdpCredential") ?? false
        let autoCreate = try body.bool("autoCreate") ?? true

        do {
            if let idToken = try body.string("idToken") {
                return try link(identity, toUserOf: idToken, tenantId: tenantId)
            }
            return try signIn(identity, tenantId: tenantId, autoCreate: autoCreate)
        } catch let error where returnIdpCredential && error.httpStatus == 400 && Self.credentialErrors.contains(error.message) {
            // With returnIdpCredential these come back as HTTP 200 with the IdP credential.
            var answer = idpFields(identity)
            answer["errorMessage"] = error.message
            return answer
        }
    }

    private static let credentialErrors: Set<String> = ["FEDERATED_USER_ID_ALREADY_LINKED", "EMAIL_EXISTS", "USER_NOT_FOUND"]

    /// Who the provider says signed in: a pending credential, the code flow's redirect, or
    /// (official-emulator mode) fake JSON claims in `postBody`.
    private func identityFromAssertion(_ body: JSONBody, requestUri: String, tenantId: String?) throws(APIError) -> ProviderIdentity {
        if let pendingToken = try body.string("pendingToken") {
            // Production returns a pendingToken with needConfirmation and accepts it back to
            // repeat that sign-in (the official emulator has neither).
            guard let identity = pendingCredentials[pendingToken] else { throw .badRequest("INVALID_PENDING_TOKEN") }
            return identity
        }
        var parameters: [String: String] = [:]
        let query = URL(string: requestUri)?.query ?? ""
        for item in FormEncoding.decode(query) + FormEncoding.decode(try body.string("postBody") ?? "") where parameters[item.name] == nil {
            parameters[item.name] = item.value
        }
        if let binding = parameters["state"] ?? parameters["oauth_token"] ?? parameters["denied"] {
            return try redeemGrant(binding: binding, parameters: parameters, requestUri: requestUri,
                                   sessionId: try body.string("sessionId"), tenantId: tenantId)
        }
        guard let providerId = parameters["providerId"]?.lowercased() else {
            throw .badRequest("INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: \(requestUri)")
        }
        if configuration.profile.has(.noOAuthCodeFlow) {
            // firebase-tools src/emulator/auth/operations.ts, signInWithIdp: the claims of the
            // id_token, else of the access_token (`parseClaims(oauthIdToken) || parseClaims(oauthAccessToken)`).
            if let claimsText = Self.fakeClaimsText(parameters["id_token"]) ?? Self.fakeClaimsText(parameters["access_token"]) {
                return try identityFromFakeClaims(providerId: providerId, claimsText: claimsText, parameters: parameters)
            }
            if let claimsText = parameters["id_token"], !claimsText.isEmpty { return try identityFromFakeClaims(providerId: providerId, claimsText: claimsText, parameters: parameters) }
            throw APIError(httpStatus: 501, message: parameters["access_token"] == nil
                ? "The Auth Emulator only supports sign-in with credentials (id_token required)."
                : ["google.com", "apple.com"].contains(providerId)
                    ? "The Auth Emulator only support sign-in with \(providerId) using id_token, not access_token. Please update your code to use id_token."
                    : "The Auth Emulator does not support \(providerId) sign-in with credentials.", status: "NOT_IMPLEMENTED")
        }
        if configuration.acceptsFakeClaims, let claimsText = parameters["id_token"], providerCredentials[claimsText] == nil {
            return try identityFromFakeClaims(providerId: providerId, claimsText: claimsText, parameters: parameters)
        }
        // An access token this stand-in did not issue that is claims (JSON or an unsigned JWT),
        // as the JS SDK's own tests give GitHub and Facebook: read as Google's emulator reads it.
        if configuration.acceptsFakeClaims, parameters["id_token"] == nil, let accessToken = parameters["access_token"], providerCredentials[accessToken] == nil,
           let claimsText = Self.fakeClaimsText(accessToken) {
            return try identityFromFakeClaims(providerId: providerId, claimsText: claimsText, parameters: parameters)
        }
        return try identityFromCredential(providerId: providerId, parameters: parameters, requestUri: requestUri)
    }

    /// Checks the redirect against the authorization it answers and uses up the code.
    private func redeemGrant(binding: String, parameters: [String: String], requestUri: String, sessionId: String?, tenantId: String?) throws(APIError) -> ProviderIdentity {
        guard let pending = pendingAuthorizations[binding] else {
            throw .badRequest("INVALID_IDP_RESPONSE : The authorization request is unknown or has expired.")
        }
        guard sessionId == pending.sessionId else {
            throw .badRequest("INVALID_IDP_RESPONSE : The session ID does not match the one of the authorization request.")
        }
        guard Self.sameEndpoint(requestUri, pending.continueUri) else {
            throw .badRequest("INVALID_IDP_RESPONSE : requestUri does not match the redirect URI of the authorization request.")
        }
        guard tenantId == pending.tenantId else { throw .badRequest("TENANT_ID_MISMATCH") }
        if parameters["error"] != nil || parameters["denied"] != nil {
            // The provider's denial, passed on by the hosted handler.
            pendingAuthorizations[binding] = nil
            throw .badRequest("USER_CANCELLED : The user did not grant your application the permissions it requested.")
        }
        guard let grantKey = parameters["code"] ?? parameters["oauth_verifier"], let grant = grants[grantKey], grant.binding == binding else {
            throw .badRequest("INVALID_IDP_RESPONSE : The authorization code is not valid.")
        }
        guard !grant.used else {
            throw .badRequest("INVALID_IDP_RESPONSE : The authorization code has already been used.")
        }
        grants[grantKey]?.used = true
        pendingAuthorizations[binding] = nil
        rememberProviderCredential(grant.identity)
        return grant.identity
    }

    /// Scheme, host, port and path equal (the query carries the code).
    static func sameEndpoint(_ a: String, _ b: String) -> Bool {
        guard let x = URLComponents(string: a), let y = URLComponents(string: b) else { return false }
        return x.scheme?.lowercased() == y.scheme?.lowercased() && x.host?.lowercased() == y.host?.lowercased()
            && x.port == y.port && x.path == y.path
    }

    /// `text` when it is claims as Google's emulator parses them: JSON (strict or not: a bad one
    /// is refused by `identityFromFakeClaims`, as `parseClaims` refuses it), or a JWT that decodes.
    static func fakeClaimsText(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text.hasPrefix("{") || UnsignedJWT.claims(of: text) != nil ? text : nil
    }

    /// The official emulator accepts plain-JSON claims (or an unverified JWT) as `id_token`, and
    /// makes the provider's answer from them as its fakeFetchUserInfoFromIdp does: Google's
    /// profile for google.com, a SAML assertion (JSON in `SAMLResponse`) for `saml.*`.
    func identityFromFakeClaims(providerId: String, claimsText: String, parameters: [String: String] = [:]) throws(APIError) -> ProviderIdentity {
        // firebase-tools src/emulator/auth/operations.ts, parseClaims: its two refusals.
        if claimsText.hasPrefix("{"), JSONText.parse(Data(claimsText.utf8)) as? [String: Any] == nil {
            throw .badRequest("INVALID_IDP_RESPONSE : Unable to parse id_token: \(claimsText) ((Auth Emulator failed to parse fake id_token as strict JSON.))")
        }
        let claims = claimsText.hasPrefix("{")
            ? JSONText.parse(Data(claimsText.utf8)) as? [String: Any]
            : UnsignedJWT.claims(of: claimsText)
        guard let claims else {
            throw .badRequest("INVALID_IDP_RESPONSE : Unable to parse id_token: \(claimsText) ((Auth Emulator only accepts strict JSON or JWTs as fake id_tokens.))")
        }
        guard let sub = claims["sub"] as? String else {
            throw .badRequest(#"INVALID_IDP_RESPONSE : Invalid Idp Response: id_token missing required fields. ((Missing "sub" field. This field is required and must be a unique identifier.))"#)
        }
        var email = (claims["email"] as? String ?? "").lowercased()
        var emailVerified = claims["email_verified"] as? Bool ?? false
        let name = claims["name"] as? String
        var rawUserInfo = claims
        var signInAttributes: [String: Any]?
        if providerId == "google.com" {
            rawUserInfo = ["granted_scopes": "openid https://www.googleapis.com/auth/userinfo.profile" + (email.isEmpty ? "" : " https://www.googleapis.com/auth/userinfo.email"),
                           "id": sub, "verified_email": emailVerified, "locale": "en"]
            rawUserInfo["name"] = name
            rawUserInfo["given_name"] = claims["given_name"]
            rawUserInfo["family_name"] = claims["family_name"]
            rawUserInfo["email"] = email.isEmpty ? nil : email
            rawUserInfo["picture"] = claims["picture"]
        } else if providerId.hasPrefix("saml."), let text = parameters["SAMLResponse"] {
            let response = JSONText.parse(Data(text.utf8)) as? [String: Any] ?? [:]
            guard let assertion = response["assertion"] as? [String: Any] else { throw .badRequest("INVALID_IDP_RESPONSE ((Missing assertion in SAMLResponse.))") }
            guard let subject = assertion["subject"] as? [String: Any] else { throw .badRequest("INVALID_IDP_RESPONSE ((Missing assertion.subject in SAMLResponse.))") }
            guard let nameId = subject["nameId"] as? String, !nameId.isEmpty else {
                throw .badRequest("INVALID_IDP_RESPONSE ((Missing assertion.subject.nameId in SAMLResponse.))")
            }
            if Self.looksLikeEmail(nameId) { email = nameId }
            emailVerified = true
            signInAttributes = assertion["attributeStatements"] as? [String: Any]
            rawUserInfo = signInAttributes ?? [:]
        }
        return ProviderIdentity(
            providerId: providerId, rawId: sub, federatedId: providerId == "google.com" ? "https://accounts.google.com/\(sub)" : sub,
            email: email, emailVerified: emailVerified,
            displayName: name ?? "", photoUrl: claims["picture"] as? String,
            screenName: claims["screen_name"] as? String, firstName: claims["given_name"] as? String, lastName: claims["family_name"] as? String,
            rawUserInfo: rawUserInfo, accessToken: parameters["access_token"] ?? "FirebaseAuthEmulatorFakeAccessToken_\(providerId)",
            idToken: claimsText, tokenSecret: nil, signInAttributes: signInAttributes)
    }

    // MARK: - Accounts

    private func signIn(_ identity: ProviderIdentity, tenantId: String?, autoCreate: Bool) throws(APIError) -> [String: Any] {
        if var account = account(linkedTo: identity.providerId, rawId: identity.rawId, tenantId: tenantId) {
            guard !account.disabled else { throw .badRequest("USER_DISABLED") }
            // The provider's account, as it is now (its address may have changed).
            if let index = account.links.firstIndex(where: { $0.providerId == identity.providerId }) { account.links[index] = link(identity) }
            accounts[account.key] = account
            if let challenge = secondFactorChallenge(for: account, signInProvider: identity.providerId) {
                return idpFields(identity).merging(challenge) { $1 }
            }
            account.lastLoginAt = now()
            accounts[account.key] = account
            return try answer(for: account, identity: identity, isNewUser: false)
        }
        // Reauthentication (autoCreate false) never creates or links a user.
        guard autoCreate else { throw .badRequest("USER_NOT_FOUND") }
        if configuration.oneAccountPerEmail, !identity.email.isEmpty,
            var existing = account(withEmail: identity.email, tenantId: tenantId)
        {
            guard identity.emailVerified else { return needConfirmation(identity, existing: existing) }
            // A provider that verified the email takes over the account; an unverified account
            // loses its password (someone else may have registered that email).
            let google = configuration.profile.has(.verifyingProviderReplacesProfile)
            if !existing.emailVerified {
                existing.password = nil
                existing.validSince = now()
                // Google's emulator unlinks every other provider and the phone too.
                if google { existing.links = [] }
            }
            existing.links.removeAll { $0.providerId == identity.providerId }
            existing.links.append(link(identity))
            existing.emailVerified = true
            if google {
                // The provider's profile replaces the user's, absent fields and all.
                existing.displayName = identity.displayName.isEmpty ? nil : identity.displayName
                existing.photoUrl = identity.photoUrl
            } else {
                existing.displayName = identity.displayName.isEmpty ? existing.displayName : identity.displayName
                existing.photoUrl = identity.photoUrl ?? existing.photoUrl
            }
            accounts[existing.key] = existing
            guard !existing.disabled else { throw .badRequest("USER_DISABLED") }
            if let challenge = secondFactorChallenge(for: existing, signInProvider: identity.providerId) {
                return idpFields(identity).merging(challenge) { $1 }
            }
            existing.lastLoginAt = now()
            accounts[existing.key] = existing
            return try answer(for: existing, identity: identity, isNewUser: false)
        }
        try admitNewUser(email: identity.email)
        var account = createAccount(tenantId: tenantId)
        // Where an address may have several users, Google's emulator leaves it on the provider's
        // account only (support.google.com/firebase/answer/9134820).
        let copiesEmail = configuration.oneAccountPerEmail || !configuration.profile.has(.sharedEmailStaysOnProvider)
        account.email = identity.email.isEmpty || !copiesEmail ? nil : identity.email
        account.emailVerified = identity.emailVerified
        account.displayName = identity.displayName.isEmpty ? nil : identity.displayName
        account.photoUrl = identity.photoUrl
        account.screenName = identity.screenName
        account.links = [link(identity)]
        accounts[account.key] = account
        return try answer(for: account, identity: identity, isNewUser: true)
    }

    private func link(_ identity: ProviderIdentity, toUserOf idToken: String, tenantId: String?) throws(APIError) -> [String: Any] {
        var account = try verify(idToken: idToken)
        // Checked even when the provider account is already this user's (as the emulator does).
        if self.account(linkedTo: identity.providerId, rawId: identity.rawId, tenantId: account.tenantId) != nil {
            throw .badRequest("FEDERATED_USER_ID_ALREADY_LINKED")
        }
        if configuration.oneAccountPerEmail, !identity.email.isEmpty,
            let owner = self.account(withEmail: identity.email, tenantId: account.tenantId), owner.localId != account.localId
        {
            throw .badRequest("EMAIL_EXISTS")
        }
        // One account per provider: a second one replaces the first.
        account.links.removeAll { $0.providerId == identity.providerId }
        account.links.append(link(identity))
        if account.email == nil, !identity.email.isEmpty {
            // An anonymous user upgraded by linking takes the provider's email.
            account.email = identity.email
            account.emailVerified = identity.emailVerified
        } else if identity.emailVerified, account.email?.lowercased() == identity.email.lowercased() {
            account.emailVerified = true
        }
        if account.displayName == nil, !identity.displayName.isEmpty { account.displayName = identity.displayName }
        if account.photoUrl == nil { account.photoUrl = identity.photoUrl }
        accounts[account.key] = account
        return try answer(for: account, identity: identity, isNewUser: false)
    }

    /// HTTP 200 without Firebase tokens: the email belongs to an account with other methods.
    private func needConfirmation(_ identity: ProviderIdentity, existing: Account) -> [String: Any] {
        let pendingToken = "AMzJoSl" + RandomToken.make(bytes: 48)
        pendingCredentials[pendingToken] = identity
        var answer = idpFields(identity)
        answer["needConfirmation"] = true
        answer["localId"] = existing.localId
        answer["pendingToken"] = pendingToken
        answer["verifiedProvider"] = existing.links.map(\.providerId).filter { $0 != "password" && $0 != "phone" }
        return answer
    }

    private func link(_ identity: ProviderIdentity) -> ProviderLink {
        ProviderLink(
            providerId: identity.providerId, rawId: identity.rawId, federatedId: identity.federatedId,
            email: identity.email.isEmpty ? nil : identity.email,
            displayName: identity.displayName.isEmpty ? nil : identity.displayName,
            photoUrl: identity.photoUrl, screenName: identity.screenName)
    }

    private func answer(for account: Account, identity: ProviderIdentity, isNewUser: Bool) throws(APIError) -> [String: Any] {
        var account = account
        let sessionClaims = try runSignInFunctions(&account, isNewUser: isNewUser, signInMethod: identity.providerId)
        var answer = idpFields(identity)
        answer["localId"] = account.localId
        // Sent only when true; absent otherwise.
        if isNewUser { answer["isNewUser"] = true }
        if account.email?.lowercased() == identity.email.lowercased() { answer["emailVerified"] = account.emailVerified }
        if let tenantId = account.tenantId { answer["tenantId"] = tenantId }
        for (key, value) in issueTokens(for: account, signInProvider: identity.providerId, developerClaims: sessionClaims,
                                        signInAttributes: identity.signInAttributes) { answer[key] = value }
        return answer
    }

    /// The provider part of every signInWithIdp answer.
    func idpFields(_ identity: ProviderIdentity) -> [String: Any] {
        var fields: [String: Any] = [
            "kind": "identitytoolkit#VerifyAssertionResponse",
            "context": "",
            "providerId": identity.providerId,
            "federatedId": identity.federatedId,
            "emailVerified": identity.emailVerified,
            "oauthAccessToken": identity.accessToken,
            "rawUserInfo": String(decoding: JSONText.data(identity.rawUserInfo), as: UTF8.self),
        ]
        // How long the access token lasts, where there is one, as production says; Google's
        // emulator never says (its tokens are the caller's own).
        if !identity.accessToken.isEmpty, !configuration.profile.has(.noOAuthExpireIn) { fields["oauthExpireIn"] = configuration.providerTokenLifetime }
        if !identity.email.isEmpty { fields["email"] = identity.email }
        if !identity.displayName.isEmpty {
            fields["displayName"] = identity.displayName
            fields["fullName"] = identity.displayName
        }
        fields["firstName"] = identity.firstName
        fields["lastName"] = identity.lastName
        fields["photoUrl"] = identity.photoUrl
        fields["screenName"] = identity.screenName
        fields["oauthIdToken"] = identity.idToken
        fields["oauthTokenSecret"] = identity.tokenSecret
        return fields
    }
}
