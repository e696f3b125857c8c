import FBAuthSupport
/// Firebase provider ids: `yahoo.com`, `oidc.name`, `saml.name`, … (the Apple SDK's
/// `AuthProviderID` names the fixed ones).
package enum ProviderID {
    /// The OAuth providers whose ids are fixed and most used.
    package static let wellKnown = ["yahoo.com", "microsoft.com", "twitter.com", "google.com", "github.com", "facebook.com", "apple.com"]

    /// `text` when it has the shape of a provider id (letters, digits, `._-`, a dot inside, at
    /// most 128 characters); otherwise `invalidArgument`, with a guess at the one meant.
    package static func validate(_ text: String) throws(FBAuthError) -> String {
        let allowed = text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
        guard !text.isEmpty, text.count <= 128, allowed, text.contains("."), !text.hasPrefix("."), !text.hasSuffix(".") else {
            let guess = wellKnown.first { $0.hasPrefix(text.lowercased() + ".") } ?? Suggestions.closest(to: text, among: wellKnown)
            throw .usage("'\(text)' is not a provider id (like yahoo.com, microsoft.com, twitter.com, oidc.NAME)"
                + (guess.map { "; did you mean '\($0)'?" } ?? ""))
        }
        return text
    }
}
