#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport

extension Backend {
    static let lookupFields: Set<String> = ["idToken", "localId", "email", "phoneNumber", "federatedUserId", "tenantId", "targetProjectId", "delegatedProjectNumber", "initialEmail"]

    /// `accounts:lookup` with the caller's ID token.
    func lookup(_ body: JSONBody) throws(APIError) -> [String: Any] {
        guard let idToken = try body.string("idToken") else { throw .badRequest("MISSING_ID_TOKEN") }
        let account = try verify(idToken: idToken)
        return ["kind": "identitytoolkit#GetAccountInfoResponse", "users": [userInfo(account)]]
    }

    /// A user as Identity Toolkit describes it (`GoogleCloudIdentitytoolkitV1UserInfo`).
    /// `administrator`: the Admin API's answer, which, as Google's emulator answers it, carries
    /// the password's (fake) hash and salt, as production's does to a Firebase Auth Admin.
    func userInfo(_ account: Account, administrator: Bool = false) -> [String: Any] {
        var providers: [[String: Any]] = account.links.map(\.info)
        // An email link's user has the `password` provider too, with no password (Google's
        // emulator, firebase-tools `state.ts`, as production lists it).
        // Its name and photo are the user's (firebase-tools `state.ts`).
        if account.hasPassword || account.emailLinkSignIn, let email = account.email {
            var password: [String: Any] = ["providerId": "password", "rawId": email, "federatedId": email, "email": email]
            password["displayName"] = account.displayName
            password["photoUrl"] = account.photoUrl
            providers.insert(password, at: 0)
        }
        var user: [String: Any] = [
            "localId": account.localId,
            "emailVerified": account.emailVerified,
            "providerUserInfo": providers,
            "validSince": String(Int(account.validSince.timeIntervalSince1970)),
            "createdAt": Self.milliseconds(account.createdAt),
            "lastLoginAt": Self.milliseconds(account.lastLoginAt),
        ]
        // When a token was last minted; a user who never signed in has none.
        user["lastRefreshAt"] = account.lastRefreshAt.map { $0.formatted(.iso8601) }
        if !account.mfaEnrollments.isEmpty || (configuration.profile.has(.emptyMfaInfoAfterWithdrawal) && account.withdrewLastSecondFactor) {
            user["mfaInfo"] = account.mfaEnrollments.map { enrollment in
                var info = enrollment.info(masked: false)
                // Google's emulator also gives the number under the name its export uses.
                if configuration.profile.has(.emptyMfaInfoAfterWithdrawal), case .phone(let number) = enrollment.kind { info["unobfuscatedPhoneInfo"] = number }
                return info
            }
        }
        user["email"] = account.email
        user["displayName"] = account.displayName
        user["photoUrl"] = account.photoUrl
        user["screenName"] = account.screenName
        if !account.passkeys.isEmpty { user["passkeyInfo"] = account.passkeys.map { ["credentialId": $0.credentialId, "name": $0.name] } }
        user["phoneNumber"] = account.phoneNumber
        user["tenantId"] = account.tenantId
        user["initialEmail"] = account.initialEmail
        if account.disabled { user["disabled"] = true }
        if account.emailLinkSignIn { user["emailLinkSignin"] = true }
        if !account.customClaims.isEmpty { user["customAttributes"] = String(decoding: JSONText.data(account.customClaims), as: UTF8.self) }
        if let password = account.password {
            user["passwordHash"] = "UkVEQUNURUQ="  // production redacts it the same way
            user["passwordUpdatedAt"] = (account.passwordUpdatedAt ?? account.createdAt).timeIntervalSince1970 * 1000
            // Google's emulator's own hash (firebase-tools state.ts): the password in clear,
            // behind a salt made when it was set (here: from the user and that time).
            if administrator, configuration.profile.has(.fakePasswordHashes) {
                let setAt = (account.passwordUpdatedAt ?? account.createdAt).timeIntervalSince1970
                let salt = "fakeSalt" + SHA256.hex("\(account.localId)|\(setAt)").prefix(20)
                user["salt"] = salt
                user["passwordHash"] = "fakeHash:salt=\(salt):password=\(password)"
            }
        }
        // An imported hash is echoed as long as it is still the user's password.
        if let hash = account.importedPasswordHash, account.password == nil || account.password == Self.fakeHashPassword(hash) {
            user["passwordHash"] = hash
            user["salt"] = account.importedSalt
        }
        return user
    }

    /// What `accounts:update` answers (`SetAccountInfoResponse`): the user's profile and
    /// providers, not its times or claims (firebase-tools `setAccountInfoImpl`, production alike).
    func setAccountInfoAnswer(_ account: Account, administrator: Bool = false) -> [String: Any] {
        let user = userInfo(account, administrator: administrator)
        var answer = user.filter { Self.setAccountInfoFields.contains($0.key) }
        answer["kind"] = "identitytoolkit#SetAccountInfoResponse"
        return answer
    }

    private static let setAccountInfoFields: Set<String> = ["localId", "emailVerified", "providerUserInfo", "email", "displayName", "photoUrl",
                                                              "passwordHash", "mfaInfo", "tenantId"]
}
