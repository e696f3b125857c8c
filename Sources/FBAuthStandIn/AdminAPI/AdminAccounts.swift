#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

extension Backend {
    static let adminPrefix = "/identitytoolkit.googleapis.com/v1/projects/"

    /// The Admin API's calls on users, `projects/P[/tenants/T]/accounts…`, as firebase-admin
    /// makes them: authorized by `requireAdmin`, for this project only (another's is
    /// PERMISSION_DENIED, as production answers credentials of another project).
    func adminAccounts(_ request: HTTPRequest) throws(APIError) -> [String: Any] {
        guard request.method == "POST" else { throw .notFound }
        try requireAdmin(request)
        let rest = request.path.dropFirst(Self.adminPrefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var tenant: String?
        let method: String
        switch rest.count {
        case 2: method = rest[1]
        case 4 where rest[1] == "tenants": (tenant, method) = (rest[2], rest[3])
        default: throw .notFound
        }
        guard rest[0] == configuration.projectId else { throw .blocked("The caller does not have permission", reason: "PERMISSION_DENIED") }
        switch method {
        case "accounts:lookup": return try adminLookup(JSONBody(request, allowed: ["localId", "email", "phoneNumber", "tenantId"]), tenant: tenant)
        case "accounts": return try adminCreate(JSONBody(request, allowed: Self.adminCreateFields), tenant: tenant)
        case "accounts:update": return try adminUpdate(JSONBody(request, allowed: Self.updateFields))
        default: throw .notFound
        }
    }

    /// `accounts:lookup` by uid or email: the users found, no `users` at all when none is
    /// (as production answers an unknown uid).
    func adminLookup(_ body: JSONBody, tenant: String?) throws(APIError) -> [String: Any] {
        let uids = try body.strings("localId") ?? [], emails = try body.strings("email") ?? []
        guard !uids.isEmpty || !emails.isEmpty else { throw .badRequest("INVALID_ARGUMENT : one of localId, email, phoneNumber or federatedUserId is required") }
        let found = accounts.values.filter { account in
            account.tenantId == tenant && (uids.contains(account.localId) || account.email.map(emails.contains) == true)
        }.sorted { $0.localId < $1.localId }
        var answer: [String: Any] = ["kind": "identitytoolkit#GetAccountInfoResponse"]
        if !found.isEmpty { answer["users"] = found.map(userInfo) }
        return answer
    }

    static let adminCreateFields: Set<String> = ["localId", "email", "password", "displayName", "photoUrl", "emailVerified", "disabled", "tenantId"]

    /// `projects/P/accounts` (firebase-admin's `createUser`): a user with the uid given, or a new one.
    func adminCreate(_ body: JSONBody, tenant: String?) throws(APIError) -> [String: Any] {
        var account = createAccount(tenantId: tenant)
        if let localId = try body.string("localId") {
            guard (1...128).contains(localId.count) else { throw .badRequest("INVALID_LOCAL_ID") }
            guard accounts[localId] == nil else { throw .badRequest("DUPLICATE_LOCAL_ID") }
            accounts[account.localId] = nil
            account.localId = localId
        }
        if let email = try body.string("email") {
            guard self.account(withEmail: email, tenantId: tenant) == nil else {
                accounts[account.localId] = nil
                throw .badRequest("EMAIL_EXISTS")
            }
            account.email = email
        }
        account.password = try body.string("password")
        account.displayName = try body.string("displayName")
        account.photoUrl = try body.string("photoUrl")
        account.emailVerified = try body.bool("emailVerified") ?? false
        account.disabled = try body.bool("disabled") ?? false
        accounts[account.localId] = account
        var answer: [String: Any] = ["kind": "identitytoolkit#SignupNewUserResponse", "localId": account.localId]
        answer["email"] = account.email
        return answer
    }
}
