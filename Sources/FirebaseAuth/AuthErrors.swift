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
/// The key of the resolver of a `secondFactorRequired` error.
public let AuthErrorUserInfoMultiFactorResolverKey = "FIRAuthErrorUserInfoMultiFactorResolverKey"

/// The keys of `AuthErrorCode` errors, as the SDK's `AuthErrors` names them.
open class AuthErrors: NSObject {
    /// `FIRAuthErrorDomain`.
    public static let domain = AuthErrorDomain
    /// `AuthErrorUserInfoNameKey`.
    public static let userInfoNameKey = AuthErrorUserInfoNameKey
    /// `AuthErrorUserInfoEmailKey`.
    public static let userInfoEmailKey = AuthErrorUserInfoEmailKey
    /// `AuthErrorUserInfoUpdatedCredentialKey`.
    public static let userInfoUpdatedCredentialKey = AuthErrorUserInfoUpdatedCredentialKey
    /// `AuthErrorUserInfoMultiFactorResolverKey`.
    public static let userInfoMultiFactorResolverKey = AuthErrorUserInfoMultiFactorResolverKey
}

/// The SDK's error codes (firebase-ios-sdk `FirebaseAuth/Sources/Swift/Utilities/AuthErrors.swift`),
/// every one with its raw value, short name and message, as the errors FirebaseAuth throws.
///
/// The SDK's is an `Int` enum that conforms to `Error` with a `code` of itself (since 11.1), and
/// on Apple platforms an `NSError` of `FIRAuthErrorDomain` bridges to it. Off Apple platforms no
/// `NSError` bridges to a Swift type, so the error itself is an `AuthErrorCode`: a value that
/// carries its `userInfo` too (the email and updated credential of an account-exists error,
/// fbauth's one line as the failure reason), and becomes that `NSError` when cast (`CustomNSError`).
/// So each of the SDK's ways to read an error works: `error as? AuthErrorCode` and `.code`,
/// `(error as NSError).code == AuthErrorCode.x.rawValue` and its `userInfo`,
/// `AuthErrorCode(rawValue: (error as NSError).code)`, and `switch` over the codes — with a
/// `default`, as a struct's values are not an enum's closed set.
public struct AuthErrorCode: Error, CustomNSError, RawRepresentable, Hashable, @unchecked Sendable {
    /// The SDK's raw value: `17012` for `accountExistsWithDifferentCredential`.
    public let rawValue: Int
    /// What the thrown error carries beyond its code.
    private let extraUserInfo: [String: Any]

    /// The code of this raw value; nil for a value that is none of the SDK's codes.
    public init?(rawValue: Int) {
        guard Self.table[rawValue] != nil else { return nil }
        self.init(known: rawValue)
    }

    fileprivate init(known rawValue: Int, userInfo: [String: Any] = [:]) {
        self.rawValue = rawValue
        extraUserInfo = userInfo
    }

    /// The same code carrying `userInfo` (as thrown).
    init(_ code: AuthErrorCode, userInfo: [String: Any]) {
        self.init(known: code.rawValue, userInfo: userInfo)
    }

    /// The code itself, as the SDK's `code` (its `AuthErrorCode.Code` of old): what to compare.
    public var code: AuthErrorCode { AuthErrorCode(known: rawValue) }

    /// The same code, whatever each carries.
    public static func == (lhs: AuthErrorCode, rhs: AuthErrorCode) -> Bool { lhs.rawValue == rhs.rawValue }
    /// The code's hash (what it carries is not part of it).
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// What the error carries, as the SDK's (a bridged `NSError`'s) `userInfo`: the message,
    /// the short name, and keys such as `AuthErrorUserInfoMultiFactorResolverKey`.
    public var userInfo: [String: Any] { errorUserInfo }

    /// `FIRAuthErrorDomain`.
    public static var errorDomain: String { AuthErrorDomain }
    /// The raw value.
    public var errorCode: Int { rawValue }
    /// The SDK's message as `NSLocalizedDescriptionKey`, its short name as
    /// `AuthErrorUserInfoNameKey`, and what the error carries.
    public var errorUserInfo: [String: Any] {
        extraUserInfo.merging([NSLocalizedDescriptionKey: message, AuthErrorUserInfoNameKey: name]) { own, _ in own }
    }

    /// `ERROR_WRONG_PASSWORD`: the error's short name, in `AuthErrorUserInfoNameKey`.
    var name: String { Self.table[rawValue]?.name ?? "ERROR_INTERNAL_ERROR" }

    /// The SDK's message for the code (`localizedDescription`), word for word (typos included:
    /// `notificationNotForwarded` joins "need to" and "be forwarded" as the SDK does).
    var message: String { Self.table[rawValue]?.message ?? "" }

