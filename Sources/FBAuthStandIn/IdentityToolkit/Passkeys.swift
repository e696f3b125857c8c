#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Passkeys (WebAuthn) as Google's Auth emulator serves them (firebase-tools
// src/emulator/auth/operations.ts, passkeyEnrollment and passkeySignIn): the options a browser
// needs, and a credential taken by its id, with no attestation or signature checked. Served by
// `fbauth emulator` only; production checks what the authenticator signed, which no fake can.
extension Backend {
    static let passkeyEnrollmentStartFields: Set<String> = ["idToken", "tenantId"]
    static let passkeyEnrollmentFinalizeFields: Set<String> = ["idToken", "tenantId", "authenticatorRegistrationResponse", "name", "displayName"]
    static let passkeySignInStartFields: Set<String> = ["tenantId"]
    static let passkeySignInFinalizeFields: Set<String> = ["tenantId", "authenticatorAuthenticationResponse", "name", "displayName"]

    /// `v2/accounts/passkeyEnrollment:start`: what `navigator.credentials.create` needs.
    func passkeyEnrollmentStart(_ body: JSONBody) throws(APIError) -> [String: Any] {
        guard let idToken = try body.string("idToken") else { throw .badRequest("MISSING_ID_TOKEN") }
        let account = try verify(idToken: idToken)
        return ["credentialCreationOptions": [
            "rp": ["name": "localhost", "id": "localhost"],
            "user": ["id": Data(account.localId.utf8).base64EncodedString(), "name": account.email ?? "user@example.com",
                     "displayName": account.displayName ?? "User"],
            "challenge": Data(RandomToken.make(bytes: 24).utf8).base64EncodedString(),
            "pubKeyCredParams": [["type": "public-key", "alg": -7], ["type": "public-key", "alg": -257]],
            "timeout": 60000, "attestation": "none",
        ] as [String: Any]]
    }

    /// `v2/accounts/passkeyEnrollment:finalize`: the credential added to the user, and new tokens.
    func passkeyEnrollmentFinalize(_ body: JSONBody) throws(APIError) -> [String: Any] {
        guard let idToken = try body.string("idToken") else { throw .badRequest("MISSING_ID_TOKEN") }
        guard let response = try body.object("authenticatorRegistrationResponse") else { throw .badRequest("MISSING_AUTHENTICATOR_RESPONSE") }
        var account = try verify(idToken: idToken)
        guard let credentialId = try response.string("id"), !credentialId.isEmpty else { throw .badRequest("INVALID_CREDENTIAL_ID") }
        guard self.account(withPasskey: credentialId, tenantId: account.tenantId) == nil else { throw .badRequest("CREDENTIAL_ALREADY_IN_USE") }
        let name = [try body.string("name"), try body.string("displayName")].compactMap { $0 }.first { !$0.isEmpty }
        account.passkeys.append(Passkey(credentialId: credentialId, name: name ?? "Unnamed Passkey"))
        accounts[account.key] = account
        let tokens = issueTokens(for: account, signInProvider: "passkey")
        return ["localId": account.localId, "idToken": tokens["idToken"]!, "refreshToken": tokens["refreshToken"]!]
    }

    /// `v2/accounts/passkeySignIn:start`: what `navigator.credentials.get` needs.
    func passkeySignInStart() -> [String: Any] {
        ["credentialRequestOptions": ["challenge": Data(RandomToken.make(bytes: 24).utf8).base64EncodedString(), "rpId": "localhost",
                                      "userVerification": "required"]]
    }

    /// `v2/accounts/passkeySignIn:finalize`: the credential's user, signed in.
    func passkeySignInFinalize(_ body: JSONBody) throws(APIError) -> [String: Any] {
        guard let response = try body.object("authenticatorAuthenticationResponse") else { throw .badRequest("MISSING_AUTHENTICATOR_RESPONSE") }
        guard let credentialId = try response.string("id"), !credentialId.isEmpty else { throw .badRequest("INVALID_CREDENTIAL_ID") }
        guard var account = account(withPasskey: credentialId, tenantId: try body.string("tenantId")) else {
            throw .badRequest("PASSKEY_CREDENTIAL_NOT_FOUND")
        }
        guard !account.disabled else { throw .badRequest("USER_DISABLED") }
        account.lastLoginAt = now()
        accounts[account.key] = account
        let tokens = issueTokens(for: account, signInProvider: "passkey")
        return ["idToken": tokens["idToken"]!, "refreshToken": tokens["refreshToken"]!]
    }

    private func account(withPasskey credentialId: String, tenantId: String?) -> Account? {
        accounts.values.first { $0.tenantId == tenantId && $0.passkeys.contains { $0.credentialId == credentialId } }
    }
}

/// A passkey a user enrolled: the authenticator's credential id and the name it was given.
struct Passkey: Equatable {
    var credentialId: String
    var name: String
}
