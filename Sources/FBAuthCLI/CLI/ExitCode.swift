import FBAuth

/// fbauth's exit codes: the contract scripts rely on (`fbauth help exit-codes`).
package enum ExitCode: Int32, CaseIterable, Sendable {
    case success = 0
    /// The server refused, or another error.
    case failure = 1
    case usage = 2
    /// Not signed in, or the session expired or was revoked: sign in again.
    case signInAgain = 3
    /// The browser flow did not complete: consent denied, timed out, cancelled.
    case flowIncomplete = 4
    /// An account already exists with a different credential; the pending credential was saved.
    case accountExists = 5
    /// Firebase could not be reached or did not answer in time.
    case network = 6
    /// The local session store cannot be read or written (the file is left as it was).
    case store = 7

    package var meaning: String {
        switch self {
        case .success: "success"
        case .failure: "the server refused (invalid credential, already linked, user mismatch, disabled user, …) or another error"
        case .usage: "usage error: unknown command or option, missing or malformed value"
        case .signInAgain: "nobody is signed in (no session, no project known yet, or the session expired, was revoked or signed out by the server): sign in again"
        case .flowIncomplete: "the browser flow did not complete: consent denied, timed out, cancelled"
        case .accountExists: "an account already exists with a different credential: the pending credential was saved; sign in to that account, then `fbauth link --pending`"
        case .network: "network error: Firebase could not be reached or did not answer in time"
        case .store: "the local session store cannot be read or written (the file is left as it was)"
        }
    }
}

extension ExitCode {
    /// The one table from the library's error codes to fbauth's exit codes; `fbauth help
    /// exit-codes` prints it.
    init(for code: FBAuthErrorCode) {
        switch code {
        case .invalidArgument: self = .usage
        case .noCurrentUser, .userTokenExpired, .userNotFound: self = .signInAgain
        case .webContextCancelled: self = .flowIncomplete
        case .accountExistsWithDifferentCredential: self = .accountExists
        case .networkError: self = .network
        case .keychainError: self = .store
        case .userDisabled, .webInternalError, .userMismatch, .providerAlreadyLinked, .noSuchProvider, .credentialAlreadyInUse,
            .requiresRecentLogin, .secondFactorRequired, .operationNotAllowed, .unauthorizedDomain, .weakPassword, .emailAlreadyInUse,
            .invalidActionCode, .expiredActionCode, .appCheckTokenInvalid, .serverRefused,
            .invalidResponse, .listenerUnavailable, .declined, .tokenRefused, .internalError:
            self = .failure
        }
    }

    /// The library's error codes that end with this exit code.
    var errorCodes: [FBAuthErrorCode] { FBAuthErrorCode.allCases.filter { ExitCode(for: $0) == self } }
}

extension FBAuthError {
    var exitCode: ExitCode { ExitCode(for: code) }

    /// The library's message with the command-line option that fixes it, where there is one.
    var commandLineMessage: String {
        if case .server(let error, _) = self, let code = error.code, let remedy = CommandLineRemedies.forServerCode[code] {
            // Before the code's tag, where the library's sentence ends.
            let tag = " [\(code)]"
            guard let range = message.firstRange(of: tag) else { return message + " (\(remedy))" }
            return String(message[..<range.lowerBound]) + " (\(remedy))" + String(message[range.lowerBound...])
        }
        if case .server(let error, _) = self, let remedy = CommandLineRemedies.forKeyRestriction(error.reasons) {
            return message + " (\(remedy))"
        }
        if code == .appCheckTokenInvalid, remedy == .registerDebugTokenWithEmulator {
            return message + " (\(CommandLineRemedies.words(for: .registerDebugTokenWithEmulator)))"
        }
        if code == .appCheckTokenInvalid {
            return message + " (FBAUTH_APP_CHECK_DEBUG_TOKEN or --app-check-debug-token-file, with the app id from --app-config, --app-id or FBAUTH_APP_CHECK_APP_ID)"
        }
        // The SDK's advice is in the message already, in fbauth's words (`CommandLineAdvice`).
        if remedy == .loadTheSDKElsewhere { return message }
        return remedy.map { message + " (\(CommandLineRemedies.words(for: $0)))" } ?? message
    }
}

