/// How messages name a provider: "this Yahoo account".
internal enum ProviderNames {
    internal static func name(of providerId: String) -> String {
        switch providerId {
        case "yahoo.com": "Yahoo"
        case "microsoft.com": "Microsoft"
        case "twitter.com": "Twitter"
        case "google.com": "Google"
        case "github.com": "GitHub"
        case "facebook.com": "Facebook"
        case "apple.com": "Apple"
        case "password": "email/password"
        case "emailLink": "email-link"
        default: providerId
        }
    }
}

extension FBAuthError {
    /// Linking errors in the provider's words: "this Yahoo account is already linked to another
    /// Firebase user". Both arrive as HTTP-200 `errorMessage` answers.
    internal func explainingLink(of providerId: String) -> FBAuthError {
        let name = ProviderNames.name(of: providerId)
        if case .credentialInUse(let conflict) = self {
            return .credentialInUse(conflict.rewording("linking failed: this \(name) account is already linked to another Firebase user [FEDERATED_USER_ID_ALREADY_LINKED]"))
        }
        guard case .server(let error, _) = self else { return self }
        switch error.code {
        case "FEDERATED_USER_ID_ALREADY_LINKED":
            return .failed(.credentialAlreadyInUse, "linking failed: this \(name) account is already linked to another Firebase user [FEDERATED_USER_ID_ALREADY_LINKED]")
        case "EMAIL_EXISTS":
            return .failed(.credentialAlreadyInUse, "linking failed: the email of this \(name) account already belongs to another Firebase user [EMAIL_EXISTS]")
        default:
            return self
        }
    }
}
