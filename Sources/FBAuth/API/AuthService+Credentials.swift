#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Signing in without a browser and the account's email actions, as the Apple SDK's `Auth`
/// names them (`FirebaseAuth/Sources/Swift/Auth/Auth.swift`). Each signs in, saves the session
/// and makes it current, as `signIn(with: BrowserProvider)` does. A sign-in that needs a second
/// factor throws `secondFactorRequired` here: the terminal's way of answering one
/// (`PendingSecondFactor`) is not part of this API yet.
extension AuthService {
    /// `signIn(withEmail:password:)`: an email and password account.
    package func signIn(withEmail email: String, password: String) async throws(FBAuthError) -> AuthOutcome {
        try await signIn(with: EmailPassword.credential(withEmail: email, password: password))
    }

    /// `createUser(withEmail:password:)`: a new email and password account, signed in.
    package func createUser(withEmail email: String, password: String) async throws(FBAuthError) -> AuthOutcome {
        try await inBackground(creatingUser(email, password))
    }

    /// The same with a completion handler; `displayName` is set in the same request
    /// (`accounts:signUp` takes it), where the SDK needs a profile change afterwards.
    package func createUser(withEmail email: String, password: String, displayName: String? = nil,
                           completion: @escaping @Sendable (Result<AuthOutcome, FBAuthError>) -> Void) {
        onBackground(creatingUser(email, password, displayName), completion)
    }

    /// `signInAnonymously()`: a new anonymous user (linking a provider later keeps it).
    package func signInAnonymously() async throws(FBAuthError) -> AuthOutcome {
        try await inBackground(saving { () throws(FBAuthError) in try self.credentials().anonymous() })
    }

    /// The same with a completion handler.
    package func signInAnonymously(completion: @escaping @Sendable (Result<AuthOutcome, FBAuthError>) -> Void) {
        onBackground(saving { () throws(FBAuthError) in try self.credentials().anonymous() }, completion)
    }

    /// `signIn(withCustomToken:)`: a token minted by the Admin SDK of the project.
    package func signIn(withCustomToken token: String) async throws(FBAuthError) -> AuthOutcome {
        try await inBackground(saving { () throws(FBAuthError) in try self.credentials().customToken(token) })
    }

    /// The same with a completion handler.
    package func signIn(withCustomToken token: String, completion: @escaping @Sendable (Result<AuthOutcome, FBAuthError>) -> Void) {
        onBackground(saving { () throws(FBAuthError) in try self.credentials().customToken(token) }, completion)
    }

    private func creatingUser(_ email: String, _ password: String, _ displayName: String? = nil) -> @Sendable () throws(FBAuthError) -> AuthOutcome {
        saving { () throws(FBAuthError) in try self.credentials().signUp(email: email, password: password, displayName: displayName) }
    }

    /// `signIn(with: SignInCredential)`: a provider token held already
    /// (`BrowserProvider.credential(…)`), or the `updatedCredential` of an
    /// `accountExistsWithDifferentCredential` error. An email that belongs to an account with
    /// other methods throws that error again.
    package func signIn(with credential: OAuthTokens) async throws(FBAuthError) -> AuthOutcome {
        try await signIn(with: SignInCredential(credential))
    }

    /// `signIn(with: SignInCredential)`: a password, a mailed link or a provider's token.
    package func signIn(with credential: SignInCredential) async throws(FBAuthError) -> AuthOutcome {
        try await inBackground(signingIn(with: credential))
    }

    /// The same with a completion handler.
    package func signIn(with credential: SignInCredential, completion: @escaping @Sendable (Result<AuthOutcome, FBAuthError>) -> Void) {
        onBackground(signingIn(with: credential), completion)
    }

    private func signingIn(with credential: SignInCredential) -> @Sendable () throws(FBAuthError) -> AuthOutcome {
        saving { () throws(FBAuthError) in try self.signedIn(self.answer(for: credential, purpose: .signIn), providerId: credential.provider) }
    }

