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
    public static let domain = AuthErrorDomain
    public static let userInfoNameKey = AuthErrorUserInfoNameKey
    public static let userInfoEmailKey = AuthErrorUserInfoEmailKey
    public static let userInfoUpdatedCredentialKey = AuthErrorUserInfoUpdatedCredentialKey
}

/// The SDK's error codes, with its raw values (firebase-ios-sdk
/// FirebaseAuth/Sources/Swift/Utilities/AuthErrors.swift): `(error as NSError).code`.
public enum AuthErrorCode: Int, Sendable {
    case invalidCustomToken = 17000
    case customTokenMismatch = 17002
    case invalidCredential = 17004
    case userDisabled = 17005
    case operationNotAllowed = 17006
    case emailAlreadyInUse = 17007
    case invalidEmail = 17008
    case wrongPassword = 17009
    case tooManyRequests = 17010
    case userNotFound = 17011
    case accountExistsWithDifferentCredential = 17012
    case requiresRecentLogin = 17014
    case providerAlreadyLinked = 17015
    case noSuchProvider = 17016
    case invalidUserToken = 17017
    case networkError = 17020
    case userTokenExpired = 17021
    case invalidAPIKey = 17023
    case userMismatch = 17024
    case credentialAlreadyInUse = 17025
    case weakPassword = 17026
    case appNotAuthorized = 17028
    case expiredActionCode = 17029
    case invalidActionCode = 17030
    case missingEmail = 17034
    case unauthorizedDomain = 17038
    case webContextCancelled = 17058
    case webNetworkRequestFailed = 17061
    case webInternalError = 17062
    case nullUser = 17067
    case invalidProviderID = 17071
    case secondFactorRequired = 17078
    case blockingCloudFunctionError = 17105
    case keychainError = 17995
    case internalError = 17999
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
