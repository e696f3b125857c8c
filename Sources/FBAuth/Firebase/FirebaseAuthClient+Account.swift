/// The email and password lifecycle, email links and the profile (firebase-js-sdk
/// `packages/auth/src/api/authentication/email_and_password.ts`,
/// `api/account_management/email_and_password.ts`, `api/account_management/profile.ts`).
extension FirebaseAuthClient {
    /// A new email/password user or, with `idToken`, the password added to that user.
    internal func signUp(email: String, password: String, displayName: String? = nil, idToken: String? = nil, tenantId: String?,
                        recaptcha: RecaptchaFields? = nil) throws(FBAuthError) -> TokenSignInResponse {
        try post("signUp", PasswordSignUpRequest(
            email: email, password: password, displayName: displayName, idToken: idToken, tenantId: tenantId,
            captchaResponse: recaptcha?.token, clientType: recaptcha?.clientType, recaptchaVersion: recaptcha?.version),
            action: idToken == nil ? "sign-up" : "adding a password", retry: .never)
    }

    /// Has Firebase mail a link: `PASSWORD_RESET` and `EMAIL_SIGNIN` (by `email`), `VERIFY_EMAIL`
    /// and `VERIFY_AND_CHANGE_EMAIL` (for the user of `idToken`).
    internal func sendOobCode(_ mail: OutOfBandMail, tenantId: String?, recaptcha: RecaptchaFields? = nil) throws(FBAuthError) {
        var request = SendOobCodeRequest(requestType: mail.requestType, tenantId: tenantId, captchaResp: recaptcha?.token,
                                         clientType: recaptcha?.clientType, recaptchaVersion: recaptcha?.version)
        switch mail {
        case .passwordReset(let email, let settings):
            request.email = email
            request.apply(settings)
        case .signInLink(let email, let continueUrl, let settings):
            request.email = email
            request.apply(settings)
            request.continueUrl = continueUrl
            request.canHandleCodeInApp = true
        case .verifyEmail(let idToken, let settings):
            request.idToken = idToken
            request.apply(settings)
        case .verifyAndChangeEmail(let idToken, let newEmail, let settings):
            request.idToken = idToken
            request.newEmail = newEmail
            request.apply(settings)
        }
        let _: EmptyAnswer = try post("sendOobCode", request, action: mail.action, retry: .never)
    }

    /// What a mailed code is for (`checkActionCode`); nothing is changed.
    internal func checkActionCode(_ code: String, tenantId: String?) throws(FBAuthError) -> CheckedActionCode {
        try post("resetPassword", ResetPasswordRequest(oobCode: code, tenantId: tenantId), action: "checking the code", retry: .onceIfTransient)
    }

    /// Sets a new password with a `PASSWORD_RESET` code (`confirmPasswordReset`).
    internal func confirmPasswordReset(code: String, newPassword: String, tenantId: String?) throws(FBAuthError) -> CheckedActionCode {
        try post("resetPassword", ResetPasswordRequest(oobCode: code, newPassword: newPassword, tenantId: tenantId),
                 action: "resetting the password", retry: .never)
    }

    /// Applies a verification or email-change code (`applyActionCode`).
    internal func applyActionCode(_ code: String, tenantId: String?) throws(FBAuthError) -> UpdateAccountResponse {
        try post("update", UpdateAccountRequest(oobCode: code, tenantId: tenantId), action: "applying the code", retry: .never)
    }

    /// A new password for the signed-in user (`updatePassword`); answers with new tokens.
    internal func updatePassword(_ password: String, idToken: String, tenantId: String?) throws(FBAuthError) -> UpdateAccountResponse {
        try post("update", UpdateAccountRequest(idToken: idToken, password: password, returnSecureToken: true, tenantId: tenantId),
                 action: "changing the password", retry: .never)
    }

    /// A new email address at once (`updateEmail`): projects with email enumeration protection
    /// refuse it (`OPERATION_NOT_ALLOWED`); `verifyAndChangeEmail` is the way there.
    internal func updateEmail(_ email: String, idToken: String, tenantId: String?) throws(FBAuthError) -> UpdateAccountResponse {
        try post("update", UpdateAccountRequest(idToken: idToken, email: email, returnSecureToken: true, tenantId: tenantId),
                 action: "changing the email address", retry: .never)
    }

