#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// Out-of-band codes, as Identity Toolkit mails them and the Auth emulator lists them
/// (`accounts:sendOobCode`, `accounts:resetPassword`, `accounts:signInWithEmailLink`, `accounts:update`
/// with `oobCode`; firebase-tools `src/emulator/auth/operations.ts` and `handlers.ts`): password
/// reset, email verification, verify-and-change-email and email-link sign-in. Nothing is mailed:
/// the links are listed at `/emulator/v1/projects/PROJECT/oobCodes`, and `/emulator/action`
/// does what Firebase's hosted action handler does with them.
extension Backend {
    static let sendOobCodeFields: Set<String> = [
        "requestType", "email", "idToken", "newEmail", "continueUrl", "canHandleCodeInApp", "tenantId", "iOSBundleId", "iOSAppStoreId",
        "androidPackageName", "androidInstallApp", "androidMinimumVersion", "dynamicLinkDomain", "linkDomain", "targetProjectId",
        "captchaResp", "clientType", "recaptchaVersion", "userIp", "returnOobLink",
    ]
    static let resetPasswordFields: Set<String> = ["oobCode", "newPassword", "oldPassword", "email", "tenantId"]
    static let signInWithEmailLinkFields: Set<String> = ["email", "oobCode", "idToken", "tenantId"]

    /// How long a mailed code works.
    static let oobLifetime: TimeInterval = 3600

