#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A person as a fake provider describes them after consent, and the OAuth credential it
/// hands to Firebase. Ids are derived from provider and email, so the same email always
/// comes back as the same provider account.
struct ProviderIdentity {
    var providerId: String
    var rawId: String
    var federatedId: String
    var email: String
    var emailVerified: Bool
    var displayName: String
    var photoUrl: String?
    var screenName: String?
    var firstName: String?
    var lastName: String?
    /// The provider's own profile JSON (Firebase's `rawUserInfo`), kept as JSON.
    var rawUserInfoJSON: [String: JSONValue]
    var accessToken: String
    var idToken: String?
    var tokenSecret: String?
    /// A SAML assertion's attribute statements, which ID tokens carry as
    /// `firebase.sign_in_attributes`, kept as JSON.
    var signInAttributesJSON: [String: JSONValue]? = nil

    init(providerId: String, rawId: String, federatedId: String, email: String, emailVerified: Bool, displayName: String,
         photoUrl: String?, screenName: String?, firstName: String?, lastName: String?, rawUserInfo: [String: Any],
         accessToken: String, idToken: String?, tokenSecret: String?, signInAttributes: [String: Any]? = nil) {
        (self.providerId, self.rawId, self.federatedId, self.email, self.emailVerified) = (providerId, rawId, federatedId, email, emailVerified)
        (self.displayName, self.photoUrl, self.screenName, self.firstName, self.lastName) = (displayName, photoUrl, screenName, firstName, lastName)
        (self.accessToken, self.idToken, self.tokenSecret) = (accessToken, idToken, tokenSecret)
        rawUserInfoJSON = JSONValue.members(rawUserInfo) ?? [:]
        signInAttributesJSON = signInAttributes.flatMap(JSONValue.members)
    }

    var rawUserInfo: [String: Any] {
        get { rawUserInfoJSON.object }
        set { rawUserInfoJSON = JSONValue.members(newValue) ?? [:] }
    }

    var signInAttributes: [String: Any]? {
        get { signInAttributesJSON?.object }
        set { signInAttributesJSON = newValue.flatMap(JSONValue.members) }
    }

