import FBAuthAdmin
import FBAuthHTTP
import FBAuthVerification
import Foundation

/// The users of the project, as firebase-admin's `BaseAuth` manages them: each call checks its
/// arguments before any request, as the Admin SDK does, and throws `AdminAuthError` with its
/// code (`auth/user-not-found`, `auth/email-already-exists`, `auth/invalid-uid`, …) and words.
extension AdminAuth {
    /// Creates a user; its record as the Admin API then describes it.
    public func createUser(_ properties: CreateRequest) async throws -> UserRecord {
        let engine = properties.engine
        return try await adminCall { try UserRecord($0.createUser(engine)) }
    }

    /// The user of `uid`; `auth/user-not-found` when there is none.
    public func getUser(_ uid: String) async throws -> UserRecord {
        try await adminCall { try UserRecord($0.getUser(.uid(uid))) }
    }

    /// The user of the email address (in any case).
    public func getUserByEmail(_ email: String) async throws -> UserRecord {
        try await adminCall { try UserRecord($0.getUser(.email(email))) }
    }

    /// The user of the phone number (E.164).
    public func getUserByPhoneNumber(_ phoneNumber: String) async throws -> UserRecord {
        try await adminCall { try UserRecord($0.getUser(.phoneNumber(phoneNumber))) }
    }

    /// The user with the account `uid` at `providerId` (`google.com`; `phone` and `email` look
    /// the user up by number and address, as firebase-admin does).
    public func getUserByProviderUid(providerId: String, uid: String) async throws -> UserRecord {
        try await adminCall { try UserRecord($0.getUser(.provider(providerId: providerId, providerUid: uid))) }
    }

    /// Up to 100 users at once, and the identifiers no user was found for.
    public func getUsers(_ identifiers: [UserIdentifier]) async throws -> GetUsersResult {
        let engine = identifiers.map(\.engine)
        return try await adminCall { api in
            let (users, notFound) = try api.getUsers(engine)
            return GetUsersResult(users: users.map(UserRecord.init), notFound: notFound.map(UserIdentifier.init))
        }
    }

    /// Changes the user of `uid` as `properties` says; the record as it is now.
    public func updateUser(_ uid: String, _ properties: UpdateRequest) async throws -> UserRecord {
        let engine = properties.engine
        return try await adminCall { try UserRecord($0.updateUser(uid, engine)) }
    }

    /// Deletes the user of `uid`.
    public func deleteUser(_ uid: String) async throws {
        try await adminCall { try $0.deleteUser(uid) }
    }

    /// Up to 1,000 users at once; one that cannot be deleted is counted, not thrown.
    public func deleteUsers(_ uids: [String]) async throws -> DeleteUsersResult {
        try await adminCall { api in
            let deletion = try api.deleteUsers(uids)
            return DeleteUsersResult(successCount: deletion.successCount, failureCount: deletion.failures.count,
                                     errors: deletion.failures.map { ($0.index, AdminAuthError($0.error)) })
        }
    }

    /// A page of at most `maxResults` users (1 to 1,000), from `pageToken` (nil: the first page).
    public func listUsers(maxResults: Int = 1000, pageToken: String? = nil) async throws -> ListUsersResult {
        try await adminCall { api in
            let page = try api.listUsers(maxResults: maxResults, pageToken: pageToken)
            return ListUsersResult(users: page.users.map(UserRecord.init), pageToken: page.pageToken)
        }
    }

    /// Sets the user's custom claims (nil removes them), which their next ID token carries: a
    /// JSON object of at most 1,000 characters, none of the reserved claims.
    public func setCustomUserClaims(_ uid: String, _ customUserClaims: [String: Any]?) async throws {
        let claims = try customUserClaims.map(Self.jsonClaims)
        try await adminCall { try $0.setCustomUserClaims(uid, claims) }
    }

    /// Revokes every refresh token of the user: ID tokens from before now fail `checkRevoked`.
    public func revokeRefreshTokens(_ uid: String) async throws {
        let now = clock.now()
        try await adminCall { try $0.revokeRefreshTokens(uid, now: now) }
    }

    /// `work` on the Admin API, off the caller's thread, its refusal as `AdminAuthError`.
    /// `work` on the Admin API off the caller's thread, its refusals as `AdminAuthError`s: the
    /// tenant's API in a `TenantAwareAuth`, or the project's (`project`: tenants, configuration).
    func adminCall<T: Sendable>(project: Bool = false, _ work: @escaping @Sendable (AdminAPI) throws -> T) async throws -> T {
        guard let users = project ? projectAPI : users else {
            throw AdminAuthError(code: "auth/invalid-credential", message: "Must initialize app with a cert credential or set your Firebase project ID as the GOOGLE_CLOUD_PROJECT environment variable to manage users.",
                                 cause: .serverCredentials)
        }
        return try await offThread {
            do { return try work(users) } catch let refusal as TokenRefusal { throw AdminAuthError(refusal) }
        }
    }

    /// Claims as the Admin API takes them: a JSON object of JSON values.
    static func jsonClaims(_ claims: [String: Any]) throws -> [String: JSONValue] {
        guard JSONSerialization.isValidJSONObject(claims), let data = try? JSONSerialization.data(withJSONObject: claims),
              case .object(let object)? = JSONValue.decoded(data)
        else { throw AdminAuthError(code: "auth/argument-error", message: "CustomUserClaims argument must be an object or null.", cause: .invalidToken) }
        return object
    }
}
