#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthHTTP
import FBAuthSupport
import FBAuthVerification

/// A user to import (firebase-admin-node `UserImportRecord`), checked as
/// `populateUploadAccountUser` and `validateCreateEditRequest` check one.
package struct AdminImportUser: Sendable, Equatable {
    package struct Provider: Sendable, Equatable {
        package var uid: String
        package var providerId: String
        package var displayName: String?
        package var email: String?
        package var photoURL: String?

        package init(uid: String, providerId: String) { (self.uid, self.providerId) = (uid, providerId) }
    }

    /// A phone second factor (the only kind an import takes).
    package struct SecondFactor: Sendable, Equatable {
        package var uid: String?
        package var phoneNumber: String
        package var displayName: String?
        package var enrollmentTime: Date?
        package var factorId = "phone"

        package init(phoneNumber: String) { self.phoneNumber = phoneNumber }
    }

    package var uid: String
    package var email: String?
    package var emailVerified: Bool?
    package var displayName: String?
    package var phoneNumber: String?
    package var photoURL: String?
    package var disabled: Bool?
    package var creationTime: Date?
    package var lastSignInTime: Date?
    package var providerData: [Provider] = []
    package var customClaims: [String: JSONValue]?
    package var passwordHash: [UInt8]?
    package var passwordSalt: [UInt8]?
    package var tenantId: String?
    package var secondFactors: [SecondFactor] = []

    package init(uid: String) { self.uid = uid }

    /// The user as `accounts:batchCreate` takes one (`UploadAccountUser`).
    package func uploadFields() throws(TokenRefusal) -> JSONValue {
        try AdminChecks.uid(uid)
        var fields: [String: JSONValue] = ["localId": .string(uid)]
        if let tenantId {
            guard !tenantId.isEmpty else { throw AdminErrors.client("INVALID_TENANT_ID") }
            fields["tenantId"] = .string(tenantId)
        }
        if let email { try AdminChecks.email(email); fields["email"] = .string(email) }
        if let phoneNumber { try AdminChecks.phoneNumber(phoneNumber); fields["phoneNumber"] = .string(phoneNumber) }
        if let photoURL { try AdminChecks.photoURL(photoURL); fields["photoUrl"] = .string(photoURL) }
        if let displayName { fields["displayName"] = .string(displayName) }
        if let emailVerified { fields["emailVerified"] = .bool(emailVerified) }
        if let disabled { fields["disabled"] = .bool(disabled) }
        if let customClaims { fields["customAttributes"] = .string(try AdminChecks.customClaims(customClaims)) }
        if let passwordHash { fields["passwordHash"] = .string(AdminHashOptions.webSafeBase64(passwordHash)) }
        if let passwordSalt { fields["salt"] = .string(AdminHashOptions.webSafeBase64(passwordSalt)) }
        if let creationTime { fields["createdAt"] = .integer(Self.milliseconds(creationTime)) }
        if let lastSignInTime { fields["lastLoginAt"] = .integer(Self.milliseconds(lastSignInTime)) }
        if !providerData.isEmpty { fields["providerUserInfo"] = .array(try providerData.map(Self.providerFields)) }
        if !secondFactors.isEmpty { fields["mfaInfo"] = .array(try secondFactors.map(Self.factorFields)) }
        return .object(fields)
    }

    static func providerFields(_ provider: Provider) throws(TokenRefusal) -> JSONValue {
        let shown = TerminalText.safe(String(provider.providerId.prefix(100)))
        guard !provider.providerId.isEmpty else { throw AdminErrors.client("INVALID_PROVIDER_ID") }
        guard !provider.uid.isEmpty else {
            throw AdminErrors.client("INVALID_UID", message: "The provider \"uid\" for \"\(shown)\" must be a valid non-empty string.")
        }
        var fields: [String: JSONValue] = ["providerId": .string(provider.providerId), "rawId": .string(provider.uid)]
        if let email = provider.email {
            do throws(TokenRefusal) { try AdminChecks.email(email) } catch {
                throw AdminErrors.client("INVALID_EMAIL", message: "The provider \"email\" for \"\(shown)\" must be a valid email string.")
            }
            fields["email"] = .string(email)
        }
        if let photoURL = provider.photoURL {
            do throws(TokenRefusal) { try AdminChecks.photoURL(photoURL) } catch {
                throw AdminErrors.client("INVALID_PHOTO_URL", message: "The provider \"photoURL\" for \"\(shown)\" must be a valid URL string.")
            }
            fields["photoUrl"] = .string(photoURL)
        }
        if let displayName = provider.displayName { fields["displayName"] = .string(displayName) }
        return .object(fields)
    }

    static func factorFields(_ factor: SecondFactor) throws(TokenRefusal) -> JSONValue {
        guard factor.factorId == "phone" else {
            throw AdminErrors.client("UNSUPPORTED_SECOND_FACTOR", message: "Unsupported second factor \"\(TerminalText.safe(String(factor.factorId.prefix(100))))\" provided.")
        }
        var fields: [String: JSONValue] = ["phoneInfo": .string(factor.phoneNumber)]
        let shown = TerminalText.safe(String((factor.uid ?? factor.phoneNumber).prefix(100)))
        if let uid = factor.uid {
            guard !uid.isEmpty else { throw AdminErrors.client("INVALID_UID", message: "The second factor \"uid\" must be a valid non-empty string.") }
            fields["mfaEnrollmentId"] = .string(uid)
        }
        do throws(TokenRefusal) { try AdminChecks.phoneNumber(factor.phoneNumber) } catch {
            throw AdminErrors.client("INVALID_PHONE_NUMBER", message: "The second factor \"phoneNumber\" for \"\(shown)\" must be a non-empty E.164 standard compliant identifier string.")
        }
        if let displayName = factor.displayName { fields["displayName"] = .string(displayName) }
        if let enrolled = factor.enrollmentTime { fields["enrolledAt"] = .string(enrolled.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))) }
        return .object(fields)
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
}