    /// `privileged`: the Admin API's, which may have the link returned instead of mailed
    /// (`returnOobLink`, firebase-admin's `generate…Link`), for an email rather than an ID token.
    /// `tenant`: the tenant the path names (`projects/P/tenants/T/accounts:sendOobCode`), which
    /// the body's `tenantId`, if any, was already checked against.
    func sendOobCode(_ body: JSONBody, privileged: Bool = false, tenant: String? = nil) throws(APIError) -> [String: Any] {
        // Android's SDK sends the enum's number.
        let numbered = (body.fields["requestType"] as? Int).flatMap { Self.oobRequestTypes.indices.contains($0) ? Self.oobRequestTypes[$0] : nil }
        let named = numbered == nil ? try body.string("requestType") : numbered
        guard let requestType = named, requestType != "OOB_REQ_TYPE_UNSPECIFIED" else { throw .badRequest("MISSING_REQ_TYPE") }
        let returnsLink = try body.bool("returnOobLink") == true
        guard !returnsLink || privileged else { throw .badRequest("INSUFFICIENT_PERMISSION") }
        let continueUrl = try body.string("continueUrl")
        if let continueUrl {
            guard let url = URLComponents(string: continueUrl), url.scheme != nil, url.host?.isEmpty == false else {
                throw .badRequest("INVALID_CONTINUE_URI : ((expected an absolute URI with valid scheme and host))")
            }
            // Production checks the continue URL's domain against the authorized domains.
            // Google's Auth emulator checks none (its project has no such list).
            guard !configuration.checksContinueURLDomains || AuthorizedDomainList.allows(url.host ?? "", in: authorizedDomains) else {
                throw .badRequest("UNAUTHORIZED_DOMAIN")
            }
        }
        let bodyTenant = try body.string("tenantId")
        let tenantId = tenant ?? bodyTenant
        var email: String, newEmail: String?
        let mode: String
        switch requestType {
        case "PASSWORD_RESET":
            try checkPasswordRecaptcha(body, action: "getOobCode")
            guard let address = try body.string("email") else { throw .badRequest("MISSING_EMAIL") }
            email = address.lowercased()
            mode = "resetPassword"
            if account(withEmail: email, tenantId: tenantId) == nil {
                // Under email enumeration protection nothing tells that the address is unknown.
                if configuration.emailEnumerationProtection { return ["kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": email] }
                throw .badRequest("EMAIL_NOT_FOUND")
            }
        case "EMAIL_SIGNIN":
            guard configuration.emailLinkSignInEnabled else { throw .badRequest("OPERATION_NOT_ALLOWED") }
            try checkPasswordRecaptcha(body, action: "getOobCode")
            guard let address = try body.string("email") else { throw .badRequest("MISSING_EMAIL") }
            guard Self.looksLikeEmail(address) else { throw .badRequest("INVALID_EMAIL") }
            email = address.lowercased()
            mode = "signIn"
        case "VERIFY_EMAIL":
            if privileged, let address = try body.string("email") {
                guard self.account(withEmail: address, tenantId: tenantId) != nil else { throw .badRequest("USER_NOT_FOUND") }
                email = address.lowercased()
            } else {
                let account = try verify(idToken: try body.string("idToken") ?? "")
                guard let address = account.email else { throw .badRequest("MISSING_EMAIL") }
                email = address
            }
            mode = "verifyEmail"
        case "VERIFY_AND_CHANGE_EMAIL":
            guard let wanted = try body.string("newEmail") else { throw .badRequest("MISSING_NEW_EMAIL") }
            guard Self.looksLikeEmail(wanted) else { throw .badRequest("INVALID_NEW_EMAIL") }
            // An administrator names the user by address (firebase-admin's generateVerifyAndChangeEmailLink).
            let account: Account
            if privileged, let address = try body.string("email") {
                guard let owner = self.account(withEmail: address, tenantId: tenantId) else { throw .badRequest("USER_NOT_FOUND") }
                account = owner
            } else {
                account = try verify(idToken: try body.string("idToken") ?? "")
            }
            guard let address = account.email else { throw .badRequest("MISSING_EMAIL") }
            email = address
            newEmail = wanted.lowercased()
            guard self.account(withEmail: wanted, tenantId: account.tenantId) == nil else { throw .badRequest("EMAIL_EXISTS") }
            mode = "verifyAndChangeEmail"
        default:
            throw .badRequest("INVALID_REQ_TYPE : \(requestType)")
        }
        // beforeSendEmail, which production runs for these two mails, may refuse one.
        if !returnsLink, let emailType = ["PASSWORD_RESET": "PASSWORD_RESET", "EMAIL_SIGNIN": "EMAIL_SIGN_IN"][requestType] {
            var recipient = account(withEmail: email, tenantId: tenantId) ?? noUserYet(tenantId: tenantId)
            recipient.email = recipient.email ?? email
            try callBlockingFunction(.beforeSendEmail, for: recipient, signInMethod: nil, details: ["email_type": emailType])
        }
        let (code, link) = mailOob(to: email, newEmail: newEmail, requestType: requestType, mode: mode, continueUrl: continueUrl,
                                   tenantId: tenantId, sends: !returnsLink)
        if returnsLink {
            return ["kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": email, "oobCode": code, "oobLink": link]
        }
        return ["kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": email]
    }

    /// A code for a mailed action, recorded with its link (as the emulator lists them), and the
    /// mail "sent" (logged as firebase-tools' sendOobCode logs it) unless the link is returned.
    @discardableResult
    func mailOob(to email: String, newEmail: String? = nil, requestType: String, mode: String, continueUrl: String? = nil,
                 tenantId: String?, sends: Bool = true) -> (code: String, link: String) {
        let code = "oob" + RandomToken.make(bytes: 24)
        var components = URLComponents(string: baseURL + "/emulator/action")!
        components.queryItems = [URLQueryItem(name: "mode", value: mode), URLQueryItem(name: "lang", value: "en"),
                                 URLQueryItem(name: "oobCode", value: code), URLQueryItem(name: "apiKey", value: "fake-api-key")]
            + (continueUrl.map { [URLQueryItem(name: "continueUrl", value: $0)] } ?? [])
            + (tenantId.map { [URLQueryItem(name: "tenantId", value: $0)] } ?? [])
        let link = components.string ?? ""
        oobCodes[code] = OobRecord(code: code, email: email, newEmail: newEmail, requestType: requestType,
                                   link: link, tenantId: tenantId, expiresAt: now().addingTimeInterval(Self.oobLifetime))
        let purpose = switch requestType {
        case "PASSWORD_RESET": "To reset the password for \(email)"
        case "VERIFY_EMAIL": "To verify the email address \(email)"
        case "EMAIL_SIGNIN": "To sign in as \(email)"
        case "RECOVER_EMAIL": "To reset your email address to \(email)"
        default: "To change the email address of \(email) to \(newEmail ?? "")"
        }
        if sends { outbox?("\(purpose), follow this link: \(link)") }
        return (code, link)
    }

