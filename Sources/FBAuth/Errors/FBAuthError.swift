import FBAuthSupport

/// Every failure the library reports: a code (`FBAuthErrorCode`, what a program decides on) and
/// a one-line message for people (`message`). The cases say where the failure came from.
package enum FBAuthError: Error, Sendable {
    /// A value given to the library (or to fbauth's command line) is not acceptable.
    case usage(String, remedy: Remedy? = nil)
    /// The server answered with an error; `action` says what was being done ("sign-in").
    case server(ServerError, action: String)
    /// No answer: connection refused, DNS, TLS, timeout.
    case network(host: String, reason: String)
    /// An answer that is not the JSON Firebase sends (empty, wrong type, malformed).
    case badResponse(host: String, reason: String)
    /// No usable session: not signed in, or its tokens are no longer accepted.
    case signInAgain(String, remedy: Remedy? = nil)
    /// The browser flow did not complete (denied, closed, timed out, cancelled).
    case flowIncomplete(String, remedy: Remedy? = nil)
    /// `needConfirmation`: an account exists with another credential; carries the email and the
    /// provider's credential.
    case accountExists(AccountExistsConflict)
    /// The provider account is another Firebase user's already (`FEDERATED_USER_ID_ALREADY_LINKED`):
    /// its email and the provider's credential, which signs in to that user, as the SDK's
    /// `credentialAlreadyInUse` error carries them.
    case credentialInUse(AccountExistsConflict)
    /// The session store cannot be read or written.
    case store(String, remedy: Remedy? = nil)
    /// Anything else, with its code.
    case failed(FBAuthErrorCode, String, remedy: Remedy? = nil)
    /// The first factor was right and the account needs a second one: the SDK's error with its
    /// `PendingSecondFactor`, which finishes the sign-in.
    case secondFactorRequired(PendingSecondFactor)

    package var code: FBAuthErrorCode {
        switch self {
        case .usage: .invalidArgument
        case .server(let error, _):
            error.isTransient ? .networkError
                : AppCheckRejection.isRejection(error) ? .appCheckTokenInvalid : error.code.flatMap(FBAuthErrorCode.forServerCode) ?? .serverRefused
        case .network: .networkError
        case .badResponse: .invalidResponse
        case .signInAgain: .noCurrentUser
        case .flowIncomplete: .webContextCancelled
        case .accountExists: .accountExistsWithDifferentCredential
        case .credentialInUse: .credentialAlreadyInUse
        case .store: .keychainError
        case .failed(let code, _, _): code
        case .secondFactorRequired: .secondFactorRequired
        }
    }

    /// What the user can do about it, where the library knows.
    package var remedy: Remedy? {
        switch self {
        case .usage(_, let remedy), .signInAgain(_, let remedy), .flowIncomplete(_, let remedy), .store(_, let remedy), .failed(_, _, let remedy): remedy
        case .server, .network, .badResponse, .accountExists, .credentialInUse, .secondFactorRequired: nil
        }
    }

    /// One line for stderr, without the `fbauth:` prefix.
    package var message: String {
        switch self {
        case .usage(let text, _), .signInAgain(let text, _), .flowIncomplete(let text, _), .store(let text, _), .failed(_, let text, _):
            return text
        case .accountExists(let conflict), .credentialInUse(let conflict):
            return conflict.message
        case .secondFactorRequired:
            return "this account needs a second factor (multi-factor authentication): finish with the error's resolver"
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
        if AppCheckRejection.isRejection(error) {
            // Production answers from *.googleapis.com; anything else is a local emulator,
            // which has no console to register a debug token in.
            guard error.host.hasSuffix(".googleapis.com") else {
                return "\(action) failed: the Auth emulator at \(error.host) enforces App Check and refused this request's App Check token (\(Redaction.serverMessage(error.message))): configure App Check with a debug token the emulator registered"
            }
            return "\(action) failed: the project enforces Firebase App Check and refused this request's App Check token (\(Redaction.serverMessage(error.message))): register a debug token for the app in the Firebase console (App Check → Apps → the app's menu → Manage debug tokens) and configure App Check with it"
        }
        guard let code = error.code, let entry = ServerErrorTable.entry(for: code) else {
            return "\(action) failed: \(Redaction.serverMessage(error.message))"
        }
        let detail = (code == "BLOCKING_FUNCTION_ERROR_RESPONSE" ? error.blockingFunctionMessage : error.detail).map { " (\(Redaction.serverMessage($0)))" } ?? ""
        return "\(action) failed: \(entry.sentence) [\(code)]\(detail)"
    }
}

/// A refusal for App Check: Identity Toolkit and securetoken answer 401 `Firebase App Check
/// token is invalid.` (UNAUTHENTICATED) to a request without a valid `X-Firebase-AppCheck`.
enum AppCheckRejection {
    static func isRejection(_ error: ServerError) -> Bool {
        error.httpStatus == 401 && error.message.contains("App Check")
    }
}

/// Refusals that come from the API key's restrictions (Google Cloud console → APIs & Services →
/// Credentials), each with the option that satisfies it.
enum APIKeyRestriction {
    static func sentence(for error: ServerError) -> String? {
        let said = error.message.isEmpty ? "" : " (\(error.message))"
        if error.reasons.contains("API_KEY_IOS_APP_BLOCKED") {
            return "the API key is restricted to an iOS app\(said): send the app's bundle id (X-Ios-Bundle-Identifier)"
        }
        if error.reasons.contains("API_KEY_ANDROID_APP_BLOCKED") {
            return "the API key is restricted to an Android app\(said): send the app's package name and signing certificate (X-Android-Package, X-Android-Cert)"
        }
        if error.reasons.contains("API_KEY_HTTP_REFERRER_BLOCKED") {
            return "the API key is restricted to web sites\(said): send an allowed address as the Referer"
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

extension FBAuthError {
    /// A reauthentication, or a link, that answered for another account than the session's:
    /// one sentence wherever it is found (the library's `SignedInUser`, fbauth's `reauth`).
    internal static func userMismatch(answeredFor other: String, expected label: String?, uid: String, linking: Bool = false) -> FBAuthError {
        let expected = label.map { $0 == uid ? "the user of uid \(uid)" : "\($0) (uid \(uid))" } ?? "the user of uid \(uid)"
        return .failed(.userMismatch, "user mismatch: \(linking ? "linking answered for" : "you signed in as") \(TerminalText.safe(other)), not as \(expected); the session was left unchanged")
    }
}
