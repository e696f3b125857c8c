#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthHTTP
import FBAuthVerification

/// A user as the Admin API describes one (`GoogleCloudIdentitytoolkitV1UserInfo`), read as
/// firebase-admin-node's `UserRecord` reads it: every value checked for its type, times from
/// milliseconds (or ISO 8601, for `lastRefreshAt`), claims parsed from `customAttributes`.
package struct AdminUserRecord: Sendable, Equatable {
    package struct Provider: Sendable, Equatable {
        package var uid: String
        package var providerId: String
        package var displayName: String?
        package var email: String?
        package var photoURL: String?
        package var phoneNumber: String?

        package init(uid: String, providerId: String, displayName: String? = nil, email: String? = nil, photoURL: String? = nil, phoneNumber: String? = nil) {
            (self.uid, self.providerId, self.displayName, self.email, self.photoURL, self.phoneNumber) = (uid, providerId, displayName, email, photoURL, phoneNumber)
        }
    }

    package struct SecondFactor: Sendable, Equatable {
        package var uid: String
        package var factorId: String
        package var displayName: String?
        package var enrollmentTime: Date?
        package var phoneNumber: String?
    }

    package var uid: String
    package var email: String?
    package var emailVerified = false
    package var displayName: String?
    package var photoURL: String?
    package var phoneNumber: String?
    package var disabled = false
    package var creationTime: Date?
    package var lastSignInTime: Date?
    package var lastRefreshTime: Date?
    package var providerData: [Provider] = []
    package var passwordHash: String?
    package var passwordSalt: String?
    package var customClaims: [String: JSONValue]?
    package var tenantId: String?
    package var tokensValidAfterTime: Date?
    package var secondFactors: [SecondFactor] = []

    /// The record of `user`; `auth/internal-error` when it names no user.
    package init(_ user: JSONValue) throws(TokenRefusal) {
        guard let uid = user["localId"]?.stringValue, !uid.isEmpty else {
            throw AdminErrors.client("INTERNAL_ERROR", message: "INTERNAL ASSERT FAILED: Invalid user response")
        }
        self.uid = uid
        email = user["email"]?.stringValue
        emailVerified = user["emailVerified"] == .bool(true)
        displayName = user["displayName"]?.stringValue
        photoURL = user["photoUrl"]?.stringValue
        phoneNumber = user["phoneNumber"]?.stringValue
        disabled = user["disabled"] == .bool(true)
        creationTime = Self.milliseconds(user["createdAt"])
        lastSignInTime = Self.milliseconds(user["lastLoginAt"])
        lastRefreshTime = user["lastRefreshAt"]?.stringValue.flatMap(Self.isoDate)
        if case .array(let entries)? = user["providerUserInfo"] {
            providerData = entries.compactMap { entry in
                guard let id = entry["providerId"]?.stringValue else { return nil }
                return Provider(uid: entry["rawId"]?.stringValue ?? "", providerId: id, displayName: entry["displayName"]?.stringValue,
                                email: entry["email"]?.stringValue, photoURL: entry["photoUrl"]?.stringValue, phoneNumber: entry["phoneNumber"]?.stringValue)
            }
        }
        // A hash the caller may not see comes back as "REDACTED" in base64; firebase-admin clears it.
        let hash = user["passwordHash"]?.stringValue
        passwordHash = hash == "UkVEQUNURUQ=" ? nil : hash
        passwordSalt = user["salt"]?.stringValue
        if let attributes = user["customAttributes"]?.stringValue, case .object(let claims)? = JSONValue.decoded(Data(attributes.utf8)) {
            customClaims = claims
        }
        tenantId = user["tenantId"]?.stringValue
        if let since = user["validSince"]?.stringValue.flatMap({ Int64($0) }) { tokensValidAfterTime = Date(timeIntervalSince1970: TimeInterval(since)) }
        if case .array(let factors)? = user["mfaInfo"] {
            secondFactors = factors.compactMap { factor in
                guard let id = factor["mfaEnrollmentId"]?.stringValue else { return nil }
                let phone = factor["phoneInfo"]?.stringValue
                return SecondFactor(uid: id, factorId: phone != nil ? "phone" : factor["totpInfo"] != nil ? "totp" : "unknown",
                                    displayName: factor["displayName"]?.stringValue, enrollmentTime: factor["enrolledAt"]?.stringValue.flatMap(Self.isoDate),
                                    phoneNumber: phone)
            }
        }
    }

    /// `createdAt`/`lastLoginAt`: milliseconds since 1970 as a decimal string (or a number).
    private static func milliseconds(_ value: JSONValue?) -> Date? {
        let milliseconds: Double? = switch value {
        case .string(let text)?: Double(text)
        case .integer(let number)?: Double(number)
        case .number(let number)?: number
        default: nil
        }
        return milliseconds.map { Date(timeIntervalSince1970: $0 / 1000) }
    }

    private static func isoDate(_ text: String) -> Date? {
        (try? Date(text, strategy: .iso8601)) ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }
}