    /// The code, if it works: known, of `requestType` (any when nil), not expired. Used up by the caller.
    func oobRecord(_ code: String?, of requestTypes: Set<String>? = nil) throws(APIError) -> OobRecord {
        guard let code, !code.isEmpty else { throw .badRequest("MISSING_OOB_CODE") }
        guard let record = oobCodes[code], requestTypes?.contains(record.requestType) ?? true else { throw .badRequest("INVALID_OOB_CODE") }
        guard record.expiresAt > now() else {
            oobCodes[code] = nil
            throw .badRequest("EXPIRED_OOB_CODE")
        }
        return record
    }

    /// `accounts:resetPassword`: with `newPassword`, sets it (the email counts as verified, other
    /// sessions are revoked); without, tells what the code is for.
    func resetPassword(_ body: JSONBody) throws(APIError) -> [String: Any] {
        let record = try oobRecord(try body.string("oobCode"))
        var answer: [String: Any] = ["kind": "identitytoolkit#ResetPasswordResponse", "requestType": record.requestType]
        if record.requestType != "EMAIL_SIGNIN" { answer["email"] = record.email }
        answer["newEmail"] = record.newEmail
        guard let newPassword = try body.string("newPassword") else { return answer }
        guard record.requestType == "PASSWORD_RESET", var account = account(withEmail: record.email, tenantId: try body.string("tenantId")) else {
            throw .badRequest("INVALID_OOB_CODE")
        }
        try checkPasswordPolicy(newPassword)
        oobCodes[record.code] = nil
        account.password = newPassword
        account.emailVerified = true
        account.validSince = now()
        accounts[account.key] = account
        return answer
    }

    /// `accounts:signInWithEmailLink`: signs in (creating the user) or, with `idToken`, links.
    func signInWithEmailLink(_ body: JSONBody) throws(APIError) -> [String: Any] {
        guard configuration.emailLinkSignInEnabled else { throw .badRequest("OPERATION_NOT_ALLOWED") }
        guard let email = try body.string("email")?.lowercased() else { throw .badRequest("MISSING_EMAIL") }
        let record = try oobRecord(try body.string("oobCode"), of: ["EMAIL_SIGNIN"])
        guard record.email == email else { throw .badRequest("INVALID_EMAIL : The email provided does not match the sign-in email address.") }
        let tenantId = try body.string("tenantId")
        let fromToken = try body.string("idToken").map { (token: String) throws(APIError) -> Account in try verify(idToken: token) }
        let fromEmail = account(withEmail: email, tenantId: fromToken?.tenantId ?? tenantId)
        if let fromToken, let fromEmail, fromToken.localId != fromEmail.localId { throw .badRequest("EMAIL_EXISTS") }
        var account: Account
        let isNewUser = fromToken == nil && fromEmail == nil
        if let existing = fromToken ?? fromEmail {
            guard !existing.disabled else { throw .badRequest("USER_DISABLED") }
            account = existing
        } else {
            try admitNewUser(email: email)
            account = createAccount(tenantId: tenantId)
        }
        oobCodes[record.code] = nil
        account.email = email
        account.emailVerified = true
        account.emailLinkSignIn = true
        accounts[account.key] = account
        var answer: [String: Any] = ["kind": "identitytoolkit#EmailLinkSigninResponse", "email": email, "localId": account.localId, "isNewUser": isNewUser]
        // Google's emulator asks for the second factor even when linking to a signed-in user.
        if fromToken == nil || configuration.profile.has(.secondFactorWhenLinkingEmailLink), let challenge = secondFactorChallenge(for: account, signInProvider: "password") {
            return answer.merging(challenge) { $1 }
        }
        let sessionClaims = try runSignInFunctions(&account, isNewUser: isNewUser, signInMethod: "emailLink")
        account.lastLoginAt = now()
        accounts[account.key] = account
        for (key, value) in issueTokens(for: account, signInProvider: "password", developerClaims: sessionClaims) { answer[key] = value }
        return answer
    }

