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
        if let restriction = APIKeyRestriction.sentence(for: error) {
            return "\(action) failed: \(restriction)"
        }
        guard let code = error.code, let entry = ServerErrorTable.entry(for: code) else {
            return "\(action) failed: \(error.message)"
        }
        let detail = (code == "BLOCKING_FUNCTION_ERROR_RESPONSE" ? error.blockingFunctionMessage : error.detail).map { " (\($0))" } ?? ""
        return "\(action) failed: \(entry.sentence) [\(code)]\(detail)"
    }
}

/// Refusals that come from the API key's restrictions (Google Cloud console → APIs & Services →
/// Credentials), each with the option that satisfies it.
enum APIKeyRestriction {
    static func sentence(for error: ServerError) -> String? {
        let said = error.message.isEmpty ? "" : " (\(error.message))"
        if error.reasons.contains("API_KEY_IOS_APP_BLOCKED") {
            return "the API key is restricted to an iOS app\(said): pass --ios-bundle-id BUNDLE_ID, or --app-config with the app's GoogleService-Info.plist"
        }
        if error.reasons.contains("API_KEY_ANDROID_APP_BLOCKED") {
            return "the API key is restricted to an Android app\(said): pass --android-package NAME --android-cert SHA1, or --app-config with the app's google-services.json"
        }
        if error.reasons.contains("API_KEY_HTTP_REFERRER_BLOCKED") {
            return "the API key is restricted to web sites\(said): pass --referer with an allowed address, usually https://PROJECT.firebaseapp.com/"
        }
        if error.reasons.contains("API_KEY_SERVICE_BLOCKED") {
            return "the API key may not call this API\(said): allow the Identity Toolkit API and the Token Service API in its API restrictions"
        }
        if error.reasons.contains("API_KEY_INVALID") || error.reasons.contains(where: { $0.hasPrefix("keyInvalid") })
            || error.message.hasPrefix("API key not valid")
        {
            return "the API key is not valid (Firebase console → Project settings → General → Web API key)"
        }
        return nil
    }
}
