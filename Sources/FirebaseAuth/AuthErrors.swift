import FBAuth
import Foundation

/// `FIRAuthErrorDomain`: the domain of every `NSError` FirebaseAuth reports.
public let AuthErrorDomain = "FIRAuthErrorDomain"
/// The key of an error's short name (`ERROR_WRONG_PASSWORD`).
public let AuthErrorUserInfoNameKey = "FIRAuthErrorUserInfoNameKey"
/// The key of the email that already has an account (`accountExistsWithDifferentCredential`,
/// `credentialAlreadyInUse`, `emailAlreadyInUse`).
public let AuthErrorUserInfoEmailKey = "FIRAuthErrorUserInfoEmailKey"
/// The key of the credential to recover with: for `accountExistsWithDifferentCredential`, the
/// provider's pending credential, to link once the user has signed in to that account.
public let AuthErrorUserInfoUpdatedCredentialKey = "FIRAuthErrorUserInfoUpdatedCredentialKey"

/// The keys of `AuthErrorCode` errors, as the SDK's `AuthErrors` names them.
public enum AuthErrors {
    /// `FIRAuthErrorDomain`.
    public static let domain = AuthErrorDomain
    /// `AuthErrorUserInfoNameKey`.
    public static let userInfoNameKey = AuthErrorUserInfoNameKey
    /// `AuthErrorUserInfoEmailKey`.
    public static let userInfoEmailKey = AuthErrorUserInfoEmailKey
    /// `AuthErrorUserInfoUpdatedCredentialKey`.
    public static let userInfoUpdatedCredentialKey = AuthErrorUserInfoUpdatedCredentialKey
}

/// The SDK's error codes, with its raw values (firebase-ios-sdk
/// FirebaseAuth/Sources/Swift/Utilities/AuthErrors.swift): `(error as NSError).code`.
public enum AuthErrorCode: Int, Sendable {
    /// A custom token that is not valid.
    case invalidCustomToken = 17000
    /// The custom token's service account and the API key belong to different projects.
    case customTokenMismatch = 17002
    /// The provider token, requestUri or email and password are not valid (`INVALID_LOGIN_CREDENTIALS` under email enumeration protection).
    case invalidCredential = 17004
    /// The user's account is disabled on the server.
    case userDisabled = 17005
    /// The sign-in method is disabled for the project.
    case operationNotAllowed = 17006
    /// The email address belongs to another account.
    case emailAlreadyInUse = 17007
    /// The email address is badly formatted.
    case invalidEmail = 17008
    /// The password is wrong (without email enumeration protection).
    case wrongPassword = 17009
    /// Too many requests from this device.
    case tooManyRequests = 17010
    /// No user has this identifier.
    case userNotFound = 17011
    /// The provider's email belongs to an account with other sign-in methods: `AuthErrorUserInfoEmailKey` and `AuthErrorUserInfoUpdatedCredentialKey` say which, and what to link.
    case accountExistsWithDifferentCredential = 17012
    /// The operation needs a recent sign-in: reauthenticate first.
    case requiresRecentLogin = 17014
    /// The user already has this provider.
    case providerAlreadyLinked = 17015
    /// The user has no such provider to unlink.
    case noSuchProvider = 17016
    /// The user's saved credential is not valid for this project.
    case invalidUserToken = 17017
    /// Firebase could not be reached, or did not answer in time.
    case networkError = 17020
    /// The user's credential is no longer valid: sign in again.
    case userTokenExpired = 17021
    /// The API key is not valid.
    case invalidAPIKey = 17023
    /// A reauthentication signed in another user than the current one.
    case userMismatch = 17024
    /// The provider account belongs to another Firebase user.
    case credentialAlreadyInUse = 17025
    /// The password does not meet the project's policy.
    case weakPassword = 17026
    /// The API key does not allow this app.
    case appNotAuthorized = 17028
    /// A mailed link's code has expired.
    case expiredActionCode = 17029
    /// A mailed link's code is not valid, or was used.
    case invalidActionCode = 17030
    /// An email address was needed.
    case missingEmail = 17034
    /// A domain that is not among the project's authorized domains.
    case unauthorizedDomain = 17038
    /// The browser sign-in did not complete: denied, closed, timed out or cancelled.
    case webContextCancelled = 17058
    /// A request of the browser sign-in failed.
    case webNetworkRequestFailed = 17061
    /// The browser sign-in failed in the page.
    case webInternalError = 17062
    /// No user was signed in for an operation that needs one.
    case nullUser = 17067
    /// The provider id is not valid.
    case invalidProviderID = 17071
    /// The account needs a second factor.
    case secondFactorRequired = 17078
    /// A blocking Cloud Function refused the operation.
    case blockingCloudFunctionError = 17105
    /// The saved sessions (the file, or the OS keyring) cannot be read or written.
    case keychainError = 17995
    /// Anything else; `NSLocalizedFailureReasonErrorKey` says what.
    case internalError = 17999
    /// A token that is not a JWT.
    case malformedJWT = 18000

