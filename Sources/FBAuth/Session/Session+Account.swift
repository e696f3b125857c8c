#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Session {
    /// Whether the session still has tokens. A refresh token the server rejected for good is
    /// dropped, and the session is kept only so `accounts` can show who needs to sign in again.
    internal var canRefresh: Bool { !refreshToken.isEmpty }

    /// Drops the tokens after the server rejected them for good.
    mutating func forgetTokens() {
        idToken = ""
        refreshToken = ""
        expirationTime = Date(timeIntervalSince1970: 0)
    }

    /// Takes the user's current state from `accounts:lookup`.
    internal mutating func update(from account: AccountInfo) {
        email = account.email
        emailVerified = account.emailVerified ?? false
        displayName = account.displayName
        photoURL = account.photoUrl
        phoneNumber = account.phoneNumber
        providerData = account.providerUserInfo.compactMap(ProviderProfile.init(info:))
        // Anonymous is how the user was made, not merely a user without providers: a custom
        // token's user has none either. As the JS SDK (`reload.ts`) keeps it: once anonymous,
        // until a provider, an email or a phone number is added; the ID token says how.
        let madeAnonymously = IDTokenClaims.signInProvider(of: idToken).map { $0 == "anonymous" } ?? isAnonymous
        isAnonymous = madeAnonymously && providerData.isEmpty && email == nil && phoneNumber == nil
        enrolledFactors = account.mfaInfo.isEmpty ? nil : account.mfaInfo.map(EnrolledFactor.init)
        if let created = account.createdAt.flatMap(Double.init) {
            creationTime = Date(timeIntervalSince1970: created / 1000)
        }
    }
}

extension ProviderProfile {
    /// A `providerUserInfo` entry; `uid` is the provider's own id (`rawId`).
    init?(info: ProviderUserInfo) {
        guard let providerId = info.providerId else { return nil }
        self.init(providerId: providerId, uid: info.rawId ?? info.federatedId ?? "", email: info.email,
                  displayName: info.displayName, photoURL: info.photoUrl, phoneNumber: info.phoneNumber)
    }

    /// Microsoft's object id (`oid`) for this account: Firebase's id for a personal Microsoft
    /// account is 16 hex digits, which the `oid` pads into a GUID; a directory account's id is
    /// the `oid` itself (Firebase's guides for Microsoft and Yahoo sign-in).
    internal var microsoftObjectID: String? {
        guard providerId == "microsoft.com" else { return nil }
        let hex = uid.lowercased()
        if hex.count == 16, hex.allSatisfy(\.isHexDigit) {
            return "00000000-0000-0000-\(hex.prefix(4))-\(hex.suffix(12))"
        }
        return uid
    }
}