    /// 17000 (`ERROR_INVALID_CUSTOM_TOKEN`): The custom token format is incorrect.
    public static let invalidCustomToken = AuthErrorCode(known: 17000)
    /// 17002 (`ERROR_CUSTOM_TOKEN_MISMATCH`): The custom token corresponds to a different audience.
    public static let customTokenMismatch = AuthErrorCode(known: 17002)
    /// 17004 (`ERROR_INVALID_CREDENTIAL`): The supplied auth credential is malformed or has expired.
    public static let invalidCredential = AuthErrorCode(known: 17004)
    /// 17005 (`ERROR_USER_DISABLED`): The user account has been disabled by an administrator.
    public static let userDisabled = AuthErrorCode(known: 17005)
    /// 17006 (`ERROR_OPERATION_NOT_ALLOWED`): The given sign-in provider is disabled for this Firebase project.
    public static let operationNotAllowed = AuthErrorCode(known: 17006)
    /// 17007 (`ERROR_EMAIL_ALREADY_IN_USE`): The email address is already in use by another account.
    public static let emailAlreadyInUse = AuthErrorCode(known: 17007)
    /// 17008 (`ERROR_INVALID_EMAIL`): The email address is badly formatted.
    public static let invalidEmail = AuthErrorCode(known: 17008)
    /// 17009 (`ERROR_WRONG_PASSWORD`): The password is invalid or the user does not have a password.
    public static let wrongPassword = AuthErrorCode(known: 17009)
    /// 17010 (`ERROR_TOO_MANY_REQUESTS`): We have blocked all requests from this device due to unusual activity.
    public static let tooManyRequests = AuthErrorCode(known: 17010)
    /// 17011 (`ERROR_USER_NOT_FOUND`): There is no user record corresponding to this identifier.
    public static let userNotFound = AuthErrorCode(known: 17011)
    /// 17012 (`ERROR_ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL`): An account already exists with the same email address but different sign-in credentials.
    public static let accountExistsWithDifferentCredential = AuthErrorCode(known: 17012)
    /// 17014 (`ERROR_REQUIRES_RECENT_LOGIN`): This operation is sensitive and requires recent authentication.
    public static let requiresRecentLogin = AuthErrorCode(known: 17014)
    /// 17015 (`ERROR_PROVIDER_ALREADY_LINKED`): [ERROR_PROVIDER_ALREADY_LINKED] - User can only be linked to one identity for the given provider.
    public static let providerAlreadyLinked = AuthErrorCode(known: 17015)
    /// 17016 (`ERROR_NO_SUCH_PROVIDER`): User was not linked to an account with the given provider.
    public static let noSuchProvider = AuthErrorCode(known: 17016)
    /// 17017 (`ERROR_INVALID_USER_TOKEN`): This user's credential isn't valid for this project.
    public static let invalidUserToken = AuthErrorCode(known: 17017)
    /// 17020 (`ERROR_NETWORK_REQUEST_FAILED`): Network error (such as timeout, interrupted connection or unreachable host) has occurred.
    public static let networkError = AuthErrorCode(known: 17020)
    /// 17021 (`ERROR_USER_TOKEN_EXPIRED`): The user's credential is no longer valid.
    public static let userTokenExpired = AuthErrorCode(known: 17021)
    /// 17023 (`ERROR_INVALID_API_KEY`): An invalid API Key was supplied in the request.
    public static let invalidAPIKey = AuthErrorCode(known: 17023)
    /// 17024 (`ERROR_USER_MISMATCH`): The supplied credentials do not correspond to the previously signed in user.
    public static let userMismatch = AuthErrorCode(known: 17024)
    /// 17025 (`ERROR_CREDENTIAL_ALREADY_IN_USE`): This credential is already associated with a different user account.
    public static let credentialAlreadyInUse = AuthErrorCode(known: 17025)
    /// 17026 (`ERROR_WEAK_PASSWORD`): The password must be 6 characters long or more.
    public static let weakPassword = AuthErrorCode(known: 17026)
    /// 17028 (`ERROR_APP_NOT_AUTHORIZED`): This app is not authorized to use Firebase Authentication with the provided API key.
    public static let appNotAuthorized = AuthErrorCode(known: 17028)
    /// 17029 (`ERROR_EXPIRED_ACTION_CODE`): The action code has expired.
    public static let expiredActionCode = AuthErrorCode(known: 17029)
    /// 17030 (`ERROR_INVALID_ACTION_CODE`): The action code is invalid.
    public static let invalidActionCode = AuthErrorCode(known: 17030)
    /// 17031 (`ERROR_INVALID_MESSAGE_PAYLOAD`): The action code is invalid.
    public static let invalidMessagePayload = AuthErrorCode(known: 17031)
    /// 17032 (`ERROR_INVALID_SENDER`): The email template corresponding to this action contains invalid characters in its message.
    public static let invalidSender = AuthErrorCode(known: 17032)
    /// 17033 (`ERROR_INVALID_RECIPIENT_EMAIL`): The action code is invalid.
    public static let invalidRecipientEmail = AuthErrorCode(known: 17033)
    /// 17034 (`ERROR_MISSING_EMAIL`): An email address must be provided.
    public static let missingEmail = AuthErrorCode(known: 17034)
    /// 17036 (`ERROR_MISSING_IOS_BUNDLE_ID`): An iOS Bundle ID must be provided if an App Store ID is provided.
    public static let missingIosBundleID = AuthErrorCode(known: 17036)
    /// 17037 (`ERROR_MISSING_ANDROID_PKG_NAME`): An Android Package Name must be provided if the Android App is required to be installed.
    public static let missingAndroidPackageName = AuthErrorCode(known: 17037)
    /// 17038 (`ERROR_UNAUTHORIZED_DOMAIN`): The domain of the continue URL is not allowlisted.
    public static let unauthorizedDomain = AuthErrorCode(known: 17038)
    /// 17039 (`ERROR_INVALID_CONTINUE_URI`): The continue URL provided in the request is invalid.
    public static let invalidContinueURI = AuthErrorCode(known: 17039)
    /// 17040 (`ERROR_MISSING_CONTINUE_URI`): A continue URL must be provided in the request.
    public static let missingContinueURI = AuthErrorCode(known: 17040)
    /// 17041 (`ERROR_MISSING_PHONE_NUMBER`): To send verification codes, provide a phone number for the recipient.
    public static let missingPhoneNumber = AuthErrorCode(known: 17041)
    /// 17042 (`ERROR_INVALID_PHONE_NUMBER`): The format of the phone number provided is incorrect.
    public static let invalidPhoneNumber = AuthErrorCode(known: 17042)
    /// 17043 (`ERROR_MISSING_VERIFICATION_CODE`): The phone auth credential was created with an empty SMS verification Code.
    public static let missingVerificationCode = AuthErrorCode(known: 17043)
    /// 17044 (`ERROR_INVALID_VERIFICATION_CODE`): The multifactor verification code used to create the auth credential is invalid.
    public static let invalidVerificationCode = AuthErrorCode(known: 17044)
    /// 17045 (`ERROR_MISSING_VERIFICATION_ID`): The phone auth credential was created with an empty verification ID.
    public static let missingVerificationID = AuthErrorCode(known: 17045)
    /// 17046 (`ERROR_INVALID_VERIFICATION_ID`): The verification ID used to create the phone auth credential is invalid.
    public static let invalidVerificationID = AuthErrorCode(known: 17046)
    /// 17047 (`MISSING_APP_CREDENTIAL`): The phone verification request is missing an APNs Device token.
    public static let missingAppCredential = AuthErrorCode(known: 17047)
    /// 17048 (`INVALID_APP_CREDENTIAL`): The APNs device token provided is either incorrect or does not match the private certificate uploaded to the Firebase Console.
    public static let invalidAppCredential = AuthErrorCode(known: 17048)
    /// 17051 (`ERROR_SESSION_EXPIRED`): The SMS code has expired.
    public static let sessionExpired = AuthErrorCode(known: 17051)
    /// 17052 (`ERROR_QUOTA_EXCEEDED`): The quota for this operation has been exceeded.
    public static let quotaExceeded = AuthErrorCode(known: 17052)
    /// 17053 (`ERROR_MISSING_APP_TOKEN`): There seems to be a problem with your project's Firebase phone number authentication set-up, please make sure to follow the instructions found at https://firebase.google.com/docs/auth/ios/phone-auth.
    public static let missingAppToken = AuthErrorCode(known: 17053)
    /// 17054 (`ERROR_NOTIFICATION_NOT_FORWARDED`): If app delegate swizzling is disabled, remote notifications received by UIApplicationDelegate need tobe forwarded to FirebaseAuth's canHandleNotification method.
    public static let notificationNotForwarded = AuthErrorCode(known: 17054)
    /// 17055 (`ERROR_APP_NOT_VERIFIED`): Firebase could not retrieve the silent push notification and therefore could not verify your app.
    public static let appNotVerified = AuthErrorCode(known: 17055)
    /// 17056 (`ERROR_CAPTCHA_CHECK_FAILED`): The reCAPTCHA response token provided is either invalid, expired or already.
    public static let captchaCheckFailed = AuthErrorCode(known: 17056)
    /// 17057 (`ERROR_WEB_CONTEXT_ALREADY_PRESENTED`): User interaction is still ongoing, another view cannot be presented.
    public static let webContextAlreadyPresented = AuthErrorCode(known: 17057)
    /// 17058 (`ERROR_WEB_CONTEXT_CANCELLED`): The interaction was cancelled by the user.
    public static let webContextCancelled = AuthErrorCode(known: 17058)
    /// 17059 (`ERROR_APP_VERIFICATION_FAILED`): The app verification process has failed, print and inspect the error details for more information.
    public static let appVerificationUserInteractionFailure = AuthErrorCode(known: 17059)
    /// 17060 (`ERROR_INVALID_CLIENT_ID`): The OAuth client ID provided is either invalid or does not match the specified API key.
    public static let invalidClientID = AuthErrorCode(known: 17060)
    /// 17061 (`ERROR_WEB_NETWORK_REQUEST_FAILED`): A network error (such as timeout, interrupted connection, or unreachable host) has occurred within the web context.
    public static let webNetworkRequestFailed = AuthErrorCode(known: 17061)
    /// 17062 (`ERROR_WEB_INTERNAL_ERROR`): An internal error has occurred within the SFSafariViewController or WKWebView.
    public static let webInternalError = AuthErrorCode(known: 17062)
    /// 17063 (`ERROR_WEB_USER_INTERACTION_FAILURE`): The app verification process has failed, print and inspect the error details for more information.
    public static let webSignInUserInteractionFailure = AuthErrorCode(known: 17063)
    /// 17066 (`ERROR_LOCAL_PLAYER_NOT_AUTHENTICATED`): The local player is not authenticated.
    public static let localPlayerNotAuthenticated = AuthErrorCode(known: 17066)
    /// 17067 (`ERROR_NULL_USER`): A null user object was provided as the argument for an operation which requires a non-null user object.
    public static let nullUser = AuthErrorCode(known: 17067)
    /// 17068 (`ERROR_DYNAMIC_LINK_NOT_ACTIVATED`): Please activate Dynamic Links in the Firebase Console and agree to the terms and conditions.
    public static let dynamicLinkNotActivated = AuthErrorCode(known: 17068)
    /// 17071 (`ERROR_INVALID_PROVIDER_ID`): The provider ID provided for the attempted web operation is invalid.
    public static let invalidProviderID = AuthErrorCode(known: 17071)
    /// 17072 (`ERROR_TENANT_ID_MISMATCH`): The provided user's tenant ID does not match the Auth instance's tenant ID.
    public static let tenantIDMismatch = AuthErrorCode(known: 17072)
    /// 17073 (`ERROR_UNSUPPORTED_TENANT_OPERATION`): This operation is not supported in a multi-tenant context.
    public static let unsupportedTenantOperation = AuthErrorCode(known: 17073)
    /// 17074 (`ERROR_INVALID_DYNAMIC_LINK_DOMAIN`): The Firebase Dynamic Link domain used is either not configured or is unauthorized for the current project.
    public static let invalidDynamicLinkDomain = AuthErrorCode(known: 17074)
    /// 17075 (`ERROR_REJECTED_CREDENTIAL`): The request contains malformed or mismatching credentials.
    public static let rejectedCredential = AuthErrorCode(known: 17075)
    /// 17076 (`ERROR_GAME_KIT_NOT_LINKED`): The GameKit framework is not linked.
    public static let gameKitNotLinked = AuthErrorCode(known: 17076)
    /// 17078 (`ERROR_SECOND_FACTOR_REQUIRED`): Please complete a second factor challenge to finish signing into this account.
    public static let secondFactorRequired = AuthErrorCode(known: 17078)
    /// 17081 (`ERROR_MISSING_MULTI_FACTOR_SESSION`): The request is missing proof of first factor successful sign-in.
    public static let missingMultiFactorSession = AuthErrorCode(known: 17081)
    /// 17082 (`ERROR_MISSING_MULTI_FACTOR_INFO`): No second factor identifier is provided.
    public static let missingMultiFactorInfo = AuthErrorCode(known: 17082)
    /// 17083 (`ERROR_INVALID_MULTI_FACTOR_SESSION`): The request does not contain a valid proof of first factor successful sign-in.
    public static let invalidMultiFactorSession = AuthErrorCode(known: 17083)
    /// 17084 (`ERROR_MULTI_FACTOR_INFO_NOT_FOUND`): The user does not have a second factor matching the identifier provided.
    public static let multiFactorInfoNotFound = AuthErrorCode(known: 17084)
    /// 17085 (`ERROR_ADMIN_RESTRICTED_OPERATION`): This operation is restricted to administrators only.
    public static let adminRestrictedOperation = AuthErrorCode(known: 17085)
    /// 17086 (`ERROR_UNVERIFIED_EMAIL`): The operation requires a verified email.
    public static let unverifiedEmail = AuthErrorCode(known: 17086)
    /// 17087 (`ERROR_SECOND_FACTOR_ALREADY_ENROLLED`): The second factor is already enrolled on this account.
    public static let secondFactorAlreadyEnrolled = AuthErrorCode(known: 17087)
    /// 17088 (`ERROR_MAXIMUM_SECOND_FACTOR_COUNT_EXCEEDED`): The maximum allowed number of second factors on a user has been exceeded.
    public static let maximumSecondFactorCountExceeded = AuthErrorCode(known: 17088)
    /// 17089 (`ERROR_UNSUPPORTED_FIRST_FACTOR`): Enrolling a second factor or signing in with a multi-factor account requires sign-in with a supported first factor.
    public static let unsupportedFirstFactor = AuthErrorCode(known: 17089)
    /// 17090 (`ERROR_EMAIL_CHANGE_NEEDS_VERIFICATION`): Multi-factor users must always have a verified email.
    public static let emailChangeNeedsVerification = AuthErrorCode(known: 17090)
    /// 17093 (`ERROR_MISSING_CLIENT_IDENTIFIER`): The request does not contain a client identifier.
    public static let missingClientIdentifier = AuthErrorCode(known: 17093)
    /// 17094 (`ERROR_MISSING_OR_INVALID_NONCE`): The request contains malformed or mismatched credentials.
    public static let missingOrInvalidNonce = AuthErrorCode(known: 17094)
    /// 17105 (`ERROR_BLOCKING_CLOUD_FUNCTION_RETURNED_ERROR`): Blocking cloud function returned an error.
    public static let blockingCloudFunctionError = AuthErrorCode(known: 17105)
    /// 17200 (`ERROR_RECAPTCHA_NOT_ENABLED`): reCAPTCHA Enterprise is not enabled for this project.
    public static let recaptchaNotEnabled = AuthErrorCode(known: 17200)
    /// 17201 (`ERROR_MISSING_RECAPTCHA_TOKEN`): The backend request is missing the reCAPTCHA verification token.
    public static let missingRecaptchaToken = AuthErrorCode(known: 17201)
    /// 17202 (`ERROR_INVALID_RECAPTCHA_TOKEN`): The reCAPTCHA verification token is invalid or has expired.
    public static let invalidRecaptchaToken = AuthErrorCode(known: 17202)
    /// 17203 (`ERROR_INVALID_RECAPTCHA_ACTION`): The reCAPTCHA verification failed due to an invalid action.
    public static let invalidRecaptchaAction = AuthErrorCode(known: 17203)
    /// 17204 (`ERROR_MISSING_CLIENT_TYPE`): The request is missing a client type or the client type is invalid.
    public static let missingClientType = AuthErrorCode(known: 17204)
    /// 17205 (`ERROR_MISSING_RECAPTCHA_VERSION`): The request is missing the reCAPTCHA version parameter.
    public static let missingRecaptchaVersion = AuthErrorCode(known: 17205)
    /// 17206 (`ERROR_INVALID_RECAPTCHA_VERSION`): The request specifies an invalid version of reCAPTCHA.
    public static let invalidRecaptchaVersion = AuthErrorCode(known: 17206)
    /// 17207 (`ERROR_INVALID_REQ_TYPE`): The request is not supported or is invalid.
    public static let invalidReqType = AuthErrorCode(known: 17207)
    /// 17208 (`ERROR_RECAPTCHA_SDK_NOT_LINKED`): The reCAPTCHA SDK is not linked to your app.
    public static let recaptchaSDKNotLinked = AuthErrorCode(known: 17208)
    /// 17209 (`ERROR_RECAPTCHA_SITE_KEY_MISSING`): The reCAPTCHA SDK site key wasn't found.
    public static let recaptchaSiteKeyMissing = AuthErrorCode(known: 17209)
    /// 17210 (`ERROR_RECAPTCHA_ACTION_CREATION_FAILED`): The reCAPTCHA SDK action class failed to initialize.
    public static let recaptchaActionCreationFailed = AuthErrorCode(known: 17210)

