#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthHTTP
import FBAuthVerification

/// What firebase-admin-node checks before it sends anything (`utils/validator.ts` and
/// `auth-api-request.ts`), with its codes and words: a request that would be refused is
/// refused here, and makes no request.
package enum AdminChecks {
    /// 1 to 128 UTF-16 units (JavaScript's `length`, as `validator.isUid` counts).
    package static func uid(_ uid: String) throws(TokenRefusal) {
        guard (1...128).contains(uid.utf16.count) else { throw AdminErrors.client("INVALID_UID") }
    }

    /// Something before an `@` and something after, and no second `@` (`validator.isEmail`).
    package static func email(_ email: String, key: String = "INVALID_EMAIL") throws(TokenRefusal) {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { throw AdminErrors.client(key) }
    }

    /// A `+` first and a letter or digit somewhere (`validator.isPhoneNumber`: the backend
    /// enforces E.164 and normalizes).
    package static func phoneNumber(_ number: String) throws(TokenRefusal) {
        guard number.hasPrefix("+"), number.unicodeScalars.contains(where: { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }) else {
            throw AdminErrors.client("INVALID_PHONE_NUMBER")
        }
    }

    /// At least 6 UTF-16 units.
    package static func password(_ password: String) throws(TokenRefusal) {
        guard password.utf16.count >= 6 else { throw AdminErrors.client("INVALID_PASSWORD") }
    }

    /// An http or https URL of the characters `validator.isURL` allows.
    package static func photoURL(_ url: String) throws(TokenRefusal) {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:/?#[]@!$&'()*+,;=.-_~%".unicodeScalars)
        guard url.unicodeScalars.allSatisfy(allowed.contains), let parsed = URLComponents(string: url),
              ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), !(parsed.host ?? "").isEmpty
        else { throw AdminErrors.client("INVALID_PHOTO_URL") }
    }

    /// A tenant id as Identity Platform makes them: letters, digits and hyphens.
    package static func isTenantID(_ id: String) -> Bool {
        (1...128).contains(id.utf8.count) && id.utf8.allSatisfy { RevocationCheck.isIDCharacter($0) }
    }

    /// The claims reserved for Firebase, in firebase-admin-node's order (`RESERVED_CLAIMS`).
    package static let reservedClaims = ["acr", "amr", "at_hash", "aud", "auth_time", "azp", "cnf", "c_hash", "exp", "iat",
                                         "iss", "jti", "nbf", "nonce", "sub", "firebase"]

    /// Custom claims as `setCustomUserClaims` takes them: none of the reserved names, and at
    /// most 1,000 characters once serialized (`MAX_CLAIMS_PAYLOAD_SIZE`). The serialized JSON.
    package static func customClaims(_ claims: [String: JSONValue]) throws(TokenRefusal) -> String {
        let reserved = reservedClaims.filter { claims[$0] != nil }
        if reserved.count == 1 {
            throw AdminErrors.client("FORBIDDEN_CLAIM", message: "Developer claim \"\(reserved[0])\" is reserved and cannot be specified.")
        } else if !reserved.isEmpty {
            throw AdminErrors.client("FORBIDDEN_CLAIM", message: "Developer claims \"\(reserved.joined(separator: "\", \""))\" are reserved and cannot be specified.")
        }
        let text = JSONValue.object(claims).compactText
        guard text.utf16.count <= 1000 else {
            throw AdminErrors.client("CLAIMS_TOO_LARGE", message: "Developer claims payload should not exceed 1000 characters.")
        }
        return text
    }
}