    /// `accounts:update` with `oobCode`: a verification, an email change or its recovery.
    func applyActionCode(_ code: String, tenantId: String?) throws(APIError) -> [String: Any] {
        let record = try oobRecord(code, of: ["VERIFY_EMAIL", "VERIFY_AND_CHANGE_EMAIL"])
        guard var account = account(withEmail: record.email, tenantId: tenantId) else { throw .badRequest("INVALID_OOB_CODE") }
        oobCodes[code] = nil
        if let newEmail = record.newEmail {
            guard self.account(withEmail: newEmail, tenantId: tenantId) == nil else { throw .badRequest("EMAIL_EXISTS") }
            account.email = newEmail
            // The change signs the user's other sessions out, as production does.
            account.validSince = now()
        }
        account.emailVerified = true
        accounts[account.key] = account
        var answer = setAccountInfoAnswer(account)
        answer["newEmail"] = record.newEmail
        return answer
    }

    /// The links "mailed", as the Auth emulator lists them (`GET /emulator/v1/projects/P/oobCodes`).
    /// `GetOobCodeRequest.requestType`'s values, by number.
    static let oobRequestTypes = ["OOB_REQ_TYPE_UNSPECIFIED", "PASSWORD_RESET", "OLD_EMAIL_AGREE", "NEW_EMAIL_ACCEPT", "VERIFY_EMAIL",
                                  "RECOVER_EMAIL", "EMAIL_SIGNIN", "VERIFY_AND_CHANGE_EMAIL", "REVERT_SECOND_FACTOR_ADDITION"]

    func listedOobCodes(tenantId: String?) -> [String: Any] {
        ["oobCodes": oobCodes.values.filter { $0.tenantId == tenantId }.sorted { $0.expiresAt < $1.expiresAt }.map { record in
            ["email": record.email, "oobCode": record.code, "oobLink": record.link, "requestType": record.requestType]
        }]
    }

    /// `GET /emulator/action`: what Firebase's hosted action handler does with a mailed link.
    /// Email-link sign-in (`mode=signIn`) goes on to the continue URL with the link's parameters,
    /// so that the app there (fbauth's listener) completes it; other modes are applied here.
    func actionHandler(_ request: HTTPRequest) -> HTTPResponse {
        var query: [String: String] = [:]
        for item in request.queryItems where query[item.name] == nil { query[item.name] = item.value }
        guard let code = query["oobCode"], query["apiKey"] != nil else {
            return JSONResponse.make(400, ["authEmulator": ["error": "missing apiKey or oobCode query parameter"]])
        }
        switch query["mode"] {
        case "signIn":
            guard let continueUrl = query["continueUrl"], var target = URLComponents(string: continueUrl) else {
                return JSONResponse.make(400, ["authEmulator": ["error": "Missing continueUrl query parameter"]])
            }
            target.queryItems = (target.queryItems ?? []) + request.queryItems.filter { $0.name != "continueUrl" }.map { URLQueryItem(name: $0.name, value: $0.value) }
            return HTTPResponse(status: 303, headers: [("Location", target.string ?? continueUrl)])
        case "verifyEmail", "verifyAndChangeEmail":
            do {
                _ = try applyActionCode(code, tenantId: query["tenantId"])
            } catch {
                return JSONResponse.make(400, ["authEmulator": ["error": "The link has expired or was already used (\(error.message))."]])
            }
            if let continueUrl = query["continueUrl"] { return HTTPResponse(status: 303, headers: [("Location", continueUrl)]) }
            return JSONResponse.make(200, ["authEmulator": ["success": "The email has been verified."]])
        default:
            return JSONResponse.make(400, ["authEmulator": ["error": "Invalid mode"]])
        }
    }