    /// 17211 (`ERROR_PASSWORD_DOES_NOT_MEET_REQUIREMENTS`): the project's password policy refused the password.
    public static let passwordDoesNotMeetRequirements = AuthErrorCode(known: 17211)

    /// 17214 (`ERROR_INVALID_HOSTING_LINK_DOMAIN`): `linkDomain` is not one of the project's Hosting domains.
    public static let invalidHostingLinkDomain = AuthErrorCode(known: 17214)
    /// 17995 (`ERROR_KEYCHAIN_ERROR`): An error occurred when accessing the keychain.
    public static let keychainError = AuthErrorCode(known: 17995)
    /// 17999 (`ERROR_INTERNAL_ERROR`): An internal error has occurred, print and inspect the error details for more information.
    public static let internalError = AuthErrorCode(known: 17999)
    /// 18000 (`ERROR_MALFORMED_JWT`): Failed to parse JWT.
    public static let malformedJWT = AuthErrorCode(known: 18000)

    /// The code of the SDK's case name (`"userDisabled"`): how the engine's codes, named as the
    /// SDK's, become the SDK's.
    static func named(_ name: String) -> AuthErrorCode? { caseNames[name].map { AuthErrorCode(known: $0) } }

    private static let caseNames: [String: Int] = [
        "invalidCustomToken": 17000,
        "customTokenMismatch": 17002,
        "invalidCredential": 17004,
        "userDisabled": 17005,
        "operationNotAllowed": 17006,
        "emailAlreadyInUse": 17007,
        "invalidEmail": 17008,
        "wrongPassword": 17009,
        "tooManyRequests": 17010,
        "userNotFound": 17011,
        "accountExistsWithDifferentCredential": 17012,
        "requiresRecentLogin": 17014,
        "providerAlreadyLinked": 17015,
        "noSuchProvider": 17016,
        "invalidUserToken": 17017,
        "networkError": 17020,
        "userTokenExpired": 17021,
        "invalidAPIKey": 17023,
        "userMismatch": 17024,
        "credentialAlreadyInUse": 17025,
        "weakPassword": 17026,
        "appNotAuthorized": 17028,
        "expiredActionCode": 17029,
        "invalidActionCode": 17030,
        "invalidMessagePayload": 17031,
        "invalidSender": 17032,
        "invalidRecipientEmail": 17033,
        "missingEmail": 17034,
        "missingIosBundleID": 17036,
        "missingAndroidPackageName": 17037,
        "unauthorizedDomain": 17038,
        "invalidContinueURI": 17039,
        "missingContinueURI": 17040,
        "missingPhoneNumber": 17041,
        "invalidPhoneNumber": 17042,
        "missingVerificationCode": 17043,
        "invalidVerificationCode": 17044,
        "missingVerificationID": 17045,
        "invalidVerificationID": 17046,
        "missingAppCredential": 17047,
        "invalidAppCredential": 17048,
        "sessionExpired": 17051,
        "quotaExceeded": 17052,
        "missingAppToken": 17053,
        "notificationNotForwarded": 17054,
        "appNotVerified": 17055,
        "captchaCheckFailed": 17056,
        "webContextAlreadyPresented": 17057,
        "webContextCancelled": 17058,
        "appVerificationUserInteractionFailure": 17059,
        "invalidClientID": 17060,
        "webNetworkRequestFailed": 17061,
        "webInternalError": 17062,
        "webSignInUserInteractionFailure": 17063,
        "localPlayerNotAuthenticated": 17066,
        "nullUser": 17067,
        "dynamicLinkNotActivated": 17068,
        "invalidProviderID": 17071,
        "tenantIDMismatch": 17072,
        "unsupportedTenantOperation": 17073,
        "invalidDynamicLinkDomain": 17074,
        "rejectedCredential": 17075,
        "gameKitNotLinked": 17076,
        "secondFactorRequired": 17078,
        "missingMultiFactorSession": 17081,
        "missingMultiFactorInfo": 17082,
        "invalidMultiFactorSession": 17083,
        "multiFactorInfoNotFound": 17084,
        "adminRestrictedOperation": 17085,
        "unverifiedEmail": 17086,
        "secondFactorAlreadyEnrolled": 17087,
        "maximumSecondFactorCountExceeded": 17088,
        "unsupportedFirstFactor": 17089,
        "emailChangeNeedsVerification": 17090,
        "missingClientIdentifier": 17093,
        "missingOrInvalidNonce": 17094,
        "blockingCloudFunctionError": 17105,
        "recaptchaNotEnabled": 17200,
        "missingRecaptchaToken": 17201,
        "invalidRecaptchaToken": 17202,
        "invalidRecaptchaAction": 17203,
        "missingClientType": 17204,
        "missingRecaptchaVersion": 17205,
        "invalidRecaptchaVersion": 17206,
        "invalidReqType": 17207,
        "recaptchaSDKNotLinked": 17208,
        "recaptchaSiteKeyMissing": 17209,
        "recaptchaActionCreationFailed": 17210,
        "passwordDoesNotMeetRequirements": 17211,
        "invalidHostingLinkDomain": 17214,
        "keychainError": 17995,
        "internalError": 17999,
        "malformedJWT": 18000,
    ]

