#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthHTTP
import FBAuthSupport
import FBAuthVerification

/// A page of users (`accounts:batchGet`) and the token of the next one.
package struct AdminUserPage: Sendable {
    package var users: [AdminUserRecord]
    package var pageToken: String?
}

/// What `deleteUsers` came to: how many went, and why each other did not (its index in the list).
package struct AdminDeletion: Sendable, Equatable {
    package var successCount: Int
    package var failures: [(index: Int, error: TokenRefusal)]

    package static func == (left: AdminDeletion, right: AdminDeletion) -> Bool {
        left.successCount == right.successCount && left.failures.map(\.index) == right.failures.map(\.index)
            && left.failures.map(\.error) == right.failures.map(\.error)
    }
}

/// The user operations of firebase-admin-node's `BaseAuth`, on the Admin API, with its checks
/// before each request and its words for each refusal. The one implementation under
/// FirebaseAdminAuth and `fbauth users`.
extension AdminAPI {
    /// The most `listUsers` asks for in one page, and the most `getUsers` and `deleteUsers`
    /// take at once (firebase-admin-node `MAX_LIST_USERS_RESULTS`, `MAX_GET_ACCOUNTS_BATCH_SIZE`,
    /// `MAX_DELETE_ACCOUNTS_BATCH_SIZE`).
    package static let maxListUsers = 1000
    package static let maxGetUsers = 100
    package static let maxDeleteUsers = 1000

    package func createUser(_ user: AdminNewUser) throws(TokenRefusal) -> AdminUserRecord {
        let answer = try call("POST", "accounts", body: try user.body())
        guard let uid = answer["localId"]?.stringValue else {
            throw AdminErrors.client("INTERNAL_ERROR", message: "INTERNAL ASSERT FAILED: Unable to create new user")
        }
        return try getUser(.uid(uid))
    }

    package func getUser(_ identifier: AdminUserIdentifier) throws(TokenRefusal) -> AdminUserRecord {
        let answer = try call("POST", "accounts:lookup", body: try Self.lookupBody([identifier]))
        guard case .array(let users)? = answer["users"], let user = users.first else { throw AdminErrors.client("USER_NOT_FOUND") }
        let record = try AdminUserRecord(user)
        // The record must be the one asked for: a server that answered another's is not to be believed.
        if case .uid(let uid) = identifier, record.uid != uid {
            throw AdminErrors.client("INTERNAL_ERROR", message: "accounts:lookup answered a record that is not the user asked for.")
        }
        return record
    }

    /// The users of up to 100 identifiers, and the identifiers no user was found for.
    package func getUsers(_ identifiers: [AdminUserIdentifier]) throws(TokenRefusal) -> (users: [AdminUserRecord], notFound: [AdminUserIdentifier]) {
        guard identifiers.count <= Self.maxGetUsers else {
            throw AdminErrors.client("MAXIMUM_USER_COUNT_EXCEEDED", message: "`identifiers` parameter must have <= \(Self.maxGetUsers) entries.")
        }
        guard !identifiers.isEmpty else { return ([], []) }
        let answer = try call("POST", "accounts:lookup", body: try Self.lookupBody(identifiers))
        var users: [AdminUserRecord] = []
        if case .array(let found)? = answer["users"] {
            for user in found { users.append(try AdminUserRecord(user)) }
        }
        let notFound = identifiers.filter { identifier in !users.contains { Self.matches($0, identifier) } }
        return (users, notFound)
    }

    package func updateUser(_ uid: String, _ change: AdminUserChange) throws(TokenRefusal) -> AdminUserRecord {
        let answer = try call("POST", "accounts:update", body: try change.body(uid: uid))
        guard answer["localId"]?.stringValue == uid else {
            throw AdminErrors.client("INTERNAL_ERROR", message: "INTERNAL ASSERT FAILED: Unable to update user")
        }
        return try getUser(.uid(uid))
    }

    package func deleteUser(_ uid: String) throws(TokenRefusal) {
        try AdminChecks.uid(uid)
        _ = try call("POST", "accounts:delete", body: .object(["localId": .string(uid)]))
    }

    /// Up to 1,000 users at once, whether or not they are disabled (`force`).
    package func deleteUsers(_ uids: [String]) throws(TokenRefusal) -> AdminDeletion {
        guard uids.count <= Self.maxDeleteUsers else {
            throw AdminErrors.client("MAXIMUM_USER_COUNT_EXCEEDED", message: "`uids` parameter must have <= \(Self.maxDeleteUsers) entries.")
        }
        for uid in uids { try AdminChecks.uid(uid) }
        guard !uids.isEmpty else { return AdminDeletion(successCount: 0, failures: []) }
        let answer = try call("POST", "accounts:batchDelete", body: .object(["localIds": .array(uids.map(JSONValue.string)), "force": .bool(true)]))
        var failures: [(index: Int, error: TokenRefusal)] = []
        if case .array(let errors)? = answer["errors"] {
            for error in errors {
                guard let index = error["index"]?.integerValue.map(Int.init), uids.indices.contains(index) else {
                    throw AdminErrors.client("INTERNAL_ERROR", message: "accounts:batchDelete answered an error of no user in the list.")
                }
                failures.append((index, AdminErrors.client("INTERNAL_ERROR", message: error["message"]?.stringValue.map { TerminalText.safe(String($0.prefix(300))) })))
            }
        }
        return AdminDeletion(successCount: uids.count - failures.count, failures: failures)
    }