    /// `ERROR_WRONG_PASSWORD`: the error's short name, in `AuthErrorUserInfoNameKey`.
    var name: String {
        let words = String(describing: self).reduce(into: "") { text, character in
            text += character.isUppercase ? "_\(character)" : character.uppercased()
        }
        switch self {
        case .invalidAPIKey: return "ERROR_INVALID_API_KEY"
        case .invalidProviderID: return "ERROR_INVALID_PROVIDER_ID"
        case .malformedJWT: return "ERROR_MALFORMED_JWT"
        default: return "ERROR_" + words
        }
    }

    /// The SDK's message for the code (`localizedDescription`).
    var message: String {
        switch self {
        case .invalidCustomToken: "The custom token format is incorrect. Please check the documentation."
        case .customTokenMismatch: "The custom token corresponds to a different audience."
        case .invalidCredential: "The supplied auth credential is malformed or has expired."
        case .userDisabled: "The user account has been disabled by an administrator."
        case .operationNotAllowed: "The given sign-in provider is disabled for this Firebase project. Enable it in the Firebase console, under the sign-in method tab of the Auth section."
        case .emailAlreadyInUse: "The email address is already in use by another account."
        case .invalidEmail: "The email address is badly formatted."
        case .wrongPassword: "The password is invalid or the user does not have a password."
        case .tooManyRequests: "We have blocked all requests from this device due to unusual activity. Try again later."
        case .userNotFound: "There is no user record corresponding to this identifier. The user may have been deleted."
        case .accountExistsWithDifferentCredential: "An account already exists with the same email address but different sign-in credentials. Sign in using a provider associated with this email address."
        case .requiresRecentLogin: "This operation is sensitive and requires recent authentication. Log in again before retrying this request."
        case .providerAlreadyLinked: "[ERROR_PROVIDER_ALREADY_LINKED] - User can only be linked to one identity for the given provider."
        case .noSuchProvider: "User was not linked to an account with the given provider."
        case .invalidUserToken: "This user's credential isn't valid for this project. This can happen if the user's token has been tampered with, or if the user doesn’t belong to the project associated with the API key used in your request."
        case .networkError: "Network error (such as timeout, interrupted connection or unreachable host) has occurred."
        case .userTokenExpired: "The user's credential is no longer valid. The user must sign in again."
        case .invalidAPIKey: "An invalid API Key was supplied in the request."
        case .userMismatch: "The supplied credentials do not correspond to the previously signed in user."
        case .credentialAlreadyInUse: "This credential is already associated with a different user account."
        case .weakPassword: "The password must be 6 characters long or more."
        case .appNotAuthorized: "This app is not authorized to use Firebase Authentication with the provided API key."
        case .expiredActionCode: "The action code has expired."
        case .invalidActionCode: "The action code is invalid. This can happen if the code is malformed, expired, or has already been used."
        case .missingEmail: "An email address must be provided."
        case .unauthorizedDomain: "The domain of the continue URL is not allowlisted. Please allowlist the domain in the Firebase console."
        case .webContextCancelled: "The interaction was cancelled by the user."
        case .webNetworkRequestFailed: "A network error (such as timeout, interrupted connection, or unreachable host) has occurred within the web context."
        case .webInternalError: "An internal error has occurred within the browser sign-in."
        case .nullUser: "A null user object was provided as the argument for an operation which requires a non-null user object."
        case .invalidProviderID: "The provider ID provided for the attempted web operation is invalid."
        case .secondFactorRequired: "Please complete a second factor challenge to finish signing into this account."
        case .blockingCloudFunctionError: "Blocking cloud function returned an error."
        case .keychainError: "An error occurred when accessing the keychain. The NSLocalizedFailureReasonErrorKey field in the NSError.userInfo dictionary will contain more information about the error encountered"
        case .internalError: "An internal error has occurred, print and inspect the error details for more information."
        case .malformedJWT: "Failed to parse JWT. Check the userInfo dictionary for the full token."
        }
    }