    /// Raw value → the SDK's short name and message.
    fileprivate static let table: [Int: (name: String, message: String)] = [
        17000: ("ERROR_INVALID_CUSTOM_TOKEN", "The custom token format is incorrect. Please check the documentation."),
        17002: ("ERROR_CUSTOM_TOKEN_MISMATCH", "The custom token corresponds to a different audience."),
        17004: ("ERROR_INVALID_CREDENTIAL", "The supplied auth credential is malformed or has expired."),
        17005: ("ERROR_USER_DISABLED", "The user account has been disabled by an administrator."),
        17006: ("ERROR_OPERATION_NOT_ALLOWED", "The given sign-in provider is disabled for this Firebase project. Enable it in the Firebase console, under the sign-in method tab of the Auth section."),
        17007: ("ERROR_EMAIL_ALREADY_IN_USE", "The email address is already in use by another account."),
        17008: ("ERROR_INVALID_EMAIL", "The email address is badly formatted."),
        17009: ("ERROR_WRONG_PASSWORD", "The password is invalid or the user does not have a password."),
        17010: ("ERROR_TOO_MANY_REQUESTS", "We have blocked all requests from this device due to unusual activity. Try again later."),
        17011: ("ERROR_USER_NOT_FOUND", "There is no user record corresponding to this identifier. The user may have been deleted."),
        17012: ("ERROR_ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL", "An account already exists with the same email address but different sign-in credentials. Sign in using a provider associated with this email address."),
        17014: ("ERROR_REQUIRES_RECENT_LOGIN", "This operation is sensitive and requires recent authentication. Log in again before retrying this request."),
        17015: ("ERROR_PROVIDER_ALREADY_LINKED", "[ERROR_PROVIDER_ALREADY_LINKED] - User can only be linked to one identity for the given provider."),
        17016: ("ERROR_NO_SUCH_PROVIDER", "User was not linked to an account with the given provider."),
        17017: ("ERROR_INVALID_USER_TOKEN", "This user's credential isn't valid for this project. This can happen if the user's token has been tampered with, or if the user doesn’t belong to the project associated with the API key used in your request."),
        17020: ("ERROR_NETWORK_REQUEST_FAILED", "Network error (such as timeout, interrupted connection or unreachable host) has occurred."),
        17021: ("ERROR_USER_TOKEN_EXPIRED", "The user's credential is no longer valid. The user must sign in again."),
        17023: ("ERROR_INVALID_API_KEY", "An invalid API Key was supplied in the request."),
        17024: ("ERROR_USER_MISMATCH", "The supplied credentials do not correspond to the previously signed in user."),
        17025: ("ERROR_CREDENTIAL_ALREADY_IN_USE", "This credential is already associated with a different user account."),
        17026: ("ERROR_WEAK_PASSWORD", "The password must be 6 characters long or more."),
        17028: ("ERROR_APP_NOT_AUTHORIZED", "This app is not authorized to use Firebase Authentication with the provided API key. Review your key configuration in the Google API console and ensure that it accepts requests from your app's bundle ID."),
        17029: ("ERROR_EXPIRED_ACTION_CODE", "The action code has expired."),
        17030: ("ERROR_INVALID_ACTION_CODE", "The action code is invalid. This can happen if the code is malformed, expired, or has already been used."),
        17031: ("ERROR_INVALID_MESSAGE_PAYLOAD", "The action code is invalid. This can happen if the code is malformed, expired, or has already been used."),
        17032: ("ERROR_INVALID_SENDER", "The email template corresponding to this action contains invalid characters in its message. Please fix by going to the Auth email templates section in the Firebase Console."),
        17033: ("ERROR_INVALID_RECIPIENT_EMAIL", "The action code is invalid. This can happen if the code is malformed, expired, or has already been used."),
        17034: ("ERROR_MISSING_EMAIL", "An email address must be provided."),
        17036: ("ERROR_MISSING_IOS_BUNDLE_ID", "An iOS Bundle ID must be provided if an App Store ID is provided."),
        17037: ("ERROR_MISSING_ANDROID_PKG_NAME", "An Android Package Name must be provided if the Android App is required to be installed."),
        17038: ("ERROR_UNAUTHORIZED_DOMAIN", "The domain of the continue URL is not allowlisted. Please allowlist the domain in the Firebase console."),
        17039: ("ERROR_INVALID_CONTINUE_URI", "The continue URL provided in the request is invalid."),
        17040: ("ERROR_MISSING_CONTINUE_URI", "A continue URL must be provided in the request."),
        17041: ("ERROR_MISSING_PHONE_NUMBER", "To send verification codes, provide a phone number for the recipient."),
        17042: ("ERROR_INVALID_PHONE_NUMBER", "The format of the phone number provided is incorrect. Please enter the phone number in a format that can be parsed into E.164 format. E.164 phone numbers are written in the format [+][country code][subscriber number including area code]."),
        17043: ("ERROR_MISSING_VERIFICATION_CODE", "The phone auth credential was created with an empty SMS verification Code."),
        17044: ("ERROR_INVALID_VERIFICATION_CODE", "The multifactor verification code used to create the auth credential is invalid. Re-collect the verification code and be sure to use the verification code provided by the user."),
        17045: ("ERROR_MISSING_VERIFICATION_ID", "The phone auth credential was created with an empty verification ID."),
        17046: ("ERROR_INVALID_VERIFICATION_ID", "The verification ID used to create the phone auth credential is invalid."),
        17047: ("MISSING_APP_CREDENTIAL", "The phone verification request is missing an APNs Device token. Firebase Auth automatically detects APNs Device Tokens, however, if method swizzling is disabled, the APNs token must be set via the APNSToken property on FIRAuth or by calling setAPNSToken:type on FIRAuth."),
        17048: ("INVALID_APP_CREDENTIAL", "The APNs device token provided is either incorrect or does not match the private certificate uploaded to the Firebase Console."),
        17051: ("ERROR_SESSION_EXPIRED", "The SMS code has expired. Please re-send the verification code to try again."),
        17052: ("ERROR_QUOTA_EXCEEDED", "The quota for this operation has been exceeded."),
        17053: ("ERROR_MISSING_APP_TOKEN", "There seems to be a problem with your project's Firebase phone number authentication set-up, please make sure to follow the instructions found at https://firebase.google.com/docs/auth/ios/phone-auth"),
        17054: ("ERROR_NOTIFICATION_NOT_FORWARDED", "If app delegate swizzling is disabled, remote notifications received by UIApplicationDelegate need tobe forwarded to FirebaseAuth's canHandleNotification method."),
        17055: ("ERROR_APP_NOT_VERIFIED", "Firebase could not retrieve the silent push notification and therefore could not verify your app. Ensure that you configured your app correctly to receive push notifications."),
        17056: ("ERROR_CAPTCHA_CHECK_FAILED", "The reCAPTCHA response token provided is either invalid, expired or already"),
        17057: ("ERROR_WEB_CONTEXT_ALREADY_PRESENTED", "User interaction is still ongoing, another view cannot be presented."),
        17058: ("ERROR_WEB_CONTEXT_CANCELLED", "The interaction was cancelled by the user."),
        17059: ("ERROR_APP_VERIFICATION_FAILED", "The app verification process has failed, print and inspect the error details for more information"),
        17060: ("ERROR_INVALID_CLIENT_ID", "The OAuth client ID provided is either invalid or does not match the specified API key."),
        17061: ("ERROR_WEB_NETWORK_REQUEST_FAILED", "A network error (such as timeout, interrupted connection, or unreachable host) has occurred within the web context."),
        17062: ("ERROR_WEB_INTERNAL_ERROR", "An internal error has occurred within the SFSafariViewController or WKWebView."),
        17063: ("ERROR_WEB_USER_INTERACTION_FAILURE", "The app verification process has failed, print and inspect the error details for more information"),
        17066: ("ERROR_LOCAL_PLAYER_NOT_AUTHENTICATED", "The local player is not authenticated. Please log the local player in to Game Center."),
        17067: ("ERROR_NULL_USER", "A null user object was provided as the argument for an operation which requires a non-null user object."),
        17068: ("ERROR_DYNAMIC_LINK_NOT_ACTIVATED", "Please activate Dynamic Links in the Firebase Console and agree to the terms and conditions."),
        17071: ("ERROR_INVALID_PROVIDER_ID", "The provider ID provided for the attempted web operation is invalid."),
        17072: ("ERROR_TENANT_ID_MISMATCH", "The provided user's tenant ID does not match the Auth instance's tenant ID."),
        17073: ("ERROR_UNSUPPORTED_TENANT_OPERATION", "This operation is not supported in a multi-tenant context."),
        17074: ("ERROR_INVALID_DYNAMIC_LINK_DOMAIN", "The Firebase Dynamic Link domain used is either not configured or is unauthorized for the current project."),
        17075: ("ERROR_REJECTED_CREDENTIAL", "The request contains malformed or mismatching credentials."),
        17076: ("ERROR_GAME_KIT_NOT_LINKED", "The GameKit framework is not linked. Please turn on the Game Center capability."),
        17078: ("ERROR_SECOND_FACTOR_REQUIRED", "Please complete a second factor challenge to finish signing into this account."),
        17081: ("ERROR_MISSING_MULTI_FACTOR_SESSION", "The request is missing proof of first factor successful sign-in."),
        17082: ("ERROR_MISSING_MULTI_FACTOR_INFO", "No second factor identifier is provided."),
        17083: ("ERROR_INVALID_MULTI_FACTOR_SESSION", "The request does not contain a valid proof of first factor successful sign-in."),
        17084: ("ERROR_MULTI_FACTOR_INFO_NOT_FOUND", "The user does not have a second factor matching the identifier provided."),
        17085: ("ERROR_ADMIN_RESTRICTED_OPERATION", "This operation is restricted to administrators only."),
        17086: ("ERROR_UNVERIFIED_EMAIL", "The operation requires a verified email."),
        17087: ("ERROR_SECOND_FACTOR_ALREADY_ENROLLED", "The second factor is already enrolled on this account."),
        17088: ("ERROR_MAXIMUM_SECOND_FACTOR_COUNT_EXCEEDED", "The maximum allowed number of second factors on a user has been exceeded."),
        17089: ("ERROR_UNSUPPORTED_FIRST_FACTOR", "Enrolling a second factor or signing in with a multi-factor account requires sign-in with a supported first factor."),
        17090: ("ERROR_EMAIL_CHANGE_NEEDS_VERIFICATION", "Multi-factor users must always have a verified email."),
        17093: ("ERROR_MISSING_CLIENT_IDENTIFIER", "The request does not contain a client identifier."),
        17094: ("ERROR_MISSING_OR_INVALID_NONCE", "The request contains malformed or mismatched credentials."),
        17105: ("ERROR_BLOCKING_CLOUD_FUNCTION_RETURNED_ERROR", "Blocking cloud function returned an error."),
        17200: ("ERROR_RECAPTCHA_NOT_ENABLED", "reCAPTCHA Enterprise is not enabled for this project."),
        17201: ("ERROR_MISSING_RECAPTCHA_TOKEN", "The backend request is missing the reCAPTCHA verification token."),
        17202: ("ERROR_INVALID_RECAPTCHA_TOKEN", "The reCAPTCHA verification token is invalid or has expired."),
        17203: ("ERROR_INVALID_RECAPTCHA_ACTION", "The reCAPTCHA verification failed due to an invalid action."),
        17204: ("ERROR_MISSING_CLIENT_TYPE", "The request is missing a client type or the client type is invalid."),
        17205: ("ERROR_MISSING_RECAPTCHA_VERSION", "The request is missing the reCAPTCHA version parameter."),
        17206: ("ERROR_INVALID_RECAPTCHA_VERSION", "The request specifies an invalid version of reCAPTCHA."),
        17207: ("ERROR_INVALID_REQ_TYPE", "The request is not supported or is invalid."),
        17208: ("ERROR_RECAPTCHA_SDK_NOT_LINKED", "The reCAPTCHA SDK is not linked to your app. See https://cloud.google.com/recaptcha-enterprise/docs/instrument-ios-apps"),
        17209: ("ERROR_RECAPTCHA_SITE_KEY_MISSING", "The reCAPTCHA SDK site key wasn't found. See https://cloud.google.com/recaptcha-enterprise/docs/instrument-ios-apps"),
        17210: ("ERROR_RECAPTCHA_ACTION_CREATION_FAILED", "The reCAPTCHA SDK action class failed to initialize. See https://cloud.google.com/recaptcha-enterprise/docs/instrument-ios-apps"),
        17211: ("ERROR_PASSWORD_DOES_NOT_MEET_REQUIREMENTS", "Missing password requirements."),
        17214: ("ERROR_INVALID_HOSTING_LINK_DOMAIN", "The provided hosting link domain is not configured in Firebase Hosting or is not owned by the current project."),
        17995: ("ERROR_KEYCHAIN_ERROR", "An error occurred when accessing the keychain. The NSLocalizedFailureReasonErrorKey field in the NSError.userInfo dictionary will contain more information about the error encountered"),
        17999: ("ERROR_INTERNAL_ERROR", "An internal error has occurred, print and inspect the error details for more information."),
        18000: ("ERROR_MALFORMED_JWT", "Failed to parse JWT. Check the userInfo dictionary for the full token."),
    ]

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
        case "WEAK_PASSWORD": .weakPassword
        case "PASSWORD_DOES_NOT_MEET_REQUIREMENTS": .passwordDoesNotMeetRequirements
        case "INVALID_HOSTING_LINK_DOMAIN": .invalidHostingLinkDomain
        case "EXPIRED_OOB_CODE": .expiredActionCode
        case "INVALID_OOB_CODE": .invalidActionCode
        case "MISSING_EMAIL": .missingEmail
        case "UNAUTHORIZED_DOMAIN": .unauthorizedDomain
        case "INVALID_PROVIDER_ID": .invalidProviderID
        case "BLOCKING_FUNCTION_ERROR_RESPONSE": .blockingCloudFunctionError
        // The rest of AuthBackend.swift's table: phone numbers, second factors, mail, tenants.
        case "MISSING_CONTINUE_URI": .missingContinueURI
        case "INVALID_IDENTIFIER": .invalidEmail
        case "INVALID_MESSAGE_PAYLOAD": .invalidMessagePayload
        case "INVALID_SENDER": .invalidSender
        case "INVALID_RECIPIENT_EMAIL": .invalidRecipientEmail
        case "MISSING_IOS_BUNDLE_ID": .missingIosBundleID
        case "MISSING_ANDROID_PACKAGE_NAME": .missingAndroidPackageName
        case "INVALID_CONTINUE_URI": .invalidContinueURI
        case "INVALID_PHONE_NUMBER": .invalidPhoneNumber
        case "QUOTA_EXCEEDED": .quotaExceeded
        case "APP_NOT_VERIFIED": .appNotVerified
        case "CAPTCHA_CHECK_FAILED": .captchaCheckFailed
        case "INVALID_APP_CREDENTIAL": .invalidAppCredential
        case "MISSING_APP_CREDENTIAL": .missingAppCredential
        case "INVALID_CODE": .invalidVerificationCode
        case "INVALID_SESSION_INFO": .invalidVerificationID
        case "SESSION_EXPIRED": .sessionExpired
        case "ADMIN_ONLY_OPERATION": .adminRestrictedOperation
        case "EMAIL_CHANGE_NEEDS_VERIFICATION": .emailChangeNeedsVerification
        case "INVALID_MFA_PENDING_CREDENTIAL": .invalidMultiFactorSession
        case "MFA_ENROLLMENT_NOT_FOUND": .multiFactorInfoNotFound
        case "MISSING_CLIENT_IDENTIFIER": .missingClientIdentifier
        case "MISSING_IOS_APP_TOKEN": .missingAppToken
        case "MISSING_MFA_ENROLLMENT_ID": .missingMultiFactorInfo
        case "MISSING_MFA_PENDING_CREDENTIAL": .missingMultiFactorSession
        case "MISSING_OR_INVALID_NONCE": .missingOrInvalidNonce
        case "SECOND_FACTOR_EXISTS": .secondFactorAlreadyEnrolled
        case "SECOND_FACTOR_LIMIT_EXCEEDED": .maximumSecondFactorCountExceeded
        case "UNSUPPORTED_FIRST_FACTOR": .unsupportedFirstFactor
        case "UNSUPPORTED_TENANT_OPERATION": .unsupportedTenantOperation
        case "UNVERIFIED_EMAIL": .unverifiedEmail
        case "TENANT_ID_MISMATCH": .tenantIDMismatch
        // Not in the SDK's table; the codes its phone requests meet (VerifyPhoneNumberRequest.swift).
        case "MISSING_CODE": .missingVerificationCode
        case "MISSING_SESSION_INFO": .missingVerificationID
        case "MISSING_PHONE_NUMBER": .missingPhoneNumber
        case "PHONE_NUMBER_EXISTS": .credentialAlreadyInUse
        default: nil
        }
    }
}

