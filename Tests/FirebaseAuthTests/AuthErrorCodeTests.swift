import FBAuthStandIn
import FirebaseAuth
import Foundation
import Testing

/// Issue 48: the SDK's error codes, each with its raw value, short name and message, read every
/// way SDK code reads them.
@Suite(.serialized) struct AuthErrorCodeTests {
    /// A sample of the SDK's table (firebase-ios-sdk AuthErrors.swift): value, name, message.
    @Test(arguments: [
        (AuthErrorCode.invalidCustomToken, 17000, "ERROR_INVALID_CUSTOM_TOKEN", "The custom token format is incorrect. Please check the documentation."),
        (.networkError, 17020, "ERROR_NETWORK_REQUEST_FAILED", "Network error (such as timeout, interrupted connection or unreachable host) has occurred."),
        (.missingAndroidPackageName, 17037, "ERROR_MISSING_ANDROID_PKG_NAME", "An Android Package Name must be provided if the Android App is required to be installed."),
        (.missingAppCredential, 17047, "MISSING_APP_CREDENTIAL", "The phone verification request is missing an APNs Device token. Firebase Auth automatically detects APNs Device Tokens, however, if method swizzling is disabled, the APNs token must be set via the APNSToken property on FIRAuth or by calling setAPNSToken:type on FIRAuth."),
        (.webSignInUserInteractionFailure, 17063, "ERROR_WEB_USER_INTERACTION_FAILURE", "The app verification process has failed, print and inspect the error details for more information"),
        (.secondFactorRequired, 17078, "ERROR_SECOND_FACTOR_REQUIRED", "Please complete a second factor challenge to finish signing into this account."),
        (.recaptchaActionCreationFailed, 17210, "ERROR_RECAPTCHA_ACTION_CREATION_FAILED", "The reCAPTCHA SDK action class failed to initialize. See https://cloud.google.com/recaptcha-enterprise/docs/instrument-ios-apps"),
        (.passwordDoesNotMeetRequirements, 17211, "ERROR_PASSWORD_DOES_NOT_MEET_REQUIREMENTS", "Missing password requirements."),
        (.invalidHostingLinkDomain, 17214, "ERROR_INVALID_HOSTING_LINK_DOMAIN", "The provided hosting link domain is not configured in Firebase Hosting or is not owned by the current project."),
        (.malformedJWT, 18000, "ERROR_MALFORMED_JWT", "Failed to parse JWT. Check the userInfo dictionary for the full token."),
    ] as [(AuthErrorCode, Int, String, String)])
    func eachCodeHasTheSDKsValueNameAndMessage(code: AuthErrorCode, value: Int, name: String, message: String) {
        #expect(code.rawValue == value && AuthErrorCode(rawValue: value) == code)
        let error = code as NSError
        #expect(error.domain == "FIRAuthErrorDomain" && error.code == value)
        #expect(error.userInfo[AuthErrorUserInfoNameKey] as? String == name && error.localizedDescription == message, "\(error.userInfo)")
    }

    @Test func valuesThatAreNoCodeAreNone() {
        #expect(AuthErrorCode(rawValue: 17001) == nil && AuthErrorCode(rawValue: 0) == nil && AuthErrorCode(rawValue: 17035) == nil)
    }

    /// A thrown error reads as the SDK's: `as? AuthErrorCode` and `.code`, and as an `NSError`
    /// with the code, the message and fbauth's reason.
    @Test func aThrownErrorIsAnAuthErrorCodeAndAnNSError() async throws {
        let setup = try StandInApp()
        _ = try await setup.auth.createUser(withEmail: "pat@example.com", password: "correct horse battery")
        do {
            _ = try await setup.auth.createUser(withEmail: "pat@example.com", password: "another long one")
            Issue.record("the second account was made")
        } catch {
            let code = try #require(error as? AuthErrorCode, "\(type(of: error))")
            #expect(code.code == .emailAlreadyInUse && code == .emailAlreadyInUse)
            switch code.code {
            case .emailAlreadyInUse: break
            default: Issue.record("switch: \(code.rawValue)")
            }
            let ns = error as NSError
            #expect(ns.domain == AuthErrorDomain && ns.code == AuthErrorCode.emailAlreadyInUse.rawValue)
            #expect(ns.localizedDescription == "The email address is already in use by another account.")
            #expect((ns.userInfo[NSLocalizedFailureReasonErrorKey] as? String)?.isEmpty == false, "\(ns.userInfo)")
            #expect(AuthErrorCode(rawValue: ns.code) == .emailAlreadyInUse)
        }
    }
}
