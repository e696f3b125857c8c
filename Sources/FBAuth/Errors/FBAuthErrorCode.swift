/// What went wrong, in the spirit of Firebase's Apple SDK (`AuthErrorCode`,
/// FirebaseAuth/Sources/Swift/Utilities/AuthErrorCode.swift): the library decides the code where
/// the failure happens, and a program (fbauth's command line included) decides what each
/// means to it — fbauth maps each to its exit code in one table (`fbauth help exit-codes`).
package enum FBAuthErrorCode: String, Sendable, CaseIterable {
    /// A value given to the library is not acceptable (a malformed provider id, a port in use).
    case invalidArgument
    /// No user is signed in, or no saved session matches.
    case noCurrentUser
    /// The session has expired or was revoked (TOKEN_EXPIRED, INVALID_REFRESH_TOKEN, …).
    case userTokenExpired
    /// The user no longer exists (USER_NOT_FOUND).
    case userNotFound
    /// An administrator disabled the user (USER_DISABLED).
    case userDisabled
    /// The browser sign-in did not complete: denied, closed, timed out, cancelled.
    case webContextCancelled
    /// The browser page failed (the SDK could not load, the page reported an error).
    case webInternalError
    /// The provider's email belongs to an account with other sign-in methods
    /// (`needConfirmation`); the error carries the pending credential's email.
    case accountExistsWithDifferentCredential
    /// Reauthentication signed in a different user than the current one.
    case userMismatch
    /// The user already has this provider (PROVIDER_ALREADY_LINKED).
    case providerAlreadyLinked
    /// The user has no such provider to unlink.
    case noSuchProvider
    /// The provider account belongs to another Firebase user (FEDERATED_USER_ID_ALREADY_LINKED,
    /// EMAIL_EXISTS when linking).
    case credentialAlreadyInUse
    /// The operation needs a recent sign-in (CREDENTIAL_TOO_OLD_LOGIN_AGAIN).
    case requiresRecentLogin
    /// The account needs a second factor, which this library does not handle.
    case secondFactorRequired
    /// The provider is not enabled, or the operation is not allowed for this project.
    case operationNotAllowed
    /// The domain the sign-in runs on is not an authorized domain of the project.
    case unauthorizedDomain
    /// The password does not meet the project's policy (WEAK_PASSWORD,
    /// PASSWORD_DOES_NOT_MEET_REQUIREMENTS).
    case weakPassword
    /// The email address belongs to another account (EMAIL_EXISTS).
    case emailAlreadyInUse
    /// A mailed link's code is not valid, or was used (INVALID_OOB_CODE).
    case invalidActionCode
    /// A mailed link's code has expired (EXPIRED_OOB_CODE).
    case expiredActionCode
    /// The project enforces Firebase App Check and refused the request's App Check token (or
    /// its absence), or App Check refused the debug token (JS `auth/firebase-app-check-token-is-invalid`).
    case appCheckTokenInvalid
    /// Firebase refused the request for another reason (the message says which).
    case serverRefused
    /// Firebase could not be reached or did not answer in time, or answered 5xx/429.
    case networkError
    /// An answer that is not what Firebase sends.
    case invalidResponse
    /// The session store cannot be read or written (the SDK's `keychainError`).
    case keychainError
    /// The loopback listener cannot listen (the port is taken, the address is missing).
    case listenerUnavailable
    /// The user declined a confirmation the operation asked for.
    case declined
    /// A Firebase ID token or session cookie given to be verified was refused (a server's
    /// check, as firebase-admin's `verifyIdToken`).
    case tokenRefused
    /// A failure of this machine or of the library itself.
    case internalError
}

extension FBAuthErrorCode {
    /// Codes for server error codes that mean something specific; others are `serverRefused`.
    static func forServerCode(_ code: String) -> FBAuthErrorCode? {
        switch code {
        case "TOKEN_EXPIRED", "INVALID_REFRESH_TOKEN", "INVALID_ID_TOKEN": .userTokenExpired
        case "USER_NOT_FOUND": .userNotFound
        case "USER_DISABLED": .userDisabled
        case "USER_CANCELLED": .webContextCancelled
        case "CREDENTIAL_TOO_OLD_LOGIN_AGAIN": .requiresRecentLogin
        case "PROVIDER_ALREADY_LINKED": .providerAlreadyLinked
        case "FEDERATED_USER_ID_ALREADY_LINKED", "CREDENTIAL_ALREADY_IN_USE": .credentialAlreadyInUse
        case "USER_MISMATCH": .userMismatch
        case "OPERATION_NOT_ALLOWED", "ADMIN_ONLY_OPERATION", "PASSWORD_LOGIN_DISABLED": .operationNotAllowed
        case "UNAUTHORIZED_DOMAIN": .unauthorizedDomain
        case "WEAK_PASSWORD", "PASSWORD_DOES_NOT_MEET_REQUIREMENTS": .weakPassword
        case "EMAIL_EXISTS": .emailAlreadyInUse
        case "INVALID_OOB_CODE": .invalidActionCode
        case "EXPIRED_OOB_CODE": .expiredActionCode
        default: nil
        }
    }
}
