/// Whether a provider vouches for an address, as Firebase counts it ("Verified email
/// addresses", firebase.google.com/docs/auth/users): Apple always; Google, Yahoo and Microsoft
/// for the addresses they host; Facebook, Twitter and GitHub never; another OpenID provider by
/// its `email_verified` claim, which the fake ones assert. It decides whether a provider's
/// sign-in takes over an account with the same unverified address, or answers "account exists
/// with different credential" (docs/accounts.md).
package enum EmailTrust {
    static func verifies(_ email: String, at providerId: String) -> Bool {
        let domain = email.split(separator: "@").last.map { $0.lowercased() } ?? ""
        switch providerId {
        case "apple.com": return true
        case "google.com": return ["gmail.com", "googlemail.com"].contains(domain)
        case "yahoo.com": return domain == "yahoo.com" || domain.hasPrefix("yahoo.") || domain == "ymail.com"
        case "microsoft.com": return ["outlook.com", "hotmail.com", "live.com"].contains(domain)
        case "facebook.com", "twitter.com", "github.com": return false
        default: return true
        }
    }

    /// The domain of the addresses a provider hosts and vouches for, if it hosts any.
    package static func homeDomain(of providerId: String) -> String? {
        ["google.com": "gmail.com", "yahoo.com": "yahoo.com", "microsoft.com": "outlook.com"][providerId]
    }
}