    /// The user's display name and photo (`updateProfile`): a value sets, nil leaves, and the
    /// `deleting` attributes (`DISPLAY_NAME`, `PHOTO_URL`) are removed.
    internal func updateProfile(displayName: String?, photoUrl: String?, deleting: [String], idToken: String, tenantId: String?) throws(FBAuthError) -> UpdateAccountResponse {
        try post("update", UpdateAccountRequest(idToken: idToken, displayName: displayName, photoUrl: photoUrl,
                                                deleteAttribute: deleting.isEmpty ? nil : deleting, tenantId: tenantId),
                 action: "updating the profile", retry: .onceIfTransient)
    }

    /// Signs in (or, with `idToken`, links the email) with an email link's code.
    internal func signInWithEmailLink(email: String, code: String, idToken: String?, tenantId: String?) throws(FBAuthError) -> TokenSignInResponse {
        try post("signInWithEmailLink", EmailLinkSignInRequest(email: email, oobCode: code, idToken: idToken, tenantId: tenantId),
                 action: idToken == nil ? "email-link sign-in" : "linking the email", retry: .never)
    }

    /// The project's password policy; nil where the server has none (the Auth emulator).
    internal func passwordPolicy(tenantId: String?) throws(FBAuthError) -> PasswordPolicyResponse? {
        let request = HTTPClientRequest(method: "GET", url: endpoints.passwordPolicy(apiKey: apiKey, tenantId: tenantId), headers: identity.headers, timeout: timeout)
        do {
            return try decode(PasswordPolicyResponse.self, from: send(request, action: "reading the password policy", retry: .onceIfTransient), request: request)
        } catch .server(let error, _) where [404, 501].contains(error.httpStatus) {
            return nil
        }
    }
}

/// A link Firebase mails.
internal enum OutOfBandMail: Sendable, Equatable {
    /// `settings`: where the link leads once used (`continueUrl`), when the app says.
    case passwordReset(email: String, settings: ActionLinkSettings? = nil)
    case signInLink(email: String, continueUrl: String, settings: ActionLinkSettings? = nil)
    case verifyEmail(idToken: String, settings: ActionLinkSettings? = nil)
    case verifyAndChangeEmail(idToken: String, newEmail: String, settings: ActionLinkSettings? = nil)

    var requestType: String {
        switch self {
        case .passwordReset: "PASSWORD_RESET"
        case .signInLink: "EMAIL_SIGNIN"
        case .verifyEmail: "VERIFY_EMAIL"
        case .verifyAndChangeEmail: "VERIFY_AND_CHANGE_EMAIL"
        }
    }

    var action: String {
        switch self {
        case .passwordReset: "sending the password-reset email"
        case .signInLink: "sending the sign-in link"
        case .verifyEmail: "sending the verification email"
        case .verifyAndChangeEmail: "sending the email-change link"
        }
    }

    /// Whether reCAPTCHA Enterprise for email/password covers it (the JS SDK's
    /// `sendPasswordResetEmail` and `sendSignInLinkToEmail` go through `handleRecaptchaFlow`).
    internal var isRecaptchaProtected: Bool {
        switch self {
        case .passwordReset, .signInLink: true
        case .verifyEmail, .verifyAndChangeEmail: false
        }
    }
}

extension SendOobCodeRequest {
    /// The link's continue URL, whether the app handles it, and the apps that open it, as the
    /// SDK's `ActionCodeSettings` send them (GetOOBConfirmationCodeRequest.swift).
    mutating func apply(_ settings: ActionLinkSettings?) {
        guard let settings else { return }
        if !settings.url.isEmpty { continueUrl = settings.url }
        if settings.handleCodeInApp { canHandleCodeInApp = true }
        iOSBundleId = settings.iOSBundleID
        androidPackageName = settings.androidPackageName
        androidMinimumVersion = settings.androidMinimumVersion
        if settings.androidInstallApp { androidInstallApp = true }
        linkDomain = settings.linkDomain
    }
}
