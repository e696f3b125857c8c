#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthHTTP
import FBAuthVerification

/// Where an email action link leads, and which app opens it (firebase-admin-node
/// `ActionCodeSettings`).
package struct AdminActionSettings: Sendable {
    package var url: String
    package var handleCodeInApp = false
    package var iOSBundleId: String?
    package var androidPackageName: String?
    package var androidMinimumVersion: String?
    package var androidInstallApp = false
    package var linkDomain: String?
    package var dynamicLinkDomain: String?

    package init(url: String) { self.url = url }

    /// The fields of `accounts:sendOobCode`, checked as `ActionCodeSettingsBuilder` checks them.
    func fields() throws(TokenRefusal) -> [String: JSONValue] {
        do throws(TokenRefusal) { try AdminChecks.photoURL(url) } catch { throw AdminErrors.client("INVALID_CONTINUE_URI") }
        var fields: [String: JSONValue] = ["continueUrl": .string(url), "canHandleCodeInApp": .bool(handleCodeInApp)]
        if let dynamicLinkDomain {
            guard !dynamicLinkDomain.isEmpty else { throw AdminErrors.client("INVALID_DYNAMIC_LINK_DOMAIN") }
            fields["dynamicLinkDomain"] = .string(dynamicLinkDomain)
        }
        if let linkDomain {
            guard !linkDomain.isEmpty else { throw AdminErrors.client("INVALID_HOSTING_LINK_DOMAIN") }
            fields["linkDomain"] = .string(linkDomain)
        }
        if let iOSBundleId {
            guard !iOSBundleId.isEmpty else {
                throw AdminErrors.client("INVALID_ARGUMENT", message: "\"ActionCodeSettings.iOS.bundleId\" must be a valid non-empty string.")
            }
            fields["iOSBundleId"] = .string(iOSBundleId)
        }
        if let androidPackageName {
            guard !androidPackageName.isEmpty else {
                throw AdminErrors.client("INVALID_ARGUMENT", message: "\"ActionCodeSettings.android.packageName\" must be a valid non-empty string.")
            }
            fields["androidPackageName"] = .string(androidPackageName)
            fields["androidInstallApp"] = .bool(androidInstallApp)
            if let androidMinimumVersion {
                guard !androidMinimumVersion.isEmpty else {
                    throw AdminErrors.client("INVALID_ARGUMENT", message: "\"ActionCodeSettings.android.minimumVersion\" must be a valid non-empty string.")
                }
                fields["androidMinimumVersion"] = .string(androidMinimumVersion)
            }
        }
        return fields
    }
}

extension AdminAPI {
    /// The kinds of email action link (`accounts:sendOobCode`'s `requestType`).
    package enum LinkKind: String, Sendable {
        case passwordReset = "PASSWORD_RESET"
        case verifyEmail = "VERIFY_EMAIL"
        case signIn = "EMAIL_SIGNIN"
        case verifyAndChangeEmail = "VERIFY_AND_CHANGE_EMAIL"
    }

    /// An email action link for `email`, made by Firebase and returned rather than mailed
    /// (`returnOobLink`): firebase-admin-node's `getEmailActionLink`.
    package func emailActionLink(_ kind: LinkKind, email: String, settings: AdminActionSettings?, newEmail: String? = nil) throws(TokenRefusal) -> String {
        try AdminChecks.email(email)
        var body: [String: JSONValue] = ["requestType": .string(kind.rawValue), "email": .string(email), "returnOobLink": .bool(true)]
        if kind == .signIn, settings == nil {
            throw AdminErrors.client("INVALID_ARGUMENT", message: "`actionCodeSettings` is required when `requestType` === 'EMAIL_SIGNIN'")
        }
        if let settings { body.merge(try settings.fields()) { $1 } }
        if kind == .verifyAndChangeEmail {
            guard let newEmail else {
                throw AdminErrors.client("INVALID_ARGUMENT", message: "`newEmail` is required when `requestType` === 'VERIFY_AND_CHANGE_EMAIL'")
            }
            try AdminChecks.email(newEmail, key: "INVALID_NEW_EMAIL")
            body["newEmail"] = .string(newEmail)
        }
        let answer = try call("POST", "accounts:sendOobCode", body: .object(body))
        guard let link = answer["oobLink"]?.stringValue, !link.isEmpty else {
            throw AdminErrors.client("INTERNAL_ERROR", message: "INTERNAL ASSERT FAILED: Unable to create the email action link")
        }
        return link
    }

    /// The shortest and longest a session cookie may last (firebase-admin-node
    /// `MIN_SESSION_COOKIE_DURATION_SECS`, `MAX_SESSION_COOKIE_DURATION_SECS`).
    package static let sessionCookieDurations: ClosedRange<TimeInterval> = 5 * 60...14 * 24 * 3600

    /// A session cookie for the user of `idToken`, lasting `expiresIn`.
    package func createSessionCookie(idToken: String, expiresIn: TimeInterval) throws(TokenRefusal) -> String {
        guard !idToken.isEmpty else { throw AdminErrors.client("INVALID_ID_TOKEN") }
        let seconds = (expiresIn).rounded(.down)
        guard Self.sessionCookieDurations.contains(seconds) else { throw AdminErrors.client("INVALID_SESSION_COOKIE_DURATION") }
        let answer = try call("POST", ":createSessionCookie", body: .object(["idToken": .string(idToken), "validDuration": .integer(Int64(seconds))]))
        guard let cookie = answer["sessionCookie"]?.stringValue, !cookie.isEmpty else { throw AdminErrors.client("INTERNAL_ERROR") }
        return cookie
    }
}
