#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The stand-in's users in the directory layout of Google's Auth emulator (firebase-tools
/// `src/emulator/hubExport.ts` and `src/emulator/auth/index.ts`), so that `fbauth emulator
/// --import DIR --export-on-exit` keeps users across restarts and moves them to and from
/// `firebase emulators:start --import DIR`:
///
///     DIR/firebase-export-metadata.json   {"version", "auth": {"version", "path": "auth_export"}}
///     DIR/auth_export/accounts.json       accounts:batchGet's answer: {"kind", "users": [UserInfo]}
///     DIR/auth_export/accounts-TENANT.json  the same for each tenant
///     DIR/auth_export/config.json         {"signIn": {"allowDuplicateEmails"}, "emailPrivacyConfig": {…}}
///
/// Passwords are kept as Google's emulator keeps them, `fakeHash:salt=SALT:password=PASSWORD`:
/// these are test users. TOTP second factors, which Google's emulator lacks, go to
/// `auth_export/fbauth-totp-factors.json` (a name its import skips), and the refresh tokens
/// issued to `auth_export/fbauth-refresh-tokens.json`: Google's emulator encodes its sessions in
/// its refresh tokens, which outlive a restart, and so do the stand-in's.
package enum AuthExport {
    package struct Problem: Error, CustomStringConvertible {
        package var description: String
    }

    static let metadataFile = "firebase-export-metadata.json"
    static let totpFile = "fbauth-totp-factors.json"
    static let refreshTokensFile = "fbauth-refresh-tokens.json"
    /// Larger files are refused (the store's own limit).
    static let maximumFileBytes = 16 << 20

    // MARK: - Export

    /// Opens (creating it, 0700) the directory an export will be written to, and refuses one
    /// that another user owns or may write in, or whose `auth_export` is not a folder of ours.
    package static func prepare(_ directory: String) throws(Problem) {
        _ = try PrivateDirectory.open(directory, role: "export").folder("auth_export", create: true)
    }

    static func write(_ backend: Backend, to directory: String, version: String) throws(Problem) {
        let top = try PrivateDirectory.open(directory, role: "export")
        guard let auth = try top.folder("auth_export", create: true) else { return }
        var byTenant: [String?: [[String: Any]]] = [nil: []]
        var totp: [[String: Any]] = []
        for account in backend.accounts.values.sorted(by: { $0.localId < $1.localId }) {
            byTenant[account.tenantId, default: []].append(userInfo(account))
            for enrollment in account.mfaEnrollments {
                if case .totp(let secret) = enrollment.kind {
                    var factor: [String: Any] = ["localId": account.localId, "mfaEnrollmentId": enrollment.id, "sharedSecretKey": secret,
                                                 "enrolledAt": enrollment.enrolledAt.formatted(.iso8601)]
                    factor["displayName"] = enrollment.displayName
                    factor["tenantId"] = account.tenantId
                    totp.append(factor)
                }
            }
        }
        for (tenant, users) in byTenant {
            // Tenant ids were checked when they came in; a file name is built from none that was not.
            guard tenant.map(TenantID.isValid) ?? true else { throw Problem(description: "tenant id '\(tenant ?? "")' is not a tenant id") }
            let name = tenant.map { "accounts-\($0).json" } ?? "accounts.json"
            try auth.write(name, JSONText.data(["kind": "identitytoolkit#DownloadAccountResponse", "users": users]))
        }
        try auth.write("config.json", JSONText.data(["signIn": ["allowDuplicateEmails": !backend.configuration.oneAccountPerEmail],
                                                      "emailPrivacyConfig": ["enableImprovedEmailPrivacy": backend.configuration.emailEnumerationProtection]]))
        try auth.write(totpFile, JSONText.data(["factors": totp]))
        let sessions: [[String: Any]] = backend.refreshTokens.sorted { $0.key < $1.key }.compactMap { token, issued in
            guard backend.accounts[AccountKey(tenantId: issued.tenantId, localId: issued.localId)] != nil else { return nil }
            var session: [String: Any] = ["refreshToken": token, "localId": issued.localId, "issuedAt": issued.issuedAt.formatted(.iso8601),
                                          "signInProvider": issued.signInProvider]
            session["tenantId"] = issued.tenantId
            if !issued.developerClaims.isEmpty { session["claims"] = issued.developerClaims }
            if let factor = issued.secondFactor { session["secondFactor"] = ["factorId": factor.factorId, "enrollmentId": factor.enrollmentId] }
            return session
        }
        try auth.write(refreshTokensFile, JSONText.data(["sessions": sessions]))
        // Written last, as firebase-tools does: a directory with it is a whole export.
        try top.write(metadataFile, JSONText.data(["version": version, "auth": ["version": version, "path": "auth_export"]]))
    }

    /// An account as Google's emulator stores (and exports) it.
    static func userInfo(_ account: Account) -> [String: Any] {
        var user: [String: Any] = [
            "localId": account.localId, "emailVerified": account.emailVerified,
            "createdAt": Backend.milliseconds(account.createdAt), "lastLoginAt": Backend.milliseconds(account.lastLoginAt),
            "validSince": String(Int64(account.validSince.timeIntervalSince1970)),
            "providerUserInfo": account.links.map(\.info),
        ]
        user["email"] = account.email
        user["displayName"] = account.displayName
        user["photoUrl"] = account.photoUrl
        user["tenantId"] = account.tenantId
        if account.disabled { user["disabled"] = true }
        if account.emailLinkSignIn { user["emailLinkSignin"] = true }
        if let password = account.password {
            let salt = "fakeSalt" + RandomToken.make(bytes: 10)
            user["salt"] = salt
            user["passwordHash"] = "fakeHash:salt=\(salt):password=\(password)"
            user["passwordUpdatedAt"] = Int64((account.passwordUpdatedAt ?? account.createdAt).timeIntervalSince1970 * 1000)
        } else if let hash = account.importedPasswordHash {
            // Kept as imported; the algorithm of its batch is not in this layout, so after a
            // restart only the project's own parameters (`--hash-config`) check it.
            user["passwordHash"] = hash
            user["salt"] = account.importedSalt
            user["passwordUpdatedAt"] = Int64((account.passwordUpdatedAt ?? account.createdAt).timeIntervalSince1970 * 1000)
        }
        if !account.customClaims.isEmpty { user["customAttributes"] = String(decoding: JSONText.data(account.customClaims), as: UTF8.self) }
        let phones = account.mfaEnrollments.filter { if case .phone = $0.kind { return true } else { return false } }
        if !phones.isEmpty { user["mfaInfo"] = phones.map { $0.info(masked: false) } }
        return user
    }

    // MARK: - Import

    /// Reads an export of either emulator: the accounts, the two project settings, TOTP factors.
    /// What an import found.
    package enum Found: Sendable, Equatable {
        /// No directory: a first start (`--export-on-exit` makes it).
        case nothing
        /// An empty directory.
        case empty
        /// An export, with this many users.
        case users(Int)
    }

    static func read(_ directory: String, into backend: Backend) throws(Problem) -> Found {
        // A directory that does not exist yet is a first start, as an empty one is.
        guard let top = try PrivateDirectory.openExisting(directory, role: "import") else { return .nothing }
        var authPath = "auth_export"
        if let metadata = try load(metadataFile, in: top, required: false) {
            guard let path = (metadata["auth"] as? [String: Any])?["path"] as? String else {
                throw Problem(description: "\(directory)/\(metadataFile) names no auth export (auth.path); it holds no Auth emulator data")
            }
            guard !path.contains("/"), path != "..", path != ".", !path.isEmpty, path.count <= 200 else {
                throw Problem(description: "\(directory)/\(metadataFile): auth.path '\(path)' must be the name of a folder inside \(directory)")
            }
            authPath = path
        }
        if try top.names().isEmpty { return .empty }
        guard let auth = try top.folder(authPath, create: false) else {
            throw Problem(description: "cannot read \(directory)/\(authPath): no Auth emulator export there (firebase emulators:export, or fbauth emulator --export-on-exit)")
        }
        if let config = try load("config.json", in: auth, required: false) {
            if let duplicates = (config["signIn"] as? [String: Any])?["allowDuplicateEmails"] as? Bool { backend.configuration.oneAccountPerEmail = !duplicates }
            if let hidden = (config["emailPrivacyConfig"] as? [String: Any])?["enableImprovedEmailPrivacy"] as? Bool {
                backend.configuration.emailEnumerationProtection = hidden
            }
        }
        // As firebase-tools: every file whose name holds "accounts"; the tenant from its name.
        for name in try auth.names().sorted() where name.contains("accounts") && name.hasSuffix(".json") {
            let tenant = String(name.dropFirst("accounts".count).dropLast(".json".count).drop { $0 == "-" })
            guard let file = try load(name, in: auth, required: true) else { continue }
            guard let users = file["users"] as? [Any] ?? (file["users"] == nil ? [] : nil) else {
                throw Problem(description: "\(auth.path)/\(name): \"users\" is not a list")
            }
            for (index, user) in users.enumerated() {
                let where_ = "\(auth.path)/\(name), users[\(index)]"
                guard let user = user as? [String: Any] else { throw Problem(description: "\(where_) is not an object") }
                var account = try Self.account(user, at: where_)
                if !tenant.isEmpty { account.tenantId = try tenantId(tenant, "tenant in the file name", at: where_) }
                backend.accounts[account.key] = account
            }
        }
        if let factors = try load(totpFile, in: auth, required: false)?["factors"] as? [Any] {
            for case let factor as [String: Any] in factors {
                guard let localId = factor["localId"] as? String, let secret = factor["sharedSecretKey"] as? String, Base32.decode(secret) != nil,
                    let id = factor["mfaEnrollmentId"] as? String, backend.accounts[backend.key(ofUID: localId)] != nil
                else { throw Problem(description: "\(auth.path)/\(totpFile): a factor without localId, mfaEnrollmentId or a base32 sharedSecretKey") }
                let enrolledAt = (factor["enrolledAt"] as? String).flatMap { try? Date($0, strategy: .iso8601) } ?? backend.now()
                backend.accounts[backend.key(ofUID: localId)]?.mfaEnrollments.append(MfaEnrollment(
                    id: id, displayName: factor["displayName"] as? String, enrolledAt: enrolledAt, kind: .totp(secret: secret)))
            }
        }
        if let sessions = try load(refreshTokensFile, in: auth, required: false)?["sessions"] as? [Any] {
            for case let session as [String: Any] in sessions {
                guard let token = session["refreshToken"] as? String, (1...512).contains(token.utf8.count),
                      token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
                      let localId = session["localId"] as? String, backend.accounts[backend.key(ofUID: localId)] != nil,
                      let provider = session["signInProvider"] as? String, (1...128).contains(provider.utf8.count),
                      let issuedAt = (session["issuedAt"] as? String).flatMap({ try? Date($0, strategy: .iso8601) })
                else { throw Problem(description: "\(auth.path)/\(refreshTokensFile): a session without a refreshToken, a known localId, signInProvider or issuedAt") }
                let factor = (session["secondFactor"] as? [String: Any]).flatMap { factor -> SecondFactorClaim? in
                    guard let id = factor["factorId"] as? String, let enrollment = factor["enrollmentId"] as? String else { return nil }
                    return SecondFactorClaim(factorId: id, enrollmentId: enrollment)
                }
                backend.refreshTokens[token] = IssuedRefreshToken(
                    localId: localId, tenantId: backend.accounts[backend.key(ofUID: localId)]?.tenantId, issuedAt: issuedAt, signInProvider: provider,
                    secondFactor: factor, developerClaims: session["claims"] as? [String: Any] ?? [:])
            }
        }
        return .users(backend.accounts.count)
    }

    /// One exported user, each value checked as the stand-in would have made it.
    static func account(_ user: [String: Any], at location: String) throws(Problem) -> Account {
        guard let localId = user["localId"] as? String else { throw Problem(description: "\(location) has no localId") }
        let id = try text(localId, "localId", at: location, limit: 128)
        let now = Date()
        var account = Account(localId: id, createdAt: try time(user["createdAt"], "createdAt", at: location) ?? now,
                              lastLoginAt: try time(user["lastLoginAt"], "lastLoginAt", at: location) ?? now,
                              validSince: try seconds(user["validSince"], at: location) ?? now.addingTimeInterval(-1))
        if let email = user["email"] as? String { account.email = try text(email, "email", at: location, limit: 254).lowercased() }
        account.emailVerified = user["emailVerified"] as? Bool ?? false
        account.displayName = try (user["displayName"] as? String).map { (name: String) throws(Problem) in try text(name, "displayName", at: location, limit: 256) }
        account.photoUrl = try (user["photoUrl"] as? String).map { (url: String) throws(Problem) in try text(url, "photoUrl", at: location, limit: 2048) }
        account.tenantId = try (user["tenantId"] as? String).map { (tenant: String) throws(Problem) in try tenantId(tenant, "tenantId", at: location) }
        account.disabled = user["disabled"] as? Bool ?? false
        account.emailLinkSignIn = user["emailLinkSignin"] as? Bool ?? false
        if let hash = user["passwordHash"] as? String {
            if let range = hash.firstRange(of: ":password="), hash.hasPrefix("fakeHash:salt=") {
                // Google's emulator: `fakeHash:salt=SALT:password=PASSWORD` (its hashPassword).
                account.password = String(hash[range.upperBound...])
            } else {
                // A production hash (a `firebase auth:export` file's): checked at sign-in with
                // the project's own parameters (`--hash-config`).
                guard PasswordHashConfig.bytes(base64: hash) != nil, hash.utf8.count <= 1024 else {
                    throw Problem(description: "\(location): passwordHash is neither an emulator's fakeHash:salt=…:password=… nor base64")
                }
                let salt = try (user["salt"] as? String).map { (salt: String) throws(Problem) in try text(salt, "salt", at: location, limit: 1024) }
                guard salt.map({ PasswordHashConfig.bytes(base64: $0) != nil }) ?? true else { throw Problem(description: "\(location): salt is not base64") }
                (account.importedPasswordHash, account.importedSalt) = (hash, salt)
            }
            account.passwordUpdatedAt = try time(user["passwordUpdatedAt"], "passwordUpdatedAt", at: location)
        }
        if let attributes = user["customAttributes"] as? String, !attributes.isEmpty {
            guard let claims = JSONText.parse(attributes) as? [String: Any] else { throw Problem(description: "\(location): customAttributes is not a JSON object") }
            account.customClaims = claims
        }
        for case let info as [String: Any] in user["providerUserInfo"] as? [Any] ?? [] {
            guard let providerId = info["providerId"] as? String, providerId != "password", providerId != "phone" else { continue }
            guard let rawId = info["rawId"] as? String else { throw Problem(description: "\(location): a providerUserInfo without rawId") }
            account.links.append(ProviderLink(
                providerId: try text(providerId, "providerId", at: location, limit: 128), rawId: try text(rawId, "rawId", at: location, limit: 256),
                federatedId: (info["federatedId"] as? String) ?? rawId, email: info["email"] as? String, displayName: info["displayName"] as? String,
                photoUrl: info["photoUrl"] as? String, screenName: info["screenName"] as? String))
        }
        for case let info as [String: Any] in user["mfaInfo"] as? [Any] ?? [] {
            guard let id = info["mfaEnrollmentId"] as? String, let phone = info["phoneInfo"] as? String else { continue }
            let enrolledAt = (info["enrolledAt"] as? String).flatMap { try? Date($0, strategy: .iso8601) } ?? now
            account.mfaEnrollments.append(MfaEnrollment(id: id, displayName: info["displayName"] as? String, enrolledAt: enrolledAt, kind: .phone(phone)))
        }
        return account
    }

    private static func load(_ name: String, in folder: PrivateDirectory, required: Bool) throws(Problem) -> [String: Any]? {
        guard let data = try folder.read(name, limit: maximumFileBytes) else {
            if required { throw Problem(description: "\(folder.path)/\(name) is missing") }
            return nil
        }
        guard let object = JSONText.parse(data) as? [String: Any] else { throw Problem(description: "\(folder.path)/\(name) is not a JSON object") }
        return object
    }

    /// A tenant id of Identity Platform's form (`TenantID`).
    private static func tenantId(_ value: String, _ field: String, at location: String) throws(Problem) -> String {
        guard TenantID.isValid(value) else { throw Problem(description: "\(location): \(field) '\(String(value.prefix(80)))' is not a tenant id (\(TenantID.form))") }
        return value
    }

    /// Text of at most `limit` characters without control characters.
    private static func text(_ value: String, _ field: String, at location: String, limit: Int) throws(Problem) -> String {
        guard !value.isEmpty, value.count <= limit, !value.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            throw Problem(description: "\(location): \(field) must be 1 to \(limit) characters without control characters")
        }
        return value
    }

    /// Milliseconds since 1970 (a number or a string of digits), between 1970 and 2200.
    private static func time(_ value: Any?, _ field: String, at location: String) throws(Problem) -> Date? {
        guard let value else { return nil }
        let milliseconds: Int64? = (value as? String).flatMap { Int64($0) } ?? (value as? Int).map(Int64.init) ?? (value as? Int64)
            ?? (value as? Double).flatMap { $0.isFinite && abs($0) < 1e16 ? Int64($0) : nil }
        guard let milliseconds, (0...7_258_118_400_000).contains(milliseconds) else {
            throw Problem(description: "\(location): \(field) is not a time in milliseconds between 1970 and 2200")
        }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// `validSince`: seconds since 1970 as a string.
    private static func seconds(_ value: Any?, at location: String) throws(Problem) -> Date? {
        guard let value else { return nil }
        guard let seconds = (value as? String).flatMap({ Int64($0) }) ?? (value as? Int).map(Int64.init), (0...7_258_118_400).contains(seconds) else {
            throw Problem(description: "\(location): validSince is not seconds between 1970 and 2200")
        }
        return Date(timeIntervalSince1970: Double(seconds))
    }
}

extension StandIn {
    /// Writes the users and settings as Google's Auth emulator exports them.
    package func exportAuth(to directory: String, version: String) throws(AuthExport.Problem) {
        try withBackendForExport { (backend) throws(AuthExport.Problem) in try AuthExport.write(backend, to: directory, version: version) }
    }

    /// Adds the users of an export (either emulator's) and takes its settings.
    @discardableResult
    package func importAuth(from directory: String) throws(AuthExport.Problem) -> AuthExport.Found {
        var found = AuthExport.Found.nothing
        try withBackendForExport { (backend) throws(AuthExport.Problem) in found = try AuthExport.read(directory, into: backend) }
        return found
    }
}