    /// Builds the fake identity for `email` at `providerId`. `tenant` is Microsoft's tenant
    /// custom parameter.
    static func make(providerId: String, email: String, tenant: String?, mintToken: () -> String) -> ProviderIdentity {
        let local = email.split(separator: "@").first.map(String.init) ?? email
        let words = local.split(whereSeparator: { !$0.isLetter }).map { $0.prefix(1).uppercased() + $0.dropFirst() }
        let first = words.first ?? "Test"
        let last = words.count > 1 ? words.dropFirst().joined(separator: " ") : "User"
        let name = "\(first) \(last)"
        let digest = StableDigest(providerId + "|" + email.lowercased())
        let accessToken = "fake-\(providerId)-access-" + mintToken()

        switch providerId {
        case "microsoft.com":
            // Personal accounts have a 16-hex-digit id whose oid is it padded into a GUID; with a
            // directory tenant the id is the oid itself (Firebase's guides for Microsoft and Yahoo sign-in).
            let hex = digest.hex(32)
            let oid = "\(hex.prefix(8))-\(hex.dropFirst(8).prefix(4))-\(hex.dropFirst(12).prefix(4))-\(hex.dropFirst(16).prefix(4))-\(hex.dropFirst(20).prefix(12))"
            let isDirectoryTenant = tenant.map { !["common", "consumers", "organizations"].contains($0) } ?? false
            let id = isDirectoryTenant ? oid : String(hex.suffix(16))
            let objectId = isDirectoryTenant ? oid : "00000000-0000-0000-\(id.prefix(4))-\(id.suffix(12))"
            let tenantId = isDirectoryTenant ? tenant! : "9188040d-6c67-4c5b-b112-36a304b66dad"
            return ProviderIdentity(
                providerId: providerId, rawId: id, federatedId: id, email: email, emailVerified: EmailTrust.verifies(email, at: providerId),
                displayName: name, photoUrl: nil, screenName: nil, firstName: first, lastName: last,
                rawUserInfo: [
                    "@odata.context": "https://graph.microsoft.com/v1.0/$metadata#users/$entity",
                    "id": id, "displayName": name, "givenName": first, "surname": last, "mail": email,
                    "userPrincipalName": email, "businessPhones": [String](), "jobTitle": JSONNull(),
                    "mobilePhone": JSONNull(), "officeLocation": JSONNull(), "preferredLanguage": JSONNull(),
                ],
                accessToken: accessToken,
                idToken: UnsignedJWT.make([
                    "iss": "https://login.microsoftonline.com/\(tenantId)/v2.0", "aud": "fake-microsoft.com-client",
                    "sub": digest.base64URL(32), "oid": objectId, "tid": tenantId, "name": name,
                    "preferred_username": email, "email": email,
                ]),
                tokenSecret: nil)
        case "twitter.com":
            let id = digest.decimal(19)
            let handle = String(local.filter { $0.isLetter || $0.isNumber }.prefix(15))
            return ProviderIdentity(
                providerId: providerId, rawId: id, federatedId: "http://twitter.com/\(id)", email: email,
                emailVerified: EmailTrust.verifies(email, at: providerId), displayName: name, photoUrl: "https://pbs.twimg.example/\(id)_normal.png",
                screenName: handle, firstName: nil, lastName: nil,
                rawUserInfo: [
                    "id": Int64(id) ?? 0, "id_str": id, "name": name, "screen_name": handle, "email": email,
                    "profile_image_url_https": "https://pbs.twimg.example/\(id)_normal.png", "verified": false,
                ],
                accessToken: "\(id)-" + mintToken(), idToken: nil, tokenSecret: "fake-twitter-secret-" + mintToken())
        case "github.com":
            let id = digest.decimal(8)
            let login = String(local.filter { $0.isLetter || $0.isNumber || $0 == "-" }.prefix(39))
            return ProviderIdentity(
                providerId: providerId, rawId: id, federatedId: id, email: email, emailVerified: EmailTrust.verifies(email, at: providerId),
                displayName: name, photoUrl: "https://avatars.githubusercontent.example/u/\(id)",
                screenName: login, firstName: nil, lastName: nil,
                rawUserInfo: ["login": login, "id": Int64(id) ?? 0, "name": name, "email": email,
                              "avatar_url": "https://avatars.githubusercontent.example/u/\(id)"],
                accessToken: accessToken, idToken: nil, tokenSecret: nil)
        default:
            // OpenID Connect providers: Yahoo, Google, Apple, oidc.*, and any other id.
            let id = providerId == "yahoo.com" ? digest.base32(26) : digest.decimal(21)
            let federatedId = providerId == "google.com" ? "https://accounts.google.com/\(id)" : id
            let verified = EmailTrust.verifies(email, at: providerId)
            var profile: [String: Any] = [
                "sub": id, "email": email, "email_verified": verified, "name": name,
                "given_name": first, "family_name": last,
            ]
            if providerId == "yahoo.com" {
                profile["nickname"] = local
                profile["locale"] = "en-US"
            }
            return ProviderIdentity(
                providerId: providerId, rawId: id, federatedId: federatedId, email: email,
                emailVerified: verified, displayName: name, photoUrl: nil, screenName: nil,
                firstName: first, lastName: last, rawUserInfo: profile, accessToken: accessToken,
                idToken: UnsignedJWT.make(["iss": "https://\(providerId)", "sub": id, "email": email, "aud": "fake-\(providerId)-client"]),
                tokenSecret: nil)
        }
    }
}

/// Deterministic digits and letters derived from a string (FNV-1a, extended by re-seeding).
struct StableDigest {
    private let bytes: [UInt8]

    init(_ text: String) {
        var output: [UInt8] = []
        var seed: UInt64 = 0xcbf2_9ce4_8422_2325
        while output.count < 64 {
            var hash = seed
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            withUnsafeBytes(of: hash.bigEndian) { output += $0 }
            seed = hash ^ 0x9E37_79B9_7F4A_7C15
        }
        bytes = output
    }

    func hex(_ count: Int) -> String {
        String(bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined().prefix(count))
    }

    func decimal(_ count: Int) -> String {
        let digits = bytes.map { String($0 % 10) }.joined()
        return "1" + digits.prefix(count - 1)
    }

    func base32(_ count: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        return String(bytes.prefix(count).map { alphabet[Int($0) % 32] })
    }

    func base64URL(_ count: Int) -> String {
        String(Base64URL.encode(Data(bytes)).prefix(count))
    }
}
