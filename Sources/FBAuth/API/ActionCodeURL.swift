/// A link from one of Firebase's emails, as the SDK's `ActionCodeURL`: what it does and its
/// one-time code. A link wrapped by Dynamic Links or an iOS deep link is unwrapped first.
public struct ActionCodeURL: Sendable, Equatable {
    public let operation: ActionCodeOperation
    /// The one-time code (`oobCode`): a secret until it is used.
    public let code: String
    /// The API key of the project that sent it.
    public let apiKey: String
    public let continueURL: String?
    public let tenantID: String?

    /// `ActionCodeURL(link:)`: nil when `link` is not a link from a Firebase email.
    public init?(link: String) {
        guard let parsed = try? Self.reading(link) else { return nil }
        self = parsed
    }

    /// The same, saying why not: a usage error ("it is not a link from a Firebase email …", or
    /// "that is not a link Firebase can use: its code is malformed").
    public static func reading(_ text: String) throws(FBAuthError) -> ActionCodeURL {
        switch EmailActionLink.parse(text) {
        case .success(let link): return ActionCodeURL(link)
        case .failure(let problem): throw .usage("\(problem == .notALink ? "" : "that is not a link Firebase can use: ")\(problem.reason)")
        }
    }

    init(_ link: EmailActionLink) {
        self.init(operation: link.operation, code: link.code, apiKey: link.apiKey, continueURL: link.continueUrl, tenantID: link.tenantId)
    }

    private init(operation: ActionCodeOperation, code: String, apiKey: String, continueURL: String?, tenantID: String?) {
        self.operation = operation
        self.code = code
        self.apiKey = apiKey
        self.continueURL = continueURL
        self.tenantID = tenantID
    }
}

extension EmailActionLink {
    init(_ url: ActionCodeURL) {
        self.init(operation: url.operation, code: url.code, apiKey: url.apiKey, continueUrl: url.continueURL, tenantId: url.tenantID)
    }
}
