#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP
import FBAuthSupport

/// Firebase Authentication for one project, as `Auth` in Firebase's Apple SDK, with sessions
/// saved in a directory (fbauth's `sessions.json`, shared with the `fbauth` command).
///
/// ```swift
/// let auth = Auth(apiKey: "AIza…")
/// var provider = OAuthProvider(providerID: "microsoft.com")
/// provider.scopes = ["mail.read"]
/// provider.customParameters = ["tenant": "contoso.onmicrosoft.com"]
/// let result = try await auth.signIn(with: provider)
/// let token = try await result.user.idToken()
/// ```
package final class AuthService: Sendable {
    /// What this `AuthService` was configured with.
    package let settings: AuthServiceSettings
    /// The project's Web API key.
    package var apiKey: String { settings.apiKey }
    /// `host:port` of an Auth emulator, when one is used.
    package var emulatorHost: String? { settings.emulatorHost }
    /// The tenant users sign in to (Identity Platform multi-tenancy).
    package var tenantID: String? { settings.tenantID }
    /// How a browser sign-in's redirect comes back.
    package var redirect: RedirectRoute { settings.redirect }
    /// The loopback listener's port (0: any free port).
    package var port: UInt16 { settings.port }
    /// How long a sign-in waits for the browser.
    package var timeout: Duration { settings.timeout }
    /// How the observer's advice names the other ways to sign in.
    package var advice: AdviceWords { settings.advice }
    let store: SecretKeepingStore
    let host: AuthHost
    let browser: BrowserLauncher
    let observer: SignInObserver
    let transport: HTTPTransport
    /// The App Check tokens requests carry, when `settings.appCheck` is set.
    private let appCheckTokens: AppCheckTokens?
    var clock: WallClock { host.clock }

    /// - Parameters:
    ///   - configDirectory: where `sessions.json` lives; nil: `$FBAUTH_CONFIG_DIR`, else
    ///     `$XDG_CONFIG_HOME/fbauth`, else `~/.config/fbauth`, as for `fbauth`.
    ///   - browser: opens the sign-in page; nil: the system's browser (`$BROWSER`, xdg-open, open).
    ///   - observer: what the user is told while a sign-in waits for the browser.
    ///   - transport: HTTP; nil: the system's libcurl.
    ///   - advice: how the observer's advice names the other ways to sign in (your program's
    ///     options, where it has them).
    package convenience init(apiKey: String, emulatorHost: String? = nil, tenantID: String? = nil, configDirectory: String? = nil,
                            redirect: RedirectRoute = .hostedHandler, port: UInt16 = 0, timeout: Duration = .seconds(300),
                            browser: BrowserLauncher? = nil, observer: SignInObserver = SilentObserver(), transport: HTTPTransport? = nil,
                            advice: AdviceWords = AdviceWords()) {
        var settings = AuthServiceSettings(apiKey: apiKey, emulatorHost: emulatorHost, tenantID: tenantID, configDirectory: configDirectory)
        settings.redirect = redirect
        settings.port = port
        settings.timeout = timeout
        settings.advice = advice
        self.init(settings: settings, browser: browser, observer: observer, transport: transport)
    }

    /// An `AuthService` configured by `settings`.
    /// - Parameters:
    ///   - browser: opens the sign-in page; nil: the system's browser (`$BROWSER`, xdg-open, open).
    ///   - observer: what the user is told while a sign-in waits for the browser.
    ///   - transport: HTTP; nil: the system's libcurl.
    ///   - host: the process's clock, Ctrl-C, randomness and environment; a test gives its own.
    package init(settings: AuthServiceSettings, browser: BrowserLauncher? = nil, observer: SignInObserver = SilentObserver(),
                transport: HTTPTransport? = nil, host: AuthHost = AuthHost()) {
        self.settings = settings
        self.host = host
        // Another process holding the store's lock is said once, while this one waits.
        let directory = Platform.absolutePath(FileSessionStore.directory(option: settings.configDirectory, environment: host.environment))
        if let memory = settings.sessionMemory {
            // Nothing on disk and no keyring: every secret stays in the process.
            store = SecretKeepingStore(file: MemorySessionFile(memory: memory, directory: directory), keeper: nil, choice: .file)
        } else {
            store = SecretKeepingStore(
                file: FileSessionStore(directory: directory, waiting: { [observer] line in observer.signIn(.notice(line)) }),
                keeper: host.keyring ?? SystemKeyring.keeper(environment: host.environment), choice: settings.secretStorage,
                notice: { [observer] line in observer.signIn(.notice(line)) })
        }
        let named = ProjectKey(apiKey: settings.apiKey, emulatorHost: settings.emulatorHost, app: settings.appName)
        project = settings.emulatorHost == nil ? named : (try? store.load())?.resolve(named, isRunning: host.emulatorRunning) ?? named
        self.browser = browser ?? SystemBrowserLauncher(environment: host.environment)
        self.observer = observer
        let transport = transport ?? CurlTransport()
        self.transport = transport
        appCheckTokens = settings.appCheck.map { [store] appCheck in
            let key = ProjectKey(apiKey: settings.apiKey, emulatorHost: settings.emulatorHost)
            return AppCheckTokens(settings: appCheck, store: store, project: key,
                                  projectID: { settings.projectID ?? (try? store.load())?.project(key)?.projectId }, clock: host.clock,
                                  exchangeClient: { AuthService.plainClient(settings, transport: transport) })
        }
    }

    /// A client with this Auth's settings and no App Check token.
    private static func plainClient(_ settings: AuthServiceSettings, transport: HTTPTransport) -> FirebaseAuthClient {
        FirebaseAuthClient(endpoints: settings.emulatorHost.map(FirebaseEndpoints.emulator) ?? .production, apiKey: settings.apiKey, transport: transport,
                           timeout: settings.requestTimeout, logger: settings.logger, identity: settings.clientHeaders)
    }

    /// The project id: the settings' own, else the one remembered from a sign-in's ID token.
    package var projectID: String? {
        settings.projectID ?? (try? store.load())?.project(project)?.projectId
    }

    /// How messages name the project: "project my-project", else "the project of API key
    /// …abc123", with the emulator when there is one.
    package var projectDescription: String { project.displayName(projectId: projectID) }

    /// For a sentence that says an email was sent: against an Auth emulator, which sends none,
    /// where it lists the link (" (an Auth emulator sends no mail: …)"); empty against Firebase.
    package var mailNote: String { client().mailNote(knownProjectId: projectID) }

    /// Where the sessions are kept, for messages (the path of `sessions.json`).
    package var sessionsLocation: String { store.location }

    /// Fails when sessions cannot be saved here (a directory another user can write, a file
    /// that is not fbauth's), so that a program can say so before it asks its user anything.
    package func checkSessionsWritable() throws(FBAuthError) { try store.checkWritable() }

    /// The user of this project's current session, if one is saved.
    package var currentUser: SignedInUser? {
        (try? store.load().currentSession(of: project)).flatMap { $0 }.map { SignedInUser($0, auth: self) }
    }

    /// Signs in with `provider` through the browser, saves the session and makes it current.
    /// When the provider's email belongs to an account with other sign-in methods, throws
    /// `accountExistsWithDifferentCredential`.
    package func signIn(with provider: BrowserProvider) async throws(FBAuthError) -> AuthOutcome {
        try await inBackground(signingIn(with: provider))
    }

    /// The same with a completion handler.
    package func signIn(with provider: BrowserProvider, completion: @escaping @Sendable (Result<AuthOutcome, FBAuthError>) -> Void) {
        onBackground(signingIn(with: provider), completion)
    }

    private func signingIn(with provider: BrowserProvider) -> @Sendable () throws(FBAuthError) -> AuthOutcome {
        saving { () throws(FBAuthError) in
            let options = try self.options(for: provider)
            return try self.signedIn(self.flow().run(options, purpose: .signIn), providerId: options.providerId)
        }
    }

    /// Forgets the current session on this machine (refresh tokens are revoked only on the
    /// server: Admin SDK or Firebase console). As the SDK's `signOut`, nobody is current after.
    package func signOut() throws(FBAuthError) {
        try store.update { (contents: inout StoreContents) throws(FBAuthError) in
            let session = try contents.session(.current, in: project)
            contents.remove(session.reference, in: project)
        }
    }

    /// After the current user's session went (a deletion), the saved session that signed in
    /// most recently becomes current, by the rule `signOut(_:)` follows (the command line's
    /// `signout` and `delete-account` alike); nil when none is left or one is current.
    package func promoteMostRecentSession() throws(FBAuthError) -> SignedInUser? {
        try store.update { (contents: inout StoreContents) throws(FBAuthError) -> SignedInUser? in
            guard contents.currentSession(of: project) == nil,
                  let next = contents.mostRecentSession(in: project) else { return nil }
            contents.makeCurrent(next.reference, in: project)
            return SignedInUser(next, auth: self)
        }
    }

    // MARK: - The flows behind User

    /// The project as stored: on an emulator, possibly under another name of it or saved by one
    /// that has stopped (`StoreContents.resolve`), read once.
    let project: ProjectKey

    func client() -> FirebaseAuthClient {
        var client = Self.plainClient(settings, transport: transport)
        if let appCheckTokens { client.appCheck = { () throws(FBAuthError) -> ExchangedAppCheckToken in try appCheckTokens.token() } }
        return client
    }

    func refresher() -> TokenRefresher {
        TokenRefresher(store: store, project: project, clock: clock, signInAdvice: signInAdvice,
                       makeClient: { () throws(FBAuthError) in self.client() })
    }

    /// The settings' words for a session that must be signed in again.
    private var signInAdvice: SignInAdvice {
        guard let words = settings.signInAgain else { return .plain }
        return SignInAdvice { session in words(SignedInUser(session, auth: self)) }
    }

    /// `secondFactor`: nil for the flow of a reCAPTCHA page, which never meets one.
    func flow(secondFactor: SecondFactorHandling?) -> BrowserSignInFlow {
        var headless = HeadlessAdvice(environment: host.environment)
        headless.againstEmulator = emulatorHost != nil
        headless.words = advice
        return BrowserSignInFlow(client: client(), browser: browser, observer: observer, clock: clock, tenantId: tenantID,
                                 interrupts: host.interrupts,
                                 settings: BrowserFlowSettings(showsWaitingLine: observer.showsWaitingLine, firebaseJSBase: settings.firebaseJSURL,
                                                               authDomain: settings.authDomain, projectId: settings.projectID, secrets: host.secrets,
                                                               launchDirectory: store.directory, headless: headless,
                                                               listenerGuard: settings.listenerCheck),
                                 secondFactor: secondFactor)
    }

    private func flow() -> BrowserSignInFlow { flow(secondFactor: secondFactorHandling) }

    func options(for provider: BrowserProvider) throws(FBAuthError) -> FlowOptions {
        let providerId = try ProviderID.validate(provider.providerID)
        if let reserved = provider.customParameters.keys.first(where: FlowOptions.reservedParameters.contains) {
            throw .usage("the custom parameter '\(reserved)' is set by Firebase itself")
        }
        let parameters = provider.customParameters.sorted { $0.key < $1.key }.map { KeyValue(key: $0.key, value: $0.value) }
        return FlowOptions(providerId: providerId, scopes: provider.scopes, customParameters: parameters, email: provider.accountEmail, port: port,
                           redirectHost: settings.redirectHost, openBrowser: settings.opensBrowser, timeout: timeout, redirect: redirect)
    }

    func signedIn(_ result: BrowserSignInFlow.Result, providerId: String) throws(FBAuthError) -> SignInRecord {
        switch result {
        case .signedIn(let record): return record
        case .accountExists(let response):
            throw .accountExists(AccountExistsConflict(
                response: response, providerId: providerId,
                message: "an account already exists for \(response.email ?? "this email") with a different sign-in method; sign in to it, then link the error's updatedCredential"))
        }
    }

    /// Links or reauthenticates the saved session `reference` and saves the result into the
    /// session as it is now (a sign-out meanwhile stays in effect).
    func renew(_ reference: SessionReference, with provider: BrowserProvider, purpose: FlowPurpose) throws(FBAuthError) -> AuthOutcome {
        let options = try options(for: provider)
        return try renew(reference, purpose: purpose, providerId: options.providerId) { () throws(FBAuthError) in
            try self.flow().run(options, purpose: purpose)
        }
    }

    /// The same with a credential, without the OAuth browser flow.
    func renew(_ reference: SessionReference, with credential: SignInCredential, purpose: FlowPurpose) throws(FBAuthError) -> AuthOutcome {
        try renew(reference, purpose: purpose, providerId: credential.provider) { () throws(FBAuthError) in
            try self.answer(for: credential, purpose: purpose)
        }
    }

    func renew(_ reference: SessionReference, purpose: FlowPurpose, providerId: String,
                       signIn: () throws(FBAuthError) -> BrowserSignInFlow.Result) throws(FBAuthError) -> AuthOutcome {
        try store.checkWritable()
        let record: SignInRecord
        do {
            record = try signedIn(signIn(), providerId: providerId)
        } catch where purpose == .reauthenticate && (error.code == .userNotFound || error.code == .accountExistsWithDifferentCredential) {
            // Reauthentication never creates a user: an unknown account is somebody else, and
            // so is one that exists with another sign-in method (the SDK's rule too).
            let label = (try? store.load().session(.exactly(reference), in: project))?.displayLabel
            throw .userMismatch(answeredFor: "an account that is not this user", expected: label, uid: reference.uid)
        }
        let renewed = try SessionRenewal(store: store, project: project, clock: clock)
            .merge(record, into: reference, purpose: purpose == .reauthenticate ? .reauthenticate : .link)
        return AuthOutcome(record, user: SignedInUser(renewed, auth: self))
    }

    /// Runs blocking work (sockets, the browser wait) on its own thread.
    func inBackground<T: Sendable>(_ work: @escaping @Sendable () throws(FBAuthError) -> T) async throws(FBAuthError) -> T {
        let result: Result<T, FBAuthError> = await withCheckedContinuation { continuation in
            onBackground(work) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// The same for the completion-handler variants: `completion` is called on that thread.
    /// A caller that waits for it needs no Swift concurrency thread, so a program that blocks
    /// (a command line) can use them from anywhere.
    func onBackground<T: Sendable>(_ work: @escaping @Sendable () throws(FBAuthError) -> T,
                                   _ completion: @escaping @Sendable (Result<T, FBAuthError>) -> Void) {
        BackgroundThread.start { completion(Result { () throws(FBAuthError) -> T in try work() }) }
    }
}