extension FBAuthError {
    /// The same error with the command or option that acts on it, in parentheses: the library's
    /// words name neither.
    func hinting(_ hint: String) -> FBAuthError {
        switch self {
        case .usage(let text, let remedy): .usage("\(text) (\(hint))", remedy: remedy)
        case .signInAgain(let text, let remedy): .signInAgain("\(text) (\(hint))", remedy: remedy)
        case .flowIncomplete(let text, let remedy): .flowIncomplete("\(text) (\(hint))", remedy: remedy)
        case .store(let text, let remedy): .store("\(text) (\(hint))", remedy: remedy)
        case .failed(let code, let text, let remedy): .failed(code, "\(text) (\(hint))", remedy: remedy)
        case .server, .network, .badResponse, .accountExists, .credentialInUse, .secondFactorRequired: self
        }
    }

    /// A usage error about what `option` gave: "OPTION: the library's sentence".
    func naming(_ option: String) -> FBAuthError {
        guard case .usage(let text, let remedy) = self else { return self }
        return .usage("\(option): \(text)", remedy: remedy)
    }
}

/// What fbauth's command line adds to a server's refusal: the command or option that acts on
/// it. The library's words (`ServerErrorTable`) name none.
enum CommandLineRemedies {
    static let recaptcha = "or without --no-browser"

    /// The options that satisfy an API key's application restrictions (the reasons of Google's
    /// error details, as `APIKeyRestriction` reads them).
    static func forKeyRestriction(_ reasons: [String]) -> String? {
        if reasons.contains("API_KEY_IOS_APP_BLOCKED") { return "--ios-bundle-id BUNDLE_ID, or --app-config with the app's GoogleService-Info.plist" }
        if reasons.contains("API_KEY_ANDROID_APP_BLOCKED") {
            return "--android-package NAME --android-cert SHA1, or --app-config with the app's google-services.json"
        }
        if reasons.contains("API_KEY_HTTP_REFERRER_BLOCKED") { return "--referer with an allowed address, usually https://PROJECT.firebaseapp.com/" }
        return nil
    }

    /// The command or option that acts on a remedy the library gives (its words name none).
    static func words(for remedy: Remedy) -> String {
        switch remedy {
        case .signIn: "run `fbauth signin --provider ID`"
        case .waitLonger: "--timeout SECONDS"
        case .applyActionCode: "`fbauth email apply`"
        case .resetPassword: "`fbauth password reset --link -`"
        case .chooseSession: "`fbauth use UID-or-EMAIL`; `fbauth accounts` lists them"
        case .listAllSessions: "`fbauth accounts --all` lists them"
        case .otherConfigDirectory: "--config-dir or FBAUTH_CONFIG_DIR"
        case .removeSessions: "`fbauth signout --all`"
        case .otherPort: "--port"
        case .otherRedirectHost: "--redirect-host"
        case .reauthenticateWithApple: "`fbauth reauth --provider apple.com`, or --skip-revoke"
        case .deleteWithoutRevoking: "--skip-revoke deletes without revoking"
        case .registerDebugTokenWithEmulator: "`fbauth emulator --app-check-debug-token-file FILE`, or FBAUTH_APP_CHECK_DEBUG_TOKEN set where it starts"
        case .loadTheSDKElsewhere: "FBAUTH_FIREBASE_JS_URL, or --loopback"
        }
    }

    static let forServerCode: [String: String] = [
        "CREDENTIAL_TOO_OLD_LOGIN_AGAIN": "`fbauth reauth --provider …`",
        "TENANT_ID_MISMATCH": "--tenant-id",
        "INVALID_TENANT_ID": "--tenant-id",
        "UNSUPPORTED_TENANT_OPERATION": "leave out --tenant-id",
        "PROVIDER_ALREADY_LINKED": "`fbauth password change` changes a password",
        "MFA_ENROLLMENT_NOT_FOUND": "`fbauth mfa list` shows them",
        "SECOND_FACTOR_LIMIT_EXCEEDED": "`fbauth mfa unenroll`",
        "MISSING_RECAPTCHA_TOKEN": recaptcha, "INVALID_RECAPTCHA_TOKEN": recaptcha, "INVALID_RECAPTCHA_ACTION": recaptcha,
        "INVALID_RECAPTCHA_VERSION": recaptcha, "MISSING_RECAPTCHA_VERSION": recaptcha, "MISSING_CLIENT_TYPE": recaptcha,
    ]
}