    // MARK: - Password rules and reCAPTCHA

    /// The project's password policy (`GET /v2/passwordPolicy`); the official emulator has none.
    func passwordPolicyAnswer() throws(APIError) -> [String: Any] {
        guard !configuration.profile.has(.noPasswordPolicy) else { throw APIError.notImplemented }
        let policy = configuration.passwordPolicy
        var options: [String: Any] = ["minPasswordLength": policy.minimumLength, "maxPasswordLength": 4096]
        if policy.lowercase { options["containsLowercaseCharacter"] = true }
        if policy.uppercase { options["containsUppercaseCharacter"] = true }
        if policy.numeric { options["containsNumericCharacter"] = true }
        if policy.nonAlphanumeric { options["containsNonAlphanumericCharacter"] = true }
        return ["customStrengthOptions": options, "enforcementState": policy.enforced ? "ENFORCE" : "OFF", "schemaVersion": 1,
                "allowedNonAlphanumericCharacters": PasswordPolicySettings.symbolList.map(String.init)]
    }

    /// A new password against the project's policy: production's wording when it is enforced,
    /// else Firebase's floor of six characters.
    func checkPasswordPolicy(_ password: String) throws(APIError) {
        let policy = configuration.passwordPolicy
        guard policy.enforced else {
            guard password.count >= 6 else { throw .badRequest("WEAK_PASSWORD : Password should be at least 6 characters") }
            return
        }
        var missing: [String] = []
        if password.count < policy.minimumLength { missing.append("Password must contain at least \(policy.minimumLength) characters") }
        if policy.lowercase, !password.contains(where: \.isLowercase) { missing.append("Password must contain a lower case character") }
        if policy.uppercase, !password.contains(where: \.isUppercase) { missing.append("Password must contain an upper case character") }
        if policy.numeric, !password.contains(where: \.isNumber) { missing.append("Password must contain a numeric character") }
        if policy.nonAlphanumeric, !password.contains(where: PasswordPolicySettings.symbols.contains) {
            missing.append("Password must contain a non-alphanumeric character")
        }
        guard missing.isEmpty else {
            throw .badRequest("PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: [\(missing.joined(separator: ", "))]")
        }
    }

    /// reCAPTCHA Enterprise for email/password (`EMAIL_PASSWORD_PROVIDER`), when the project
    /// enforces it: a token for `action` (`signInWithPassword`, `signUpPassword`, `getOobCode`).
    /// The token is `captchaResponse` in sign-in and sign-up, `captchaResp` in `sendOobCode`.
    func checkPasswordRecaptcha(_ body: JSONBody, action: String) throws(APIError) {
        guard configuration.passwordRecaptchaEnforced else { return }
        try checkEnterpriseToken(try body.string(action == "getOobCode" ? "captchaResp" : "captchaResponse"),
                                 clientType: try body.string("clientType"), version: try body.string("recaptchaVersion"), action: action)
    }
}

/// A mailed code.
struct OobRecord {
    var code: String
    var email: String
    var newEmail: String?
    var requestType: String
    var link: String
    var tenantId: String?
    var expiresAt: Date
}

/// The authorized-domain rule of production for continue URLs: a domain and its subdomains.
enum AuthorizedDomainList {
    static func allows(_ host: String, in domains: [String]) -> Bool {
        let host = host.lowercased().filter { $0 != "[" && $0 != "]" }
        return domains.contains { domain in host == domain || host.hasSuffix("." + domain) }
    }
}
