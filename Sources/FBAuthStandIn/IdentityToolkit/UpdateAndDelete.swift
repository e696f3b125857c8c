#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Backend {
    static let updateFields: Set<String> = ["idToken", "localId", "deleteProvider", "deleteAttribute", "displayName", "photoUrl", "email", "password", "returnSecureToken", "tenantId", "oobCode", "emailVerified", "validSince", "disableUser", "targetProjectId", "provider", "upgradeToFederatedLogin", "phoneNumber", "customAttributes", "linkProviderUserInfo", "mfa", "captchaChallenge", "captchaResponse", "instanceId", "delegatedProjectNumber"]
    static let deleteFields: Set<String> = ["idToken", "localId", "tenantId", "targetProjectId", "delegatedProjectNumber"]

    /// How recent a sign-in must be for sensitive operations (production: five minutes).
    static let recentLoginWindow: TimeInterval = 5 * 60

    /// `accounts:update` with `deleteProvider` (unlink). Providers that are not linked are
    /// ignored; removing `password` removes the email too. No new tokens are issued.
    func update(_ body: JSONBody) throws(APIError) -> [String: Any] {
        guard let idToken = try body.string("idToken") else { throw .badRequest("INVALID_REQ_TYPE : Unsupported request parameters.") }
        var account = try verify(idToken: idToken)
        for providerId in try body.strings("deleteProvider") ?? [] {
            if providerId == "password" {
                account.password = nil
                account.email = nil
                account.emailVerified = false
            } else {
                account.links.removeAll { $0.providerId == providerId }
            }
        }
        if let displayName = try body.string("displayName") { account.displayName = displayName }
        accounts[account.localId] = account
        var answer = userInfo(account)
        answer["kind"] = "identitytoolkit#SetAccountInfoResponse"
        return answer
    }

    /// `projects/P/accounts:update` as the Admin SDK calls it (the emulator's `Bearer owner`):
    /// another user by `localId`, its email verified or the account disabled.
    func adminUpdate(_ body: JSONBody) throws(APIError) -> [String: Any] {
        guard let localId = try body.string("localId"), var account = accounts[localId] else { throw .badRequest("USER_NOT_FOUND") }
        if let verified = try body.bool("emailVerified") { account.emailVerified = verified }
        if let disabled = try body.bool("disableUser") { account.disabled = disabled }
        if let displayName = try body.string("displayName") { account.displayName = displayName }
        accounts[localId] = account
        return ["kind": "identitytoolkit#SetAccountInfoResponse", "localId": localId]
    }

    /// `accounts:delete`. Like production (unlike the official emulator), it requires a sign-in
    /// within the last five minutes: CREDENTIAL_TOO_OLD_LOGIN_AGAIN otherwise.
    func delete(_ body: JSONBody) throws(APIError) -> [String: Any] {
        guard let idToken = try body.string("idToken") else { throw .badRequest("MISSING_ID_TOKEN") }
        let (account, token) = try verifiedToken(idToken)
        guard now().timeIntervalSince(token.authTime) <= Self.recentLoginWindow else {
            throw .badRequest("CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
        }
        accounts[account.localId] = nil
        return ["kind": "identitytoolkit#DeleteAccountResponse"]
    }
}