    /// A page of at most `maxResults` users (1 to 1,000), from `pageToken`.
    package func listUsers(maxResults: Int = AdminAPI.maxListUsers, pageToken: String? = nil) throws(TokenRefusal) -> AdminUserPage {
        guard (1...Self.maxListUsers).contains(maxResults) else {
            throw AdminErrors.client("INVALID_ARGUMENT", message: "Required \"maxResults\" must be a positive integer that does not exceed \(Self.maxListUsers).")
        }
        if let pageToken, pageToken.isEmpty { throw AdminErrors.client("INVALID_PAGE_TOKEN") }
        var query = [("maxResults", String(maxResults))]
        if let pageToken { query.append(("nextPageToken", pageToken)) }
        let answer = try call("GET", "accounts:batchGet", query: query)
        var users: [AdminUserRecord] = []
        if case .array(let found)? = answer["users"] {
            for user in found { users.append(try AdminUserRecord(user)) }
        }
        let next = answer["nextPageToken"]?.stringValue
        return AdminUserPage(users: users, pageToken: next?.isEmpty == false ? next : nil)
    }

    /// Sets (nil: removes) a user's custom claims, which their next ID token carries.
    package func setCustomUserClaims(_ uid: String, _ claims: [String: JSONValue]?) throws(TokenRefusal) {
        try AdminChecks.uid(uid)
        let text = try AdminChecks.customClaims(claims ?? [:])
        let answer = try call("POST", "accounts:update", body: .object(["localId": .string(uid), "customAttributes": .string(text)]))
        guard answer["localId"]?.stringValue == uid else {
            throw AdminErrors.client("INTERNAL_ERROR", message: "INTERNAL ASSERT FAILED: Unable to set custom user claims")
        }
    }

    /// Revokes every refresh token of the user: their ID tokens from before now no longer
    /// pass `checkRevoked`, and their sessions cannot be refreshed.
    package func revokeRefreshTokens(_ uid: String, now: Date) throws(TokenRefusal) {
        try AdminChecks.uid(uid)
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        let answer = try call("POST", "accounts:update", body: .object(["localId": .string(uid), "validSince": .string(String(seconds))]))
        guard answer["localId"]?.stringValue == uid else {
            throw AdminErrors.client("INTERNAL_ERROR", message: "INTERNAL ASSERT FAILED: Unable to revoke refresh tokens")
        }
    }

    // MARK: - Look-ups

    /// `accounts:lookup`'s body for the identifiers, each checked first.
    static func lookupBody(_ identifiers: [AdminUserIdentifier]) throws(TokenRefusal) -> JSONValue {
        var uids: [JSONValue] = [], emails: [JSONValue] = [], phones: [JSONValue] = [], federated: [JSONValue] = []
        for identifier in identifiers {
            switch identifier {
            case .uid(let uid): try AdminChecks.uid(uid); uids.append(.string(uid))
            case .email(let email): try AdminChecks.email(email); emails.append(.string(email))
            case .phoneNumber(let number): try AdminChecks.phoneNumber(number); phones.append(.string(number))
            case .provider(let providerId, let providerUid):
                guard !providerId.isEmpty else { throw AdminErrors.client("INVALID_PROVIDER_ID") }
                guard !providerUid.isEmpty else { throw AdminErrors.client("INVALID_PROVIDER_UID") }
                // As firebase-admin: the phone and email "providers" are looked up by what they are.
                switch providerId {
                case "phone": try AdminChecks.phoneNumber(providerUid); phones.append(.string(providerUid))
                case "email": try AdminChecks.email(providerUid); emails.append(.string(providerUid))
                default: federated.append(.object(["providerId": .string(providerId), "rawId": .string(providerUid)]))
                }
            }
        }
        var body: [String: JSONValue] = [:]
        if !uids.isEmpty { body["localId"] = .array(uids) }
        if !emails.isEmpty { body["email"] = .array(emails) }
        if !phones.isEmpty { body["phoneNumber"] = .array(phones) }
        if !federated.isEmpty { body["federatedUserId"] = .array(federated) }
        return .object(body)
    }

    /// Whether `user` is the one `identifier` names (firebase-admin-node `isUidIdentifier` …).
    static func matches(_ user: AdminUserRecord, _ identifier: AdminUserIdentifier) -> Bool {
        switch identifier {
        case .uid(let uid): user.uid == uid
        case .email(let email): user.email?.lowercased() == email.lowercased()
        case .phoneNumber(let number): user.phoneNumber == number
        case .provider(let providerId, let providerUid):
            switch providerId {
            case "phone": user.phoneNumber == providerUid
            case "email": user.email?.lowercased() == providerUid.lowercased()
            default: user.providerData.contains { $0.providerId == providerId && $0.uid == providerUid }
            }
        }
    }
}