    /// What Firebase answers to `credential` used for `purpose`: the first step of a sign-in,
    /// link or reauthentication with a credential.
    func answer(for credential: SignInCredential, purpose: FlowPurpose) throws(FBAuthError) -> BrowserSignInFlow.Result {
        let credentials = credentials()
        switch credential.kind {
        case .password(let email, let password):
            if let idToken = purpose.linkToken { return .signedIn(try credentials.linkPassword(email: email, password: password, idToken: idToken)) }
            return .signedIn(try credentials.password(email: email, password: password))
        case .emailLink(let email, let link):
            return .signedIn(try credentials.emailLink(email: email, link: EmailActionLink(link), linkingTo: purpose.linkToken))
        case .emailLinkAwaited(let email, let port, let timeout):
            return .signedIn(try EmailLinkFlow(flow: flow(secondFactor: secondFactorHandling), recaptchaTokens: recaptchaTokens)
                .run(email: email, port: port, timeout: timeout, purpose: purpose))
        case .phone(let verificationID, let code, let replacing):
            return .signedIn(try credentials.phone(verificationID: verificationID, code: code, purpose: purpose, replacing: replacing))
        case .oauth(let credential) where credential.pendingToken != nil:
            return try credentials.providerCredential(PendingCredential(credential: credential, email: nil, savedAt: clock.now()), purpose: purpose)
        case .oauth(let credential):
            var token = try ProviderTokenCredential(providerId: credential.providerID, idToken: credential.idToken, accessToken: credential.accessToken,
                                                    secret: credential.secret, rawNonce: credential.rawNonce, forEmulator: emulatorHost != nil,
                                                    names: settings.credentialPartNames)
            token.fullName = credential.fullName
            return try credentials.providerToken(token, purpose: purpose)
        }
    }

    /// `fetchSignInMethods(forEmail:)`: the sign-in methods of an address (empty where the project
    /// protects against email enumeration).
    package func fetchSignInMethods(forEmail email: String) async throws(FBAuthError) -> [String] {
        try await inBackground(signInMethods(email))
    }

    /// The same with a completion handler.
    package func fetchSignInMethods(forEmail email: String, completion: @escaping @Sendable (Result<[String], FBAuthError>) -> Void) {
        onBackground(signInMethods(email), completion)
    }

    /// The same, with whether the address has an account, when Firebase says (`registered`);
    /// a project with email enumeration protection says neither.
    package func lookUpSignInMethods(forEmail email: String, completion: @escaping @Sendable (Result<EmailSignInMethods, FBAuthError>) -> Void) {
        onBackground({ () throws(FBAuthError) -> EmailSignInMethods in
            let answer = try self.client().signInMethods(email: email, tenantId: self.tenantID)
            return EmailSignInMethods(methods: answer.signinMethods ?? [], isRegistered: answer.registered)
        }, completion)
    }

    private func signInMethods(_ email: String) -> @Sendable () throws(FBAuthError) -> [String] {
        { () throws(FBAuthError) in try self.client().signInMethods(email: email, tenantId: self.tenantID).signinMethods ?? [] }
    }

    /// `sendPasswordReset(withEmail:)`: Firebase mails a reset link (when the address has an
    /// account; nothing says whether it has).
    package func sendPasswordReset(withEmail email: String, actionCodeSettings: ActionLinkSettings? = nil) async throws(FBAuthError) {
        try await inBackground(sendingPasswordReset(email, actionCodeSettings))
    }

    /// The same with a completion handler.
    package func sendPasswordReset(withEmail email: String, completion: @escaping @Sendable (Result<Void, FBAuthError>) -> Void) {
        onBackground(sendingPasswordReset(email, nil), completion)
    }

    /// `confirmPasswordReset(withCode:newPassword:)`: the code (`oobCode`) of the mailed link
    /// (refused unless it is a password reset's). Returns the account's email, as Firebase
    /// answers it (the SDK's `verifyPasswordResetCode` without a second request).
    @discardableResult
    package func confirmPasswordReset(withCode code: String, newPassword: String) async throws(FBAuthError) -> String? {
        try await inBackground(resettingPassword(code, to: newPassword))
    }

    /// The same with a completion handler.
    package func confirmPasswordReset(withCode code: String, newPassword: String,
                                     completion: @escaping @Sendable (Result<String?, FBAuthError>) -> Void) {
        onBackground(resettingPassword(code, to: newPassword), completion)
    }

    private func sendingPasswordReset(_ email: String, _ settings: ActionLinkSettings?) -> @Sendable () throws(FBAuthError) -> Void {
        { () throws(FBAuthError) in try self.management().sendPasswordReset(email: email, settings: settings) }
    }

    private func resettingPassword(_ code: String, to password: String) -> @Sendable () throws(FBAuthError) -> String? {
        { () throws(FBAuthError) in try self.management().resetPassword(code: code, newPassword: password) }
    }

    // MARK: - Shared

    func credentials() -> CredentialSignIn {
        CredentialSignIn(client: client(), clock: clock, tenantId: tenantID, secondFactor: secondFactorHandling, recaptchaTokens: recaptchaTokens)
    }

