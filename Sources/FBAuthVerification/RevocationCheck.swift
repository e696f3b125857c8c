#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthHTTP
import FBAuthSupport

/// firebase-admin's `verifyDecodedJWTNotRevokedOrDisabled` (firebase-admin-node
/// `src/auth/base-auth.ts`): the token's user is looked up with the Admin API
/// (`projects/P/accounts:lookup`); a disabled user is refused, and so is a token whose
/// `auth_time` is before the user's `validSince` (when their tokens were revoked). A tenant's
/// user is looked up in the token's tenant (`firebase.tenant`, which Google signed), where
/// firebase-admin's project-wide `AuthService` would not find them.
package struct RevocationCheck: Sendable {
    let kind: FirebaseTokenKind
    let projectId: String
    /// `https://identitytoolkit.googleapis.com`, or `http://HOST/identitytoolkit.googleapis.com`
    /// for an emulator.
    let endpoint: String
    let accessTokens: AdminAccessTokens
    let transport: HTTPTransport

    func check(_ token: VerifiedFirebaseToken) throws(TokenRefusal) {
        let user = try lookUp(token.uid, tenant: token.claims["firebase"]?["tenant"]?.stringValue)
        if user["disabled"] == .bool(true) {
            throw TokenRefusal("The user record is disabled.", code: "auth/user-disabled")
        }
        // validSince: seconds, as a decimal string (GoogleCloudIdentitytoolkitV1UserInfo).
        if let validSince = user["validSince"]?.stringValue.flatMap({ Int64($0) }), let authTime = token.claims["auth_time"]?.integer, authTime < validSince {
            throw TokenRefusal("The \(kind.jwtName) has been revoked.", code: kind.revokedCode)
        }
    }

    /// The user's record; `auth/user-not-found` when there is none.
    private func lookUp(_ uid: String, tenant: String?) throws(TokenRefusal) -> JSONValue {
        // The project goes into the URL's path: letters, digits and - . : only (Google's
        // project ids, domain-scoped ones included).
        guard Self.isProjectID(projectId) else {
            throw TokenRefusal("\"\(projectId.prefix(100))\" is not a project id the Admin API can be asked about.", code: "app/invalid-credential")
        }
        var path = "/v1/projects/\(projectId)"
        if let tenant {
            guard (1...128).contains(tenant.utf8.count), tenant.utf8.allSatisfy(Self.isIDCharacter) else {
                throw TokenRefusal("The \(kind.jwtName) names a tenant that is not a tenant id.", code: "auth/argument-error")
            }
            path += "/tenants/\(tenant)"
        }
        let url = URL(string: endpoint + path + "/accounts:lookup")!
        let (status, answer) = try accessTokens.post(.object(["localId": .array([.string(uid)])]), to: url, transport: transport,
                                                     headers: ["X-Client-Version": "Swift/Admin/fbauth"])
        guard status == 200 else { throw Self.refusal(status: status, answer: answer) }
        guard case .array(let users)? = answer?["users"], let user = users.first else {
            throw Self.userNotFound
        }
        // The record must be the token's user's: a proxy or server that answered another's
        // would let a revoked user through.
        guard users.count == 1, user["localId"]?.stringValue == uid else {
            throw TokenRefusal("accounts:lookup answered a record that is not the token's user's.", code: "auth/internal-error")
        }
        return user
    }

    /// What goes into an API's path as a project: letters, digits and - . : only (Google's
    /// project ids, domain-scoped ones included), at most 100.
    package static func isProjectID(_ id: String) -> Bool {
        (1...100).contains(id.utf8.count) && id.utf8.allSatisfy { isIDCharacter($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ":") }
    }

    /// A letter, digit or hyphen.
    package static func isIDCharacter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    static let userNotFound = TokenRefusal("There is no user record corresponding to the provided identifier.", code: "auth/user-not-found")

    /// Identity Toolkit's `{"error": {"message": "CODE : detail"}}` as firebase-admin words it.
    static func refusal(status: Int, answer: JSONValue?) -> TokenRefusal {
        // "CODE" or "CODE : detail"; else the status of Google's error model (UNAVAILABLE, …).
        func code(_ text: String?) -> String? {
            let word = String((text ?? "").prefix { $0 != " " && $0 != ":" })
            return !word.isEmpty && word.count <= 64 && word.utf8.allSatisfy({ (0x41...0x5A).contains($0) || $0 == UInt8(ascii: "_") }) ? word : nil
        }
        let code = code(answer?["error"]?["message"]?.stringValue) ?? code(answer?["error"]?["status"]?.stringValue) ?? ""
        switch code {
        case "USER_NOT_FOUND": return userNotFound
        case "INSUFFICIENT_PERMISSION", "PERMISSION_DENIED":
            return TokenRefusal("Credential implementation provided to initializeApp() via the \"credential\" property has insufficient permission to access the requested resource. See https://firebase.google.com/docs/admin/setup for details on how to authenticate this SDK with appropriate permissions.",
                                code: "auth/insufficient-permission")
        case "PROJECT_NOT_FOUND": return TokenRefusal("No Firebase project was found for the provided credential.", code: "auth/project-not-found")
        case "TENANT_NOT_FOUND": return TokenRefusal("There is no tenant corresponding to the provided identifier.", code: "auth/tenant-not-found")
        default:
            let shown = code.isEmpty ? "HTTP \(status)" : "HTTP \(status) \(code)"
            return TokenRefusal("An internal error has occurred while looking the user up (\(shown)).", code: "auth/internal-error")
        }
    }
}
