#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

// The Admin API's calls on many users at once, as firebase-admin makes them to an emulator
// (firebase-tools src/emulator/auth/operations.ts: batchGet, batchDelete, batchCreate,
// deleteAccount, createSessionCookie): listing by pages, deleting, importing, and session
// cookies.
extension Backend {
    /// `GET projects/P/accounts:batchGet?maxResults=N&nextPageToken=UID`: the users after the
    /// page token, by uid; `nextPageToken` when more may follow.
    func batchGet(_ request: HTTPRequest, tenant: String?) -> [String: Any] {
        var query: [String: String] = [:]
        for item in request.queryItems where query[item.name] == nil { query[item.name] = item.value }
        let asked = Int(query["maxResults"] ?? "") ?? 20
        let limit = asked == -1 ? Int.max : min(max(asked, 1), 1000)
        let after = query["nextPageToken"] ?? ""
        let users = accounts.values.filter { $0.tenantId == (tenant ?? query["tenantId"]) && $0.localId > after }.sorted { $0.localId < $1.localId }
        let refreshedAt = now().formatted(.iso8601)
        var answer: [String: Any] = ["kind": "identitytoolkit#DownloadAccountResponse",
                                     "users": users.prefix(limit).map { userInfo($0, refreshedAt: refreshedAt) }]
        if users.count >= limit, limit != Int.max, let last = users.prefix(limit).last { answer["nextPageToken"] = last.localId }
        return answer
    }

    /// `projects/P/accounts:batchDelete`: each uid deleted; one not disabled is refused unless
    /// `force`, and an unknown one is passed over.
    func batchDelete(_ body: JSONBody, tenant: String?) throws(APIError) -> [String: Any] {
        let uids = try body.strings("localIds") ?? []
        guard (1...1000).contains(uids.count) else { throw .badRequest("LOCAL_ID_LIST_EXCEEDS_LIMIT") }
        let force = try body.bool("force") ?? false
        var errors: [[String: Any]] = []
        for (index, uid) in uids.enumerated() {
            guard let account = accounts[uid], account.tenantId == tenant else { continue }
            guard account.disabled || force else {
                errors.append(["index": index, "localId": uid, "message": "NOT_DISABLED : Disable the account before batch deletion."])
                continue
            }
            accounts[uid] = nil
        }
        return errors.isEmpty ? [:] : ["errors": errors]
    }

    /// `projects/P/accounts:delete` by uid (with the Admin API's authority: no recent sign-in).
    func adminDelete(_ body: JSONBody, tenant: String?) throws(APIError) -> [String: Any] {
        guard let uid = try body.string("localId") else { throw .badRequest("MISSING_LOCAL_ID") }
        guard let account = accounts[uid], account.tenantId == tenant else { throw .badRequest("USER_NOT_FOUND") }
        accounts[uid] = nil
        return ["kind": "identitytoolkit#DeleteAccountResponse"]
    }

    static let batchCreateFields: Set<String> = [
        "users", "hashAlgorithm", "signerKey", "saltSeparator", "rounds", "memoryCost", "cpuMemCost", "parallelization", "blockSize",
        "dkLen", "passwordHashOrder", "sanityCheck", "allowOverwrite", "tenantId",
    ]

    /// `projects/P/accounts:batchCreate` (firebase-admin's `importUsers`): each user as given.
    /// A password hash is kept as given, for an export to carry; it signs no one in here (the
    /// emulator keeps no key to check it with), as a hash of another system would not.
    func batchCreate(_ body: JSONBody, tenant: String?) throws(APIError) -> [String: Any] {
        guard let users = body.fields["users"] as? [[String: Any]], !users.isEmpty else { throw .badRequest("MISSING_USER_ACCOUNT") }
        guard users.count <= 1000 else { throw .badRequest("BATCH_SIZE_TOO_LARGE") }
        var errors: [[String: Any]] = []
        // Who has each address, found once for the whole batch rather than for each user.
        var owners: [String: String] = [:]
        for account in accounts.values { if let email = account.email { owners["\(account.tenantId ?? "")|\(email.lowercased())"] = account.localId } }
        for (index, fields) in users.enumerated() {
            do throws(APIError) {
                try importUser(JSONBody(fields: fields), tenant: tenant ?? (fields["tenantId"] as? String), owners: &owners)
            } catch {
                errors.append(["index": index, "message": error.message])
            }
        }
        return errors.isEmpty ? [:] : ["error": errors]
    }

