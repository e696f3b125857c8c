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
    func batchGet(_ query: [String: String], tenant: String?) -> [String: Any] {
        let asked = Int(query["maxResults"] ?? "") ?? 20
        let limit = asked == -1 ? Int.max : min(max(asked, 1), 1000)
        let after = query["nextPageToken"] ?? ""
        let users = accounts.page(inTenant: tenant ?? query["tenantId"], after: after, limit: limit)
        var answer: [String: Any] = ["kind": "identitytoolkit#DownloadAccountResponse", "users": users.map { userInfo($0, administrator: true) }]
        // A full page says another may follow, as Google's emulator says it.
        if users.count >= limit, limit != Int.max, let last = users.last { answer["nextPageToken"] = last.localId }
        return answer
    }

    /// `projects/P/accounts:query` (the Identity Toolkit v1 reference, projects.accounts.query):
    /// the users an expression matches (any of its entries: an email, a uid, a phone number;
    /// all users without one), sorted and paged by `limit` (at most 500) and `offset`, with
    /// their count; only the count when `returnUserInfo` is false.
    func queryAccounts(_ body: JSONBody, tenant: String?) throws(APIError) -> [String: Any] {
        let expression = body.fields["expression"] as? [[String: Any]] ?? []
        var found = accounts.accounts(inTenant: tenant).filter { account in
            expression.isEmpty || expression.contains { entry in
                (entry["email"] as? String).map { $0.lowercased() == account.email } == true
                    || (entry["userId"] as? String) == account.localId
                    || (entry["phoneNumber"] as? String).map { $0 == account.phoneNumber } == true
            }
        }
        let count: [String: Any] = ["recordsCount": String(found.count)]
        guard try body.bool("returnUserInfo") ?? true else { return count }
        let sortBy = try body.string("sortBy") ?? "USER_ID"
        let ascending: (Account, Account) -> Bool = switch sortBy {
        case "NAME": { ($0.displayName ?? "", $0.localId) < ($1.displayName ?? "", $1.localId) }
        case "USER_EMAIL": { ($0.email ?? "", $0.localId) < ($1.email ?? "", $1.localId) }
        case "CREATED_AT": { ($0.createdAt, $0.localId) < ($1.createdAt, $1.localId) }
        case "LAST_LOGIN_AT": { ($0.lastLoginAt, $0.localId) < ($1.lastLoginAt, $1.localId) }
        default: { $0.localId < $1.localId }
        }
        found.sort(by: ascending)
        if try body.string("order") == "DESC" { found.reverse() }
        let limit = Int(try body.string("limit") ?? "") ?? (body.fields["limit"] as? Int) ?? 500
        let offset = Int(try body.string("offset") ?? "") ?? (body.fields["offset"] as? Int) ?? 0
        guard (1...500).contains(limit), offset >= 0 else { throw .badRequest("INVALID_ARGUMENT : limit must be 1 to 500 and offset not negative") }
        return count.merging(["userInfo": found.dropFirst(offset).prefix(limit).map { userInfo($0, administrator: true) }]) { $1 }
    }

    /// `projects/P/accounts:batchDelete`: each uid deleted; one not disabled is refused unless
    /// `force`, and an unknown one is passed over.
    func batchDelete(_ body: JSONBody, tenant: String?) throws(APIError) -> [String: Any] {
        let uids = try body.strings("localIds") ?? []
        guard (1...1000).contains(uids.count) else { throw .badRequest("LOCAL_ID_LIST_EXCEEDS_LIMIT") }
        let force = try body.bool("force") ?? false
        var errors: [[String: Any]] = []
        for (index, uid) in uids.enumerated() {
            guard let account = accounts[AccountKey(tenantId: tenant, localId: uid)] else { continue }
            guard account.disabled || force else {
                errors.append(["index": index, "localId": uid, "message": "NOT_DISABLED : Disable the account before batch deletion."])
                continue
            }
            accounts[account.key] = nil
        }
        return errors.isEmpty ? [:] : ["errors": errors]
    }

    /// `projects/P/accounts:delete` by uid (with the Admin API's authority: no recent sign-in).
    func adminDelete(_ body: JSONBody, tenant: String?) throws(APIError) -> [String: Any] {
        guard let uid = try body.string("localId") else { throw .badRequest("MISSING_LOCAL_ID") }
        guard let account = accounts[AccountKey(tenantId: tenant, localId: uid)] else { throw .badRequest("USER_NOT_FOUND") }
        accounts[account.key] = nil
        return ["kind": "identitytoolkit#DeleteAccountResponse"]
    }

    static let batchCreateFields: Set<String> = [
        "users", "hashAlgorithm", "signerKey", "saltSeparator", "rounds", "memoryCost", "cpuMemCost", "parallelization", "blockSize",
        "dkLen", "passwordHashOrder", "sanityCheck", "allowOverwrite", "tenantId",
    ]

    /// `projects/P/accounts:batchCreate` (firebase-admin's `importUsers`): each user as given,
    /// checked as firebase-tools' batchCreate checks it (the batch first, then each user, whose
    /// error is listed by index). A password hash is kept as given, for an export to carry; it
    /// signs no one in here (the emulator keeps no key to check it with), as a hash of another
    /// system would not — except Google's emulator's own `fakeHash:salt=S:password=P`.
    func batchCreate(_ body: JSONBody, tenant: String?) throws(APIError) -> [String: Any] {
        guard let users = body.fields["users"] as? [[String: Any]], !users.isEmpty else { throw .badRequest("MISSING_USER_ACCOUNT") }
        guard users.count <= 1000 else { throw .badRequest("BATCH_SIZE_TOO_LARGE") }
        let allowOverwrite = try body.bool("allowOverwrite") ?? false
        // How the users' hashes were made, its costs bounded before any user is taken.
        let hashConfig = try PasswordHashConfig(fields: body.fields)
        if try body.bool("sanityCheck") == true { try sanityCheck(users) }
        if !allowOverwrite {
            var seen: Set<String> = []
            for user in users {
                let localId = user["localId"] as? String ?? ""
                guard seen.insert(localId).inserted else { throw .badRequest("DUPLICATE_LOCAL_ID : \(localId)") }
            }
        }
        var errors: [[String: Any]] = []
        for (index, fields) in users.enumerated() {
            do throws(APIError) {
                try importUser(JSONBody(fields: fields), tenant: tenant, hashConfig: hashConfig, allowOverwrite: allowOverwrite,
                               duplicateEmail: body.fields["sanityCheck"] as? Bool == true && configuration.oneAccountPerEmail)
            } catch {
                errors.append(["index": index, "message": Self.importMessage(error.message)])
            }
        }
        return errors.isEmpty ? [:] : ["error": errors]
    }

    /// The batch's own checks: no address twice (with one account per address), no provider
    /// account twice.
    private func sanityCheck(_ users: [[String: Any]]) throws(APIError) {
        var emails: Set<String> = [], providerAccounts: Set<String> = []
        for user in users {
            if configuration.oneAccountPerEmail, let email = user["email"] as? String {
                guard emails.insert(email).inserted else { throw .badRequest("DUPLICATE_EMAIL : \(email)") }
            }
            for provider in user["providerUserInfo"] as? [[String: Any]] ?? [] {
                let (providerId, rawId) = (provider["providerId"] as? String ?? "", provider["rawId"] as? String ?? "")
                guard providerAccounts.insert("\(providerId):\(rawId)").inserted else {
                    throw .badRequest("DUPLICATE_RAW_ID : Provider id(\(providerId)), Raw id(\(rawId))")
                }
            }
        }
    }

    /// Production's words for a user's claims refused in an import.
    private static func importMessage(_ code: String) -> String {
        switch code {
        case "INVALID_CLAIMS": "Invalid custom claims provided."
        case "CLAIMS_TOO_LARGE": "Custom claims provided are too large."
        case _ where code.hasPrefix("FORBIDDEN_CLAIM"): "Custom claims provided include a reserved claim."
        default: code
        }
    }

    private func importUser(_ user: JSONBody, tenant: String?, hashConfig: PasswordHashConfig?, allowOverwrite: Bool, duplicateEmail: Bool) throws(APIError) {
        guard let uid = try user.string("localId"), !uid.isEmpty else { throw .badRequest("localId is missing") }
        guard uid.count <= 128 else { throw .badRequest("localId is too long") }
        if let named = try user.string("tenantId"), named != tenant {
            throw .badRequest("Tenant id in userInfo does not match the tenant id in request.")
        }
        let now = now()
        var account = Account(localId: uid, tenantId: tenant, createdAt: now, lastLoginAt: now, validSince: now.addingTimeInterval(-1))
        account.displayName = try user.string("displayName")
        account.photoUrl = try user.string("photoUrl")
        if let hash = try user.string("passwordHash") {
            // Google's emulator's own hash holds the password in clear; any other is checked at
            // sign-in with the batch's algorithm (or the project's own).
            account.password = Self.fakeHashPassword(hash)
            account.importedPasswordHash = hash
            account.importedSalt = try user.string("salt")
            if account.password == nil, let hashConfig {
                if let bytes = PasswordHashConfig.bytes(base64: hash) { try hashConfig.checkHash(bytes) }
                account.importedHashConfig = hashConfig
            }
            account.passwordUpdatedAt = now
        } else if let password = try user.string("rawPassword") {
            // Google's Auth emulator's own field: a password in clear, for test users.
            account.password = password
            account.passwordUpdatedAt = now
        }
        if let attributes = try user.string("customAttributes") { account.customClaims = try Self.customClaims(attributes) }
        for provider in (user.fields["providerUserInfo"] as? [[String: Any]]) ?? [] {
            let info = JSONBody(fields: provider)
            let providerId = try info.string("providerId") ?? "", rawId = try info.string("rawId") ?? ""
            if providerId == "password" || providerId == "phone" { continue }
            guard !providerId.isEmpty, !rawId.isEmpty else {
                guard try info.string("federatedId") != nil else { throw .badRequest("federatedId or (providerId & rawId) is required") }
                throw .badRequest("((Parsing federatedId is not implemented in Auth Emulator; please specify providerId AND rawId as a workaround.))")
            }
            if let owner = self.account(linkedTo: providerId, rawId: rawId, tenantId: tenant), owner.localId != uid {
                throw .badRequest("raw id exists in other account in database")
            }
            account.links.removeAll { $0.providerId == providerId }
            account.links.append(ProviderLink(providerId: providerId, rawId: rawId, federatedId: try info.string("federatedId") ?? rawId,
                                              email: try info.string("email"), displayName: try info.string("displayName"),
                                              photoUrl: try info.string("photoUrl"), screenName: try info.string("screenName")))
        }
        if let number = try user.string("phoneNumber") {
            guard Self.isPhoneNumber(number) else { throw .badRequest("phone number format is invalid") }
            account.links.append(ProviderLink(providerId: "phone", rawId: number, federatedId: "", phoneNumber: number))
        }
        // Milliseconds, as a number (firebase-admin sends one) or its digits.
        if let created = try user.int64("createdAt") { account.createdAt = Date(timeIntervalSince1970: Double(created) / 1000) }
        if let last = try user.int64("lastLoginAt") { account.lastLoginAt = Date(timeIntervalSince1970: Double(last) / 1000) }
        if let email = try user.string("email") {
            guard Self.looksLikeEmail(email) else { throw .badRequest("email is invalid") }
            if accounts.accounts(withEmail: email, tenantId: tenant).contains(where: { $0.localId != uid }) {
                throw .badRequest(duplicateEmail ? "email exists in other account in database" : "((Auth Emulator does not support importing duplicate email: \(email)))")
            }
            account.email = email.lowercased()
        }
        account.emailVerified = try user.bool("emailVerified") ?? false
        account.disabled = try user.bool("disabled") ?? false
        if let factors = user.fields["mfaInfo"] as? [[String: Any]], !factors.isEmpty {
            guard account.email != nil else { throw .badRequest("Second factor account requires email to be presented.") }
            guard account.emailVerified else { throw .badRequest("Second factor account requires email to be verified.") }
            var ids: Set<String> = []
            for factor in factors {
                if let id = factor["mfaEnrollmentId"] as? String { guard ids.insert(id).inserted else { throw .badRequest("Enrollment id already exists.") } }
            }
            for factor in factors {
                guard let number = factor["phoneInfo"] as? String else { throw .badRequest("Second factor not supported.") }
                guard Self.isPhoneNumber(number) else { throw .badRequest("Phone number format is invalid") }
            }
            account.mfaEnrollments = try Self.enrollments(factors.map { factor in
                var factor = factor
                if factor["mfaEnrollmentId"] == nil { factor["mfaEnrollmentId"] = RandomToken.localId() }
                return factor
            }, now: now, generateIds: false)
        }
        if accounts[account.key] != nil, !allowOverwrite { throw .badRequest("localId belongs to an existing account - can not overwrite.") }
        accounts[account.key] = account
    }

    /// The password of Google's emulator's fake hash (`fakeHash:salt=SALT:password=PASSWORD`),
    /// which signs in as the password would; nil for any other hash.
    static func fakeHashPassword(_ hash: String) -> String? {
        guard hash.hasPrefix("fakeHash:salt="), let marker = hash.firstRange(of: ":password=") else { return nil }
        return String(hash[marker.upperBound...])
    }

    /// A user's custom claims as an administrator sets them (`customAttributes`, a JSON object
    /// in a string), checked as production checks them: at most 1,000 characters, an object,
    /// no reserved claim.
    static func customClaims(_ attributes: String) throws(APIError) -> [String: Any] {
        guard attributes.count <= 1000 else { throw .badRequest("CLAIMS_TOO_LARGE") }
        guard let claims = JSONText.parse(Data(attributes.utf8)) as? [String: Any] else { throw .badRequest("INVALID_CLAIMS") }
        if let reserved = claims.keys.sorted().first(where: { reservedClaims.contains($0) }) { throw .badRequest("FORBIDDEN_CLAIM : \(reserved)") }
        return claims
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
    /// Second factors as a request lists them (`mfaInfo`, `mfa.enrollments`), as firebase-tools'
    /// getMfaEnrollmentsFromRequest reads them: one per phone number, ids new (`generateIds`) or
    /// given and distinct, `enrolledAt` kept when given.
    static func enrollments(_ value: Any?, now: Date, generateIds: Bool = true) throws(APIError) -> [MfaEnrollment] {
        guard let list = value as? [[String: Any]] else { return [] }
        var enrollments: [MfaEnrollment] = []
        for entry in list {
            guard let number = entry["phoneInfo"] as? String, isPhoneNumber(number) else {
                throw .badRequest("INVALID_MFA_PHONE_NUMBER : Invalid format.")
            }
            guard !enrollments.contains(where: { if case .phone(number) = $0.kind { true } else { false } }) else { continue }
            let id: String
            if generateIds {
                id = RandomToken.localId()
            } else {
                guard let given = entry["mfaEnrollmentId"] as? String, !given.isEmpty else {
                    throw .badRequest("INVALID_MFA_ENROLLMENT_ID : mfaEnrollmentId must be defined.")
                }
                guard !enrollments.contains(where: { $0.id == given }) else { throw .badRequest("DUPLICATE_MFA_ENROLLMENT_ID") }
                id = given
            }
            let given = (entry["enrolledAt"] as? String).flatMap { text in
                ((try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))) ?? (try? Date(text, strategy: .iso8601))).map { (text, $0) }
            }
            enrollments.append(MfaEnrollment(id: id, displayName: entry["displayName"] as? String, enrolledAt: given?.1 ?? now, kind: .phone(number),
                                             enrolledAtAsGiven: given?.0))
        }
        return enrollments
    }
}