    /// The SDK's code for a server error code (AuthErrorUtils' table).
    static func forServerCode(_ code: String) -> AuthErrorCode? {
        switch code {
        case "INVALID_CUSTOM_TOKEN": .invalidCustomToken
        case "CREDENTIAL_MISMATCH": .customTokenMismatch
        case "INVALID_LOGIN_CREDENTIALS", "INVALID_IDP_RESPONSE", "INVALID_PENDING_TOKEN": .invalidCredential
        case "USER_DISABLED": .userDisabled
        case "OPERATION_NOT_ALLOWED", "PASSWORD_LOGIN_DISABLED": .operationNotAllowed
        case "EMAIL_EXISTS": .emailAlreadyInUse
        case "INVALID_EMAIL": .invalidEmail
        case "INVALID_PASSWORD": .wrongPassword
        case "TOO_MANY_ATTEMPTS_TRY_LATER": .tooManyRequests
        case "EMAIL_NOT_FOUND", "USER_NOT_FOUND": .userNotFound
        case "CREDENTIAL_TOO_OLD_LOGIN_AGAIN": .requiresRecentLogin
        case "PROVIDER_ALREADY_LINKED": .providerAlreadyLinked
        case "NO_SUCH_PROVIDER": .noSuchProvider
        case "INVALID_ID_TOKEN", "INVALID_REFRESH_TOKEN": .invalidUserToken
        case "TOKEN_EXPIRED": .userTokenExpired
        case "INVALID_API_KEY": .invalidAPIKey
        case "USER_MISMATCH": .userMismatch
        case "FEDERATED_USER_ID_ALREADY_LINKED", "CREDENTIAL_ALREADY_IN_USE": .credentialAlreadyInUse
        case "WEAK_PASSWORD", "PASSWORD_DOES_NOT_MEET_REQUIREMENTS": .weakPassword
        case "EXPIRED_OOB_CODE": .expiredActionCode
        case "INVALID_OOB_CODE": .invalidActionCode
        case "MISSING_EMAIL": .missingEmail
        case "UNAUTHORIZED_DOMAIN": .unauthorizedDomain
        case "INVALID_PROVIDER_ID": .invalidProviderID
        case "BLOCKING_FUNCTION_ERROR_RESPONSE": .blockingCloudFunctionError
        default: nil
        }
    }
}

/// FBAuth's failures as the SDK reports them: an `NSError` in `FIRAuthErrorDomain` with the
/// SDK's code, its message as the localized description, fbauth's own one line as the failure
/// reason, and the recovery keys the SDK's guides read.
enum AuthErrorBridge {
    static func error(_ failure: FBAuthError) -> NSError {
        let code = sdkCode(failure)
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: code.message, AuthErrorUserInfoNameKey: code.name,
                                       NSLocalizedFailureReasonErrorKey: failure.message]
        if case .accountExists(let conflict) = failure {
            if let email = conflict.email { userInfo[AuthErrorUserInfoEmailKey] = email }
            userInfo[AuthErrorUserInfoUpdatedCredentialKey] = OAuthCredential(pending: conflict.updatedCredential)
        }
        return NSError(domain: AuthErrorDomain, code: code.rawValue, userInfo: userInfo)
    }

    static func error(_ code: AuthErrorCode, reason: String? = nil) -> NSError {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: code.message, AuthErrorUserInfoNameKey: code.name]
        if let reason { userInfo[NSLocalizedFailureReasonErrorKey] = reason }
        return NSError(domain: AuthErrorDomain, code: code.rawValue, userInfo: userInfo)
    }

    static func sdkCode(_ failure: FBAuthError) -> AuthErrorCode {
        switch failure {
        case .accountExists: return .accountExistsWithDifferentCredential
        case .secondFactorRequired: return .secondFactorRequired
        case .network: return .networkError
        case .flowIncomplete: return .webContextCancelled
        case .store: return .keychainError
        case .server(let refusal, _):
            if refusal.message.hasPrefix("API key not valid") { return .invalidAPIKey }
            if let code = refusal.code, let sdk = AuthErrorCode.forServerCode(code) { return sdk }
            return refusal.isTransient ? .networkError : .internalError
        default:
            switch failure.code {
            case .userMismatch: return .userMismatch
            case .noCurrentUser: return .nullUser
            case .userTokenExpired: return .userTokenExpired
            case .userNotFound: return .userNotFound
            case .userDisabled: return .userDisabled
            case .webContextCancelled: return .webContextCancelled
            case .webInternalError: return .webInternalError
            case .providerAlreadyLinked: return .providerAlreadyLinked
            case .credentialAlreadyInUse: return .credentialAlreadyInUse
            case .requiresRecentLogin: return .requiresRecentLogin
            case .operationNotAllowed: return .operationNotAllowed
            case .weakPassword: return .weakPassword
            case .emailAlreadyInUse: return .emailAlreadyInUse
            case .networkError: return .networkError
            case .keychainError: return .keychainError
            default: return .internalError
            }
        }
    }
}