    private func importUser(_ user: JSONBody, tenant: String?, owners: inout [String: String]) throws(APIError) {
        guard let uid = try user.string("localId"), (1...128).contains(uid.count) else { throw .badRequest("localId is missing") }
        let now = now()
        var account = accounts[uid] ?? Account(localId: uid, tenantId: tenant, createdAt: now, lastLoginAt: now, validSince: now.addingTimeInterval(-1))
        if let email = try user.string("email") {
            guard Self.looksLikeEmail(email) else { throw .badRequest("email is invalid") }
            let key = "\(tenant ?? "")|\(email.lowercased())"
            if let owner = owners[key], owner != uid { throw .badRequest("email exists in other account in database") }
            owners[key] = uid
            account.email = email.lowercased()
        }
        account.emailVerified = try user.bool("emailVerified") ?? account.emailVerified
        account.displayName = try user.string("displayName") ?? account.displayName
        account.photoUrl = try user.string("photoUrl") ?? account.photoUrl
        account.disabled = try user.bool("disabled") ?? account.disabled
        if let number = try user.string("phoneNumber") {
            guard Self.isPhoneNumber(number) else { throw .badRequest("phone number format is invalid") }
            account.links.removeAll { $0.providerId == "phone" }
            account.links.append(ProviderLink(providerId: "phone", rawId: number, federatedId: "", phoneNumber: number))
        }
        if let attributes = try user.string("customAttributes") {
            guard let claims = JSONText.parse(Data(attributes.utf8)) as? [String: Any] else { throw .badRequest("Invalid custom claims provided.") }
            account.customClaims = claims
        }
        if let hash = try user.string("passwordHash") {
            account.importedPasswordHash = hash
        }
        // Google's Auth emulator's own field: a password in clear, for test users.
        if let password = try user.string("rawPassword") { account.password = password }
        if user.fields["mfaInfo"] != nil { account.mfaEnrollments = try Self.enrollments(user.fields["mfaInfo"], now: now) }
        for provider in (user.fields["providerUserInfo"] as? [[String: Any]]) ?? [] {
            let info = JSONBody(fields: provider)
            guard let providerId = try info.string("providerId"), let rawId = try info.string("rawId") else { throw .badRequest("providerUserInfo needs providerId and rawId") }
            account.links.removeAll { $0.providerId == providerId }
            account.links.append(ProviderLink(providerId: providerId, rawId: rawId, federatedId: rawId, email: try info.string("email"),
                                              displayName: try info.string("displayName"), photoUrl: try info.string("photoUrl")))
        }
        if let created = try user.string("createdAt").flatMap(Double.init) { account.createdAt = Date(timeIntervalSince1970: created / 1000) }
        if let last = try user.string("lastLoginAt").flatMap(Double.init) { account.lastLoginAt = Date(timeIntervalSince1970: last / 1000) }
        accounts[uid] = account
    }

    /// `projects/P:createSessionCookie`: a session cookie of the ID token's user, for
    /// `validDuration` seconds (5 minutes to 2 weeks), as production shapes it (issuer
    /// `https://session.firebase.google.com/P`), signed as the ID tokens are.
    func createSessionCookie(_ body: JSONBody, tenant: String?) throws(APIError) -> [String: Any] {
        guard let idToken = try body.string("idToken"), !idToken.isEmpty else { throw .badRequest("MISSING_ID_TOKEN") }
        let validDuration = (body.fields["validDuration"] as? String).flatMap { Int($0) } ?? (body.fields["validDuration"] as? Int) ?? 1_209_600
        guard (300...1_209_600).contains(validDuration) else { throw .badRequest("INVALID_DURATION") }
        let (account, token) = try verifiedToken(idToken)
        guard account.tenantId == tenant else { throw .badRequest("TENANT_ID_MISMATCH") }
        guard var claims = UnsignedJWT.claims(of: idToken) else { throw .badRequest("INVALID_ID_TOKEN") }
        let now = Int(now().timeIntervalSince1970)
        claims["iss"] = "https://session.firebase.google.com/\(configuration.projectId)"
        claims["iat"] = now
        claims["exp"] = now + validDuration
        claims["auth_time"] = Int(token.authTime.timeIntervalSince1970)
        return ["sessionCookie": mintJWT(claims)]
    }
}

extension Backend {
    /// Second factors as the Admin API gives them (`mfaInfo`, `mfa.enrollments`): SMS ones, each
    /// with its number and name; an enrolment id and date where none is given.
    static func enrollments(_ value: Any?, now: Date) throws(APIError) -> [MfaEnrollment] {
        guard let list = value as? [[String: Any]] else { return [] }
        var enrollments: [MfaEnrollment] = []
        for entry in list {
            guard let number = entry["phoneInfo"] as? String, isPhoneNumber(number) else {
                throw .badRequest("INVALID_MFA_PHONE_NUMBER : Invalid format.")
            }
            enrollments.append(MfaEnrollment(id: entry["mfaEnrollmentId"] as? String ?? RandomToken.localId(), displayName: entry["displayName"] as? String,
                                             enrolledAt: now, kind: .phone(number)))
        }
        return enrollments
    }
}
