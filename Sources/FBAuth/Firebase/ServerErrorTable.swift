/// Server error codes in plain words. Codes come from the
/// Identity Toolkit and securetoken (the Firebase Auth REST API reference; firebase-js-sdk
/// packages/auth/src/api/errors.ts); an unknown code is shown
/// as it came. Which `FBAuthErrorCode` each is: `FBAuthErrorCode.forServerCode`. The words speak
/// of Firebase and the account, never of a program's commands: a client adds its own way to
/// act on each code (fbauth's command line: `CommandLineRemedies`).
internal enum ServerErrorTable {
    internal struct Entry: Sendable {
        internal let sentence: String
    }

    internal static func entry(for code: String) -> Entry? { entries[code] }

    private static func refused(_ sentence: String) -> Entry { Entry(sentence: sentence) }

    private static let recaptcha = "this project protects email/password with reCAPTCHA Enterprise and the request's reCAPTCHA token was missing or not accepted; try again where a browser can open the reCAPTCHA page"

    private static func signInAgain(_ sentence: String) -> Entry { Entry(sentence: sentence) }

    private static let entries: [String: Entry] = [
        // Sessions and tokens.
        "TOKEN_EXPIRED": signInAgain("the session has expired or was revoked; sign in again"),
        "INVALID_REFRESH_TOKEN": signInAgain("the saved refresh token is not valid; sign in again"),
        "INVALID_ID_TOKEN": signInAgain("the saved ID token is no longer valid; sign in again"),
        "USER_NOT_FOUND": signInAgain("this user no longer exists; sign in again"),
        "USER_DISABLED": refused("this user account has been disabled by an administrator"),
        "CREDENTIAL_TOO_OLD_LOGIN_AGAIN": refused("this operation needs a recent sign-in; reauthenticate first"),
        "PROJECT_NUMBER_MISMATCH": refused("the refresh token belongs to another Firebase project than this API key"),
        "TENANT_ID_MISMATCH": refused("the tenant does not match the session's or the credential's tenant"),
        "INVALID_GRANT_TYPE": refused("the token request was malformed (grant type)"),
        "MISSING_REFRESH_TOKEN": refused("the token request had no refresh token"),
        // Identity-provider sign-in.
        // What the JS SDK maps to `auth/user-cancelled` (packages/auth/src/api/errors.ts).
        "USER_CANCELLED": Entry(sentence: "the sign-in was cancelled at the provider (consent was not given)"),
        "INVALID_IDP_RESPONSE": refused("the identity provider's answer was not accepted; sign in again"),
        "INVALID_PENDING_TOKEN": refused("the pending credential is not valid any more; sign in with the provider again"),
        "INVALID_CREDENTIAL_OR_PROVIDER_ID": refused("the credential or provider id was not accepted"),
        "INVALID_PROVIDER_ID": refused("this provider id is not known to the project"),
        "OPERATION_NOT_ALLOWED": refused("this sign-in provider is not enabled for the project (Firebase console → Authentication → Sign-in method)"),
        "FEDERATED_USER_ID_ALREADY_LINKED": refused("this provider account is already linked to another Firebase user"),
        "EMAIL_EXISTS": refused("the email address is already used by another account"),
        "INVALID_CONTINUE_URI": refused("the redirect URI was refused; check that it is registered and well-formed"),
        "MISSING_CONTINUE_URI": refused("the request had no redirect URI"),
        "UNAUTHORIZED_DOMAIN": refused("the redirect domain is not authorized for this project (Firebase console → Authentication → Settings → Authorized domains)"),
        "MISSING_OR_INVALID_NONCE": refused("the identity provider's nonce did not match"),
        "INVALID_OAUTH_CLIENT_ID": refused("the provider's OAuth client id configured in Firebase is not valid"),
        // Email, password and other sign-in methods.
        "EMAIL_NOT_FOUND": refused("there is no user with this email address"),
        "INVALID_PASSWORD": refused("the password is wrong"),
        "INVALID_LOGIN_CREDENTIALS": refused("the email or password is wrong"),
        "PASSWORD_LOGIN_DISABLED": refused("password sign-in is disabled for this project"),
        "INVALID_EMAIL": refused("the email address is not valid"),
        "INVALID_IDENTIFIER": refused("the email address is not valid"),
        "MISSING_EMAIL": refused("an email address is required"),
        "MISSING_PASSWORD": refused("a password is required"),
        "WEAK_PASSWORD": refused("the password is too weak"),
        "INVALID_CUSTOM_TOKEN": refused("the custom token is not valid"),
        "MISSING_CUSTOM_TOKEN": refused("the custom token is empty"),
        "MISSING_IDENTIFIER": refused("the custom token does not name a user (uid)"),
        "CREDENTIAL_MISMATCH": refused("the custom token belongs to another project"),
        // Returned when the project allows no new users (sign-up disabled, or anonymous
        // sign-in turned off): an administrator must create the user.
        "ADMIN_ONLY_OPERATION": refused("sign-ups are disabled for this project, so this sign-in cannot create a user (an administrator can create it, or allow sign-ups in Authentication → Settings → User actions)"),
        "PASSWORD_DOES_NOT_MEET_REQUIREMENTS": refused("the password does not meet the project's password policy"),
        // Mailed links (firebase-js-sdk packages/auth/src/api/errors.ts).
        "INVALID_OOB_CODE": refused("the link's code is not valid: it was used already, or belongs to an older email; ask for a new one"),
        "EXPIRED_OOB_CODE": refused("the link has expired; ask for a new one"),
        "MISSING_OOB_CODE": refused("the link carries no code"),
        "MISSING_REQ_TYPE": refused("the request did not say which email to send"),
        "INVALID_NEW_EMAIL": refused("the new email address is not valid"),
        "MISSING_NEW_EMAIL": refused("a new email address is required"),
        "INVALID_RECIPIENT_EMAIL": refused("the email could not be sent to this address"),
        "INVALID_SENDER": refused("the project's email sender is not valid (Firebase console → Authentication → Templates)"),
        "INVALID_MESSAGE_PAYLOAD": refused("the project's email template is not valid (Firebase console → Authentication → Templates)"),
        "RESET_PASSWORD_EXCEED_LIMIT": refused("too many password-reset emails for this address; try again later"),
        "PROVIDER_ALREADY_LINKED": refused("the user already has this sign-in method (a password is changed, not linked again)"),
        "REJECTED_CREDENTIAL": refused("the credential was rejected as malformed or mismatching"),
        "BLOCKING_FUNCTION_ERROR_RESPONSE": refused("a blocking function of the project refused the sign-in"),
        // reCAPTCHA Enterprise enforcement for password sign-in (the JS SDK's recaptcha errors).
        "MISSING_RECAPTCHA_TOKEN": refused(recaptcha),
        "INVALID_RECAPTCHA_TOKEN": refused(recaptcha),
        "INVALID_RECAPTCHA_ACTION": refused(recaptcha),
        "INVALID_RECAPTCHA_VERSION": refused(recaptcha),
        "MISSING_RECAPTCHA_VERSION": refused(recaptcha),
        "MISSING_CLIENT_TYPE": refused(recaptcha),
        "RECAPTCHA_NOT_ENABLED": refused("the request carried a reCAPTCHA token, but reCAPTCHA is not enabled for this project"),
        // Multi-factor authentication (firebase-js-sdk packages/auth/src/api/errors.ts).
        "INVALID_CODE": refused("the code is not right"),
        "INVALID_VERIFICATION_CODE": refused("the code is not right"),
        "MISSING_CODE": refused("a code is required"),
        "INVALID_SESSION_INFO": refused("the code's session is not valid; start again"),
        "MISSING_SESSION_INFO": refused("the code's session is missing; start again"),
        "SESSION_EXPIRED": refused("the code has expired; start again"),
        "CODE_EXPIRED": refused("the code has expired; start again"),
        "INVALID_MFA_PENDING_CREDENTIAL": refused("the second-factor sign-in has expired or was used; sign in again"),
        "MISSING_MFA_PENDING_CREDENTIAL": refused("the second-factor sign-in is missing; sign in again"),
        "MFA_ENROLLMENT_NOT_FOUND": refused("there is no such second factor"),
        "MISSING_MFA_ENROLLMENT_ID": refused("the second factor was not named"),
        "SECOND_FACTOR_EXISTS": refused("this second factor is enrolled already"),
        "SECOND_FACTOR_LIMIT_EXCEEDED": refused("the account has as many second factors as allowed; remove one first"),
        "UNSUPPORTED_FIRST_FACTOR": refused("second factors cannot be added to an account signed in this way (anonymously, with a custom token or a phone number); sign in with email/password or a provider"),
        "UNVERIFIED_EMAIL": refused("second factors need a verified email; open the link in Firebase's verification email first"),
        "INVALID_PHONE_NUMBER": refused("the phone number is not valid; give it in E.164 form (+15555550100)"),
        "MISSING_PHONE_NUMBER": refused("a phone number is required"),
        "CAPTCHA_CHECK_FAILED": refused("the reCAPTCHA check failed; try again"),
        "INVALID_APP_CREDENTIAL": refused("the reCAPTCHA token was not accepted; try again"),
        "MISSING_APP_CREDENTIAL": refused("the request needs a reCAPTCHA token"),
        // Tenants.
        "INVALID_TENANT_ID": refused("the tenant id is not valid for this project"),
        "UNSUPPORTED_TENANT_OPERATION": refused("this operation is not supported for a tenant"),
        // Project and quota.
        "TOO_MANY_ATTEMPTS_TRY_LATER": refused("too many attempts; try again later"),
        "QUOTA_EXCEEDED": refused("the project's quota is exceeded; try again later"),
        "CONFIGURATION_NOT_FOUND": refused("Identity Toolkit is not configured for this project (enable Authentication in the Firebase console)"),
        "PERMISSION_DENIED": refused("the request was refused: check the API key"),
        "NOT_IMPLEMENTED": refused("the server does not implement this operation"),
    ]
}
