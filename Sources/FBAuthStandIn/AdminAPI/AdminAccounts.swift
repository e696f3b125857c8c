#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

extension Backend {
    static let adminPrefix = "/identitytoolkit.googleapis.com/v1/projects/"

    /// `accounts:lookup` by uid, email, phone number or provider id: the users found, no `users`
    /// at all when none is (as production answers an unknown uid).
    func adminLookup(_ body: JSONBody, tenant: String?) throws(APIError) -> [String: Any] {
        // An ID token names its user, whose tenant must be the one asked about.
        if let idToken = try body.string("idToken") {
            let (account, _) = try verifiedToken(idToken)
            let named = try body.string("tenantId")
            let asked = tenant ?? named
            guard account.tenantId == asked else { throw .badRequest("TENANT_ID_MISMATCH") }
            return ["kind": "identitytoolkit#GetAccountInfoResponse", "users": [userInfo(account)]]
        }
        let uids = try body.strings("localId") ?? [], emails = (try body.strings("email") ?? []).map { $0.lowercased() }
        let phones = try body.strings("phoneNumber") ?? []
        let federated = (body.fields["federatedUserId"] as? [[String: Any]] ?? []).compactMap { entry -> (String, String)? in
            guard let provider = entry["providerId"] as? String, let raw = entry["rawId"] as? String else { return nil }
            return (provider, raw)
        }
        guard !uids.isEmpty || !emails.isEmpty || !phones.isEmpty || !federated.isEmpty else {
            throw .badRequest("INVALID_ARGUMENT : one of localId, email, phoneNumber or federatedUserId is required")
        }
        // Each identifier through the directory's index: no account is looked at but those found.
        var byId: [String: Account] = [:]
        for uid in uids { if let account = accounts[AccountKey(tenantId: tenant, localId: uid)] { byId[uid] = account } }
        for email in emails { for account in accounts.accounts(withEmail: email, tenantId: tenant) { byId[account.localId] = account } }
        for phone in phones { for account in accounts.accounts(withPhoneNumber: phone, tenantId: tenant) { byId[account.localId] = account } }
        for (provider, raw) in federated {
            if let account = accounts.account(linkedTo: provider, rawId: raw, tenantId: tenant) { byId[account.localId] = account }
        }
        let found = byId.values.sorted { $0.localId < $1.localId }
        var answer: [String: Any] = ["kind": "identitytoolkit#GetAccountInfoResponse"]
        if !found.isEmpty { answer["users"] = found.map { userInfo($0, administrator: true) } }
        return answer
    }

    static let adminCreateFields: Set<String> = ["localId", "email", "password", "displayName", "photoUrl", "emailVerified", "disabled", "tenantId",
                                                 "phoneNumber", "mfaInfo", "targetProjectId"]

    /// `projects/P/accounts` (firebase-admin's `createUser`): a user with the uid given, or a new one.
    func adminCreate(_ body: JSONBody, tenant: String?) throws(APIError) -> [String: Any] {
        var account = createAccount(tenantId: tenant)
        if let localId = try body.string("localId") {
            guard (1...128).contains(localId.count) else { throw .badRequest("INVALID_LOCAL_ID") }
            guard accounts[AccountKey(tenantId: tenant, localId: localId)] == nil else { throw .badRequest("DUPLICATE_LOCAL_ID") }
            accounts[account.key] = nil
            account.localId = localId
        }
        if let email = try body.string("email") {
            guard Self.looksLikeEmail(email) else {
                accounts[account.key] = nil
                throw .badRequest("INVALID_EMAIL")
            }
            guard self.account(withEmail: email, tenantId: tenant) == nil else {
                accounts[account.key] = nil
                throw .badRequest("EMAIL_EXISTS")
            }
            account.email = email.lowercased()
        }
        if let password = try body.string("password") {
            guard password.count >= 6 else {
                accounts[account.key] = nil
                throw .badRequest("WEAK_PASSWORD : Password should be at least 6 characters")
            }
            account.password = password
            account.passwordUpdatedAt = now()
        }
        account.displayName = try body.string("displayName")
        account.photoUrl = try body.string("photoUrl")
        account.emailVerified = try body.bool("emailVerified") ?? false
        account.disabled = try body.bool("disabled") ?? false
        do throws(APIError) {
            account.mfaEnrollments = try Self.enrollments(body.fields["mfaInfo"], now: now())
        } catch {
            accounts[account.key] = nil
            throw error
        }
        if let number = try body.string("phoneNumber") {
            guard Self.isPhoneNumber(number) else {
                accounts[account.key] = nil
                throw .badRequest("INVALID_PHONE_NUMBER : Invalid format.")
            }
            guard self.account(withPhoneNumber: number, tenantId: tenant) == nil else {
                accounts[account.key] = nil
                throw .badRequest("PHONE_NUMBER_EXISTS")
            }
            account.links.append(ProviderLink(providerId: "phone", rawId: number, federatedId: "", phoneNumber: number))
        }
        accounts[account.key] = account
        var answer: [String: Any] = ["kind": "identitytoolkit#SignupNewUserResponse", "localId": account.localId]
        answer["email"] = account.email
        answer["displayName"] = account.displayName
        return answer
    }
}

extension Backend {
    /// The client API's paths called with an administrator's token instead of a user's (the Admin
    /// SDKs' older paths; Google's Auth emulator takes `Bearer owner` there): a user named by
    /// uid or email, as the Admin API's own paths do. Nil: an ordinary client call.
    func privilegedAccounts(_ method: String, _ request: HTTPRequest) throws(APIError) -> [String: Any]? {
        guard request.header("Authorization") != nil, (try? requireAdmin(request)) != nil else { return nil }
        switch method {
        case "lookup":
            let body = try JSONBody(request, allowed: Self.lookupFields)
            return try adminLookup(body, tenant: try body.string("tenantId"))
        case "update":
            let body = try JSONBody(request, allowed: Self.updateFields)
            guard body.fields["idToken"] == nil, body.fields["oobCode"] == nil else { return nil }
            return try adminUpdate(body)
        case "delete":
            let body = try JSONBody(request, allowed: Self.deleteFields)
            // An administrator names the user by uid (Google's emulator: whatever else is given).
            if configuration.profile.has(.googleErrorWords), body.fields["localId"] == nil { throw .badRequest("MISSING_LOCAL_ID") }
            guard body.fields["idToken"] == nil else { return nil }
            return try adminDelete(body, tenant: try body.string("tenantId"))
        case "sendOobCode":
            return try sendOobCode(JSONBody(request, allowed: Self.sendOobCodeFields), privileged: true)
        case "signUp":
            // An administrator's user, made as `projects/P/accounts` makes it: no tokens.
            let body = try JSONBody(request, allowed: Self.signUpFields.union(Self.adminCreateFields))
            guard body.fields["idToken"] == nil else { return nil }
            return try adminCreate(body, tenant: try body.string("tenantId"))
        default:
            return nil
        }
    }
}
