import FBAuth
import FBAuthSupport

/// What people type for `--provider`, read as Firebase names providers: ids are lower case
/// (`Yahoo.com` is `yahoo.com`), `email` and `phone` are explained rather than sent, and an id
/// Firebase does not offer is refused before anything is sent — unless it is an `oidc.` or
/// `saml.` provider of the project's own, or `--allow-unknown-provider` is given.
enum ProviderWords {
    /// The identity providers Firebase Authentication offers under a fixed id (Firebase console,
    /// Sign-in method).
    static let known = ProviderID.wellKnown + ["playgames.google.com", "gc.apple.com"]
    /// The ways of signing in that are not identity providers.
    static let methods = ["password", "emailLink", "anonymous", "custom"]

    /// `text` when it has the shape of a provider id, else the library's refusal as an error of
    /// `--provider`.
    static func validated(_ text: String) throws(FBAuthError) -> String {
        do {
            return try ProviderID.validate(text)
        } catch {
            throw .usage("--provider " + error.message)
        }
    }

    static func normalize(_ text: String, allowUnknown: Bool) throws(FBAuthError) -> String {
        let lower = text.lowercased()
        if let method = methods.first(where: { $0.lowercased() == lower }) { return method }
        switch lower {
        case "email", "e-mail", "mail":
            throw .usage("--provider \(text): use --provider password (an email and a password) or --provider emailLink (a sign-in link sent by email)")
        case "phone", "sms", "phone.com":
            throw .usage("--provider \(text): in fbauth a phone number is a second factor, not a way to sign in; sign in first, then add it with `fbauth mfa enroll phone --phone +15555550100`")
        default:
            break
        }
        if known.contains(lower) { return lower }
        for prefix in ["oidc.", "saml."] where lower.hasPrefix(prefix) { return prefix + text.dropFirst(prefix.count) }
        // Without a dot it is no provider id at all: `validated` says so, with a guess.
        guard lower.contains("."), !allowUnknown else { return allowUnknown ? lower : text }
        let guess = Suggestions.closest(to: lower, among: known)
        throw .usage("--provider '\(text)' is not a provider Firebase offers (\(known.joined(separator: ", ")), oidc.NAME, saml.NAME)"
            + (guess.map { "; did you mean '\($0)'?" } ?? "") + "; for another, add --allow-unknown-provider")
    }
}