    /// reCAPTCHA Enterprise tokens from a page in the browser, when the settings say.
    var recaptchaTokens: RecaptchaTokenSource? {
        settings.recaptchaInBrowser ? BrowserRecaptchaTokens(flow: flow(secondFactor: nil), openBrowser: settings.opensBrowser) : nil
    }

    /// The settings' prompt answers a second factor; without one, the operation throws
    /// `secondFactorRequired` with its resolver.
    var secondFactorHandling: SecondFactorHandling {
        SecondFactorHandling(resolver: settings.secondFactorPrompt.map(PromptedSecondFactorResolver.init) ?? ThrowingSecondFactorResolver(auth: self),
                             phoneVerifier: phoneVerifier)
    }

    /// reCAPTCHA before an SMS code: on a page in the browser, or none.
    var phoneVerifier: PhoneVerifier {
        (settings.phoneRecaptchaInBrowser ?? settings.recaptchaInBrowser)
            ? RecaptchaPhoneVerifier(flow: flow(secondFactor: nil), openBrowser: settings.opensBrowser) : NoPhoneVerification()
    }

    /// Account requests, with reCAPTCHA Enterprise tokens from the browser when the settings say.
    func management() -> AccountManagement {
        let management = AccountManagement(client: client(), store: store, project: project, tenantId: tenantID, clock: clock)
        guard settings.recaptchaInBrowser else { return management }
        return management.with(recaptchaTokens: BrowserRecaptchaTokens(flow: flow(secondFactor: nil), openBrowser: settings.opensBrowser))
    }

    /// Runs a sign-in in the background, then saves its session as the current one.
    func signInSaving(_ signIn: @escaping @Sendable () throws(FBAuthError) -> SignInRecord) async throws(FBAuthError) -> AuthOutcome {
        try await inBackground(saving(signIn))
    }

    /// A sign-in, then its session saved as the current one, with the settings' sign-in
    /// arguments; the store is checked first, so that a store that cannot be written fails
    /// before the user goes through a browser.
    func saving(_ signIn: @escaping @Sendable () throws(FBAuthError) -> SignInRecord) -> @Sendable () throws(FBAuthError) -> AuthOutcome {
        { () throws(FBAuthError) in
            try self.store.checkWritable()
            let record = try signIn()
            var session = record.session()
            session.signInArguments = self.settings.signInArguments
            let projectID = self.settings.projectID ?? IDTokenDetails(idToken: record.tokens.idToken)?.projectID
            try self.store.update { (contents: inout StoreContents) throws(FBAuthError) in
                contents.save(session, in: self.project, makeCurrent: true)
                if let projectID { contents.modifyProject(self.project) { $0.projectId = projectID } }
            }
            return AuthOutcome(record, user: SignedInUser(session, auth: self))
        }
    }
}

/// Several users at once: the SDK keeps one current user and lets an app switch to another it
/// holds (`updateCurrentUser(_:)`); fbauth's store keeps every user signed in to the project.
extension AuthService {
    /// The users signed in to this project on this machine (the current one among them).
    package var savedUsers: [SignedInUser] {
        ((try? store.load().project(project)?.sessions) ?? nil ?? []).map { SignedInUser($0, auth: self) }
    }

    /// The saved user `emailOrUID` names (a uid first, else an email, in any case), or the
    /// current user when nil. Throws `signInAgain` when there is none, and `usage` when an
    /// email names several users (of different tenants): name one by its uid.
    package func savedUser(_ emailOrUID: String? = nil) throws(FBAuthError) -> SignedInUser {
        SignedInUser(try store.load().session(emailOrUID.map(SessionSelector.user) ?? .current, in: project), auth: self)
    }

    /// `updateCurrentUser(_:)`: makes `user` the current user of this project, and this project
    /// the one used when none is named (`SavedProjects.remembered`).
    package func updateCurrentUser(_ user: SignedInUser) throws(FBAuthError) {
        try store.update { (contents: inout StoreContents) throws(FBAuthError) in
            let session = try contents.session(.exactly(user.reference), in: project)
            contents.makeCurrent(session.reference, in: project)
            contents.currentProject = project.storageKey
        }
    }
}

/// What Firebase says of an address's sign-in methods (`accounts:createAuthUri`).
package struct EmailSignInMethods: Sendable {
    package let methods: [String]
    /// Whether the address has an account; nil when the project does not say.
    package let isRegistered: Bool?
}