/// FBAuth's failures as the SDK reports them: an `AuthErrorCode` (an `NSError` in
/// `FIRAuthErrorDomain` when cast) with the SDK's code, its message as the localized
/// description, fbauth's own one line as the failure reason, and the recovery keys the SDK's
/// guides read.
enum AuthErrorBridge {
    static func error(_ failure: FBAuthError, auth: Auth? = nil) -> AuthErrorCode {
        var userInfo: [String: Any] = [NSLocalizedFailureReasonErrorKey: failure.message]
        if case .secondFactorRequired(let pending) = failure, let auth {
            userInfo[AuthErrorUserInfoMultiFactorResolverKey] = MultiFactorResolver(pending, auth: auth)
        }
        switch failure {
        case .accountExists(let conflict), .credentialInUse(let conflict):
            if let email = conflict.email { userInfo[AuthErrorUserInfoEmailKey] = email }
            userInfo[AuthErrorUserInfoUpdatedCredentialKey] = OAuthCredential(pending: conflict.updatedCredential)
        default: break
        }
        return AuthErrorCode(sdkCode(failure), userInfo: userInfo)
    }

    static func error(_ code: AuthErrorCode, reason: String? = nil) -> AuthErrorCode {
        AuthErrorCode(code, userInfo: reason.map { [NSLocalizedFailureReasonErrorKey: $0] } ?? [:])
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
            // The engine names its codes as the SDK does; the few of its own are mapped here.
            switch failure.code {
            case .noCurrentUser: return .nullUser
            case .invalidArgument: return .internalError
            default: return AuthErrorCode.named(failure.code.rawValue) ?? .internalError
            }
        }
    }
}

