/// Every failure fbauth reports. Each case knows its one-line message and exit code, so the
/// mapping from error to what the user sees exists once (`report`).
public enum FBAuthError: Error, Sendable {
    /// Bad command-line input: exit 2, before any network call.
    case usage(String)
    /// The server answered with an error; `action` says what was being done ("sign-in").
    case server(ServerError, action: String)
    /// No answer: connection refused, DNS, TLS, timeout.
    case network(host: String, reason: String)
    /// An answer that is not the JSON Firebase sends (empty, wrong type, malformed).
    case badResponse(host: String, reason: String)
    /// No usable session: exit 3.
    case signInAgain(String)
    /// The browser flow did not complete: exit 4.
    case flowIncomplete(String)
    /// `needConfirmation`: an account exists with another credential; exit 5.
    case accountExists(String)
    /// The session store cannot be read or written: exit 7.
    case store(String)
    /// Anything else that the user can act on: exit 1.
    case failed(String)

    public var exitCode: ExitCode {
        switch self {
        case .usage: .usage
        case .server(let error, _):
            if error.isTransient { .network }
            else { error.code.flatMap(ServerErrorTable.entry(for:))?.exitCode ?? .failure }
        case .network: .network
        case .badResponse, .failed: .failure
        case .signInAgain: .signInAgain
        case .flowIncomplete: .flowIncomplete
        case .accountExists: .accountExists
        case .store: .store
        }
    }

    /// One line for stderr, without the `fbauth:` prefix.
    public var message: String {
        switch self {
        case .usage(let text), .signInAgain(let text), .flowIncomplete(let text),
            .accountExists(let text), .store(let text), .failed(let text):
            return text
        case .network(let host, let reason):
            return "could not reach \(host): \(reason)"
        case .badResponse(let host, let reason):
            return "unexpected answer from \(host): \(reason)"
        case .server(let error, let action):
            return Self.describe(error, action: action)
        }
    }

    private static func describe(_ error: ServerError, action: String) -> String {
        if error.isTransient {
            let what = error.httpStatus == 429 ? "is rate-limiting requests" : "had a server error (HTTP \(error.httpStatus))"
            return "\(action) failed: \(error.host) \(what); try again later" + (error.code.map { " [\($0)]" } ?? "")
        }
        if error.reasons.contains(where: { $0.hasPrefix("keyInvalid") }) || error.message.hasPrefix("API key not valid") {
            return "\(action) failed: the API key is not valid (Firebase console → Project settings → General → Web API key)"
        }
        guard let code = error.code, let entry = ServerErrorTable.entry(for: code) else {
            return "\(action) failed: \(error.message)"
        }
        let detail = error.detail.map { " (\($0))" } ?? ""
        return "\(action) failed: \(entry.sentence) [\(code)]\(detail)"
    }
}
