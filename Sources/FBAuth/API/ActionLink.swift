/// A link from one of Firebase's emails, as the SDK's `ActionCodeURL`: what it does and its
/// one-time code. A link wrapped by Dynamic Links or an iOS deep link is unwrapped first.
package struct ActionLink: Sendable, Equatable {
    package let operation: ActionLinkOperation
    /// The one-time code (`oobCode`): a secret until it is used.
    package let code: String
    /// The API key of the project that sent it.
    package let apiKey: String
    package let continueURL: String?
    package let tenantID: String?

    /// `ActionLink(link:)`: nil when `link` is not a link from a Firebase email.
    package init?(link: String) {
        guard let parsed = try? Self.reading(link) else { return nil }
        self = parsed
    }

    /// The same, saying why not: a usage error ("it is not a link from a Firebase email …", or
    /// "that is not a link Firebase can use: its code is malformed").
    package static func reading(_ text: String) throws(FBAuthError) -> ActionLink {
        switch EmailActionLink.parse(text) {
        case .success(let link): return ActionLink(link)
        case .failure(let problem): throw .usage("\(problem == .notALink ? "" : "that is not a link Firebase can use: ")\(problem.reason)")
        }
    }

    init(_ link: EmailActionLink) {
        self.init(operation: link.operation, code: link.code, apiKey: link.apiKey, continueURL: link.continueUrl, tenantID: link.tenantId)
    }

    private init(operation: ActionLinkOperation, code: String, apiKey: String, continueURL: String?, tenantID: String?) {
        self.operation = operation
        self.code = code
        self.apiKey = apiKey
        self.continueURL = continueURL
        self.tenantID = tenantID
    }
}

extension EmailActionLink {
    init(_ url: ActionLink) {
        self.init(operation: url.operation, code: url.code, apiKey: url.apiKey, continueUrl: url.continueURL, tenantId: url.tenantID)
    }
}
