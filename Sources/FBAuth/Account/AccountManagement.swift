import FBAuthSupport
/// What a user does with an email/password account besides signing in (firebase-js-sdk
/// `packages/auth/src/core/strategies/email_and_password.ts`, `core/strategies/email.ts`,
/// `core/user/account_info.ts`): password resets and changes, email verification, a change of
/// address, mailed codes applied, the profile. Operations on the signed-in user renew its
/// saved session from the answer.
internal struct AccountManagement {
    let client: FirebaseAuthClient
    let store: SessionStore
    let project: ProjectKey
    let tenantId: String?
    let clock: WallClock
    /// reCAPTCHA Enterprise tokens, where the project protects email/password.
    let recaptchaTokens: RecaptchaTokenSource?

    internal init(client: FirebaseAuthClient, store: SessionStore, project: ProjectKey, tenantId: String?, clock: WallClock,
                 recaptchaTokens: RecaptchaTokenSource? = nil) {
        self.client = client
        self.store = store
        self.project = project
        self.tenantId = tenantId
        self.clock = clock
        self.recaptchaTokens = recaptchaTokens
    }

    /// The same with reCAPTCHA Enterprise tokens, for the requests that take them.
    internal func with(recaptchaTokens: RecaptchaTokenSource) -> AccountManagement {
        AccountManagement(client: client, store: store, project: project, tenantId: tenantId, clock: clock, recaptchaTokens: recaptchaTokens)
    }

    private var recaptcha: PasswordRecaptcha { PasswordRecaptcha(client: client, tenantId: tenantId, source: recaptchaTokens) }
    private var renewal: SessionRenewal { SessionRenewal(store: store, project: project, clock: clock) }

    /// `sendPasswordResetEmail`. Under email enumeration protection the server answers the
    /// same whether or not the address has an account.
    internal func sendPasswordReset(email: String, settings: ActionLinkSettings? = nil) throws(FBAuthError) {
        try recaptcha.perform(action: "getOobCode") { (fields) throws(FBAuthError) in
            try client.sendOobCode(.passwordReset(email: email, settings: settings), tenantId: tenantId, recaptcha: fields)
        }
    }

    /// `confirmPasswordReset`: checks that the code is a password reset's, then sets the
    /// password; returns the account's email.
    internal func resetPassword(code: String, newPassword: String) throws(FBAuthError) -> String? {
        let info = try client.checkActionCode(code, tenantId: tenantId)
        guard info.requestType == "PASSWORD_RESET" else {
            throw .usage("that code is not a password reset's (it is for \(info.requestType ?? "something else")); verification and email-change links are applied instead", remedy: .applyActionCode)
        }
        return try PasswordPolicyWords.explaining(client: client, tenantId: tenantId) { () throws(FBAuthError) in
            try client.confirmPasswordReset(code: code, newPassword: newPassword, tenantId: tenantId).email ?? info.email
        }
    }

    /// `sendEmailVerification` for the signed-in user.
    internal func sendVerification(for session: Session, settings: ActionLinkSettings? = nil) throws(FBAuthError) {
        try client.sendOobCode(.verifyEmail(idToken: session.idToken, settings: settings), tenantId: tenantId)
    }

    /// `verifyBeforeUpdateEmail`: the address changes once the link mailed to `newEmail` is
    /// opened (the way that works with email enumeration protection).
    internal func sendEmailChange(to newEmail: String, for session: Session, settings: ActionLinkSettings? = nil) throws(FBAuthError) {
        try client.sendOobCode(.verifyAndChangeEmail(idToken: session.idToken, newEmail: newEmail, settings: settings), tenantId: tenantId)
    }

    /// `applyActionCode`: a verification or email-change link. Returns what the server says the
    /// account is now.
    internal func apply(code: String) throws(FBAuthError) -> UpdateAccountResponse {
        let info = try client.checkActionCode(code, tenantId: tenantId)
        guard ["VERIFY_EMAIL", "VERIFY_AND_CHANGE_EMAIL", "RECOVER_EMAIL", "REVERT_SECOND_FACTOR_ADDITION"].contains(info.requestType ?? "") else {
            throw .usage("that code is not a verification or email-change link's (it is for \(info.requestType ?? "something else"))"
                + (info.requestType == "PASSWORD_RESET" ? "; it resets a password" : ""), remedy: info.requestType == "PASSWORD_RESET" ? .resetPassword : nil)
        }
        return try client.applyActionCode(code, tenantId: tenantId)
    }

    /// `updatePassword`: needs a recent sign-in; the server signs the user's other sessions
    /// out and answers with new tokens for this one.
    internal func changePassword(to newPassword: String, for session: Session) throws(FBAuthError) -> Session {
        let answer = try PasswordPolicyWords.explaining(client: client, tenantId: tenantId) { () throws(FBAuthError) in
            try client.updatePassword(newPassword, idToken: session.idToken, tenantId: tenantId)
        }
        return try renew(session, with: answer)
    }

    /// `updateEmail`: needs a recent sign-in; the server answers with new tokens, as for a new
    /// password.
    internal func changeEmail(to newEmail: String, for session: Session) throws(FBAuthError) -> Session {
        try renew(session, with: client.updateEmail(newEmail, idToken: session.idToken, tenantId: tenantId))
    }

    /// `updateProfile`: a value sets, nil leaves as it is; `deleting` removes (`DISPLAY_NAME`,
    /// `PHOTO_URL`).
    internal func updateProfile(displayName: String?, photoURL: String?, deleting: [String], for session: Session) throws(FBAuthError) -> Session {
        try renew(session, with: client.updateProfile(displayName: displayName, photoUrl: photoURL, deleting: deleting,
                                                      idToken: session.idToken, tenantId: tenantId))
    }

    private func renew(_ session: Session, with answer: UpdateAccountResponse) throws(FBAuthError) -> Session {
        try renewal.renew(session, idToken: answer.idToken, refreshToken: answer.refreshToken, expiresIn: answer.expiresIn, client: client)
    }
}
