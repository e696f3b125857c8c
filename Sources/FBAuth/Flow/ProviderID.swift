import FBAuthSupport
/// Firebase provider ids: `yahoo.com`, `oidc.name`, `saml.name`, …
package enum ProviderID {
    package static let wellKnown = ["yahoo.com", "microsoft.com", "twitter.com", "google.com", "github.com", "facebook.com", "apple.com"]

    package static func validate(_ text: String, option: String = "provider") throws(FBAuthError) -> String {
        let allowed = text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
        guard !text.isEmpty, text.count <= 128, allowed, text.contains("."), !text.hasPrefix("."), !text.hasSuffix(".") else {
            let guess = wellKnown.first { $0.hasPrefix(text.lowercased() + ".") } ?? Suggestions.closest(to: text, among: wellKnown)
            throw .usage("--\(option) '\(text)' is not a provider id (like yahoo.com, microsoft.com, twitter.com, oidc.NAME)"
                + (guess.map { "; did you mean '\($0)'?" } ?? ""))
        }
        return text
    }
}