/// How an `AuthErrorCode` prints: as the `NSError` it is on iOS (`Error Domain=FIRAuthErrorDomain
/// Code=17011 "There is no user record…"`), not as a structure of fields.
extension AuthErrorCode: CustomStringConvertible, CustomDebugStringConvertible {
    /// The error as its `NSError` describes it: domain, code, message and what it carries.
    public var description: String {
        let reason = (extraUserInfo[NSLocalizedFailureReasonErrorKey] as? String).map { " (\($0))" } ?? ""
        return "Error Domain=\(AuthErrorDomain) Code=\(rawValue) \"\(message)\"\(reason) \(name)"
    }

    /// The same as `description`.
    public var debugDescription: String { description }
}

#if !canImport(ObjectiveC)
/// Off Apple platforms Swift casts a thrown error to `NSError` only through this bridge, so
/// without it `catch let error as NSError where error.code == AuthErrorCode.x.rawValue`, the
/// idiom of the SDK's guides, would compile and never match. An `NSError` of `AuthErrorDomain`
/// casts back to its `AuthErrorCode`, as on iOS.
extension AuthErrorCode: _ObjectiveCBridgeable {
    /// The class this error bridges to.
    public typealias _ObjectiveCType = NSError

    /// The error as an `NSError` of `AuthErrorDomain`, with its code and `errorUserInfo`.
    public func _bridgeToObjectiveC() -> NSError {
        NSError(domain: AuthErrorDomain, code: rawValue, userInfo: errorUserInfo)
    }

    /// The code of an `NSError` of `AuthErrorDomain` (a cast that cannot fail).
    public static func _forceBridgeFromObjectiveC(_ source: NSError, result: inout AuthErrorCode?) {
        result = _unconditionallyBridgeFromObjectiveC(source)
    }

    /// The code of an `NSError` of `AuthErrorDomain` with one of the SDK's codes; false for
    /// any other error.
    public static func _conditionallyBridgeFromObjectiveC(_ source: NSError, result: inout AuthErrorCode?) -> Bool {
        guard source.domain == AuthErrorDomain, table[source.code] != nil else { return false }
        result = AuthErrorCode(known: source.code, userInfo: source.userInfo)
        return true
    }

    /// The code of `source`, whatever it is (the SDK's internal error for another domain).
    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSError?) -> AuthErrorCode {
        var result: AuthErrorCode?
        if let source, _conditionallyBridgeFromObjectiveC(source, result: &result), let result { return result }
        return AuthErrorCode(known: AuthErrorCode.internalError.rawValue, userInfo: source?.userInfo ?? [:])
    }
}
#endif