/// What `importUsers` came to: how many were imported, and why each other was not (its index
/// in the list given), whether refused here or by the server.
package struct AdminImportOutcome: Sendable, Equatable {
    package var successCount: Int
    package var failures: [AdminIndexedFailure]
}

/// One user of a batch that failed, by its index in the list given.
package struct AdminIndexedFailure: Sendable, Equatable {
    package var index: Int
    package var error: TokenRefusal
}

extension AdminAPI {
    /// The most users `importUsers` takes at once (`MAX_UPLOAD_ACCOUNT_BATCH_SIZE`).
    package static let maxImportUsers = 1000

    /// Imports up to 1,000 users, as firebase-admin-node's `uploadAccount` does: a user that
    /// fails its checks is counted and left out, the others are sent; hash options are needed
    /// (and checked) only when some user has a password hash.
    package func importUsers(_ users: [AdminImportUser], hash: AdminHashOptions?, tenantId: String? = nil) throws(TokenRefusal) -> AdminImportOutcome {
        var sent: [JSONValue] = [], sentIndex: [Int] = [], failures: [AdminIndexedFailure] = []
        var hashes = false
        for (index, user) in users.enumerated() {
            if let tenantId, let named = user.tenantId, !named.isEmpty, named != tenantId {
                throw AdminErrors.client("MISMATCHING_TENANT_ID", message: "UserRecord of index \"\(index)\" has mismatching tenant ID \"\(TerminalText.safe(String(named.prefix(128))))\"")
            }
            do throws(TokenRefusal) {
                sent.append(try user.uploadFields())
                sentIndex.append(index)
                hashes = hashes || user.passwordHash != nil
            } catch {
                failures.append(AdminIndexedFailure(index: index, error: error))
            }
        }
        var body: [String: JSONValue] = [:]
        if hashes {
            guard let hash else {
                throw AdminErrors.client("INVALID_ARGUMENT", message: "\"UserImportOptions\" are required when importing users with passwords.")
            }
            body = try hash.requestFields()
        }
        guard users.count <= Self.maxImportUsers else {
            throw AdminErrors.client("MAXIMUM_USER_COUNT_EXCEEDED", message: "A maximum of \(Self.maxImportUsers) users can be imported at once.")
        }
        guard !sent.isEmpty else { return AdminImportOutcome(successCount: 0, failures: failures) }
        body["users"] = .array(sent)
        let answer = try call("POST", "accounts:batchCreate", body: .object(body))
        if case .array(let errors)? = answer["error"] {
            var answered: Set<Int> = []
            for error in errors {
                guard let index = error["index"]?.integerValue.map(Int.init), sentIndex.indices.contains(index), answered.insert(index).inserted else {
                    throw AdminErrors.client("INTERNAL_ERROR", message: "accounts:batchCreate answered an error of no user in the batch.")
                }
                let words = error["message"]?.stringValue.map { TerminalText.safe(String($0.prefix(300))) }
                failures.append(AdminIndexedFailure(index: sentIndex[index], error: AdminErrors.client("INVALID_USER_IMPORT", message: words)))
            }
        }
        failures.sort { $0.index < $1.index }
        return AdminImportOutcome(successCount: users.count - failures.count, failures: failures)
    }
}
