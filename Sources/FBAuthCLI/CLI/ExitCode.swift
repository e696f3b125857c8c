import FBAuth
import LoopbackHTTP

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
    init(for code: AuthErrorCode) {
        switch code {
        case .invalidArgument: self = .usage
        case .noCurrentUser, .userTokenExpired, .userNotFound: self = .signInAgain
        case .webContextCancelled: self = .flowIncomplete
        case .accountExistsWithDifferentCredential: self = .accountExists
        case .networkError: self = .network
        case .keychainError: self = .store
        case .userDisabled, .webInternalError, .userMismatch, .providerAlreadyLinked, .credentialAlreadyInUse,
            .requiresRecentLogin, .secondFactorRequired, .operationNotAllowed, .unauthorizedDomain, .weakPassword, .emailAlreadyInUse,
            .invalidActionCode, .expiredActionCode, .serverRefused,
            .invalidResponse, .listenerUnavailable, .declined, .internalError:
            self = .failure
        }
    }

    /// The library's error codes that end with this exit code.
    var errorCodes: [AuthErrorCode] { AuthErrorCode.allCases.filter { ExitCode(for: $0) == self } }
}

extension FBAuthError {
    var exitCode: ExitCode { ExitCode(for: code) }

    /// The library's message with the command-line option that fixes it, where there is one.
    var commandLineMessage: String {
        switch code {
        case .listenerUnavailable where message.hasPrefix("port"): message + " (--port)"
        case .listenerUnavailable: message + " (--redirect-host)"
        default: message
        }
    }
}
