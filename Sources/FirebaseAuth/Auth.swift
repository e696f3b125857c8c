import FBAuth
import FirebaseCore
import Foundation

/// Firebase Authentication for a configured app, as the SDK's `Auth`: `Auth.auth()` after
/// `FirebaseApp.configure()`. Completion handlers run on the main queue with `(T?, Error?)`,
/// errors are `NSError`s in `AuthErrorDomain`, and every call has an `async` twin, as in the
/// SDK. Underneath, fbauth does the work: sessions are saved as the `fbauth` command saves
/// them (`~/.config/fbauth`, refresh tokens in the OS keyring where there is one), and browser
/// sign-ins open the user's browser on a loopback listener.
open class Auth: NSObject, @unchecked Sendable {
    /// The app this `Auth` belongs to, as the SDK's: weak, so optional (FirebaseApp keeps its
    /// apps until `delete`).
    public private(set) weak var app: FirebaseApp?
    /// The app's options, kept for rebuilding the engine when the emulator or tenant changes.
    private let options: FirebaseOptions
    private let lock = NSLock()
    /// What the engine is made with beyond the app's options; each change makes it anew.
    private var knobs = Knobs()

    private struct Knobs {
        /// The seams as they were when this `Auth` was made: a change of the emulator, tenant
        /// or language keeps them, whatever the globals say by then.
        var sessionsDirectory = LinuxSeams.sessionsDirectory
        var openBrowser = LinuxSeams.openBrowser
        var emulatorHost: String?
        var tenantID: String?
        var languageCode: String?
        var customAuthDomain: String?
        /// The app's own name, for an app other than the default (`AuthServiceSettings.appName`).
        var appName: String?
    }
    private var core: AuthService
    private var stateListeners: [UUID: (Auth, User?) -> Void] = [:]
    private var tokenListeners: [UUID: (Auth, User?) -> Void] = [:]
    private var stateContinuations: [UUID: AsyncStream<User?>.Continuation] = [:]
    private var tokenContinuations: [UUID: AsyncStream<User?>.Continuation] = [:]
    /// The signed-in user last told to listeners (uid), to tell changes only.
    private var toldUser: String??
    /// The object `currentUser` gives while the same user is current, as the SDK's.
    private var currentUserObject: User?
    /// Refreshes the current user's ID token before it expires while anything listens to tokens.
    let proactiveRefresh = ProactiveRefresh()

    private var storedSettings: AuthSettings? = AuthSettings()

    nonisolated(unsafe) private static var instances: [String: Auth] = [:]
    private static let instancesLock = NSLock()

    private init(app: FirebaseApp) {
        self.app = app
        options = app.options
        knobs.appName = app.name == FirebaseApp.defaultAppName ? nil : app.name
        core = Auth.makeCore(app.options, knobs)
        super.init()
    }

    /// The `Auth` of the default app (`FirebaseApp.configure()` first).
    public static func auth() -> Auth {
        guard let app = FirebaseApp.app() else {
            fatalError("The default FirebaseApp instance must be configured before the default Auth instance can be initialized: call FirebaseApp.configure()")
        }
        return auth(app: app)
    }

    /// The `Auth` of `app`.
    public static func auth(app: FirebaseApp) -> Auth {
        instancesLock.withLock {
            // An app deleted and configured again under its name gets an Auth of its own.
            if let auth = instances[app.name], auth.app === app { return auth }
            let auth = Auth(app: app)
            instances[app.name] = auth
            return auth
        }
    }

    /// Sends every request to an Auth emulator (`fbauth emulator`, Google's) at `host:port`.
    /// Browser sign-ins then redirect to the loopback listener directly.
    public func useEmulator(withHost host: String, port: Int) {
        // As the SDK: an empty host is a programming error, an IPv6 address is bracketed, and
        // app verification is off (as on iOS: an emulator takes any phone verification).
        precondition(!host.isEmpty, "Cannot connect to empty host")
        let formatted = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        lock.withLock {
            knobs.emulatorHost = "\(formatted):\(port)"
            core = Auth.makeCore(options, knobs)
            storedSettings?.appVerificationDisabledForTesting = true
        }
    }

    private static func makeCore(_ options: FirebaseOptions, _ knobs: Knobs) -> AuthService {
        let emulatorHost = knobs.emulatorHost
        var settings = AuthServiceSettings(apiKey: options.apiKey ?? "", emulatorHost: emulatorHost, tenantID: knobs.tenantID, projectID: options.projectID,
                                           configDirectory: knobs.sessionsDirectory)
        settings.clientHeaders.language = knobs.languageCode
        settings.appName = knobs.appName
        settings.logger = LevelledExchangeLogger()
        if let domain = knobs.customAuthDomain { settings.authDomain = domain }
        // An emulator accepts a loopback redirect for every provider, and the hosted page would
        // load the Firebase JS SDK from the internet.
        settings.redirect = emulatorHost == nil ? .hostedHandler : .loopback
        // An SMS needs the reCAPTCHA step, in the browser as the SDK's web view shows it; a
        // password sign-in opens no browser (the SDK needs the reCAPTCHA Enterprise SDK there).
        settings.phoneRecaptchaInBrowser = true
        return AuthService(settings: settings, browser: knobs.openBrowser.map(ClosureBrowser.init(open:)), observer: ProgressObserver())
    }

    var fbauth: AuthService { lock.withLock { core } }

    /// The signed-in user, if any (as the last sign-in on this machine saved it): the same
    /// object until another user is current, brought up to date with what is saved.
    public var currentUser: User? {
        let saved = fbauth.currentUser
        return lock.withLock {
            guard let saved else {
                currentUserObject = nil
                return nil
            }
            if let object = currentUserObject, object.uid == saved.uid, object.tenantID == saved.tenantID {
                object.update(saved)
                return object
            }
            currentUserObject = User(saved, auth: self)
            return currentUserObject
        }
    }

    /// Makes `user` the object `currentUser` gives (a sign-in's result is the current user).
    private func becameCurrent(_ user: User) {
        lock.withLock { currentUserObject = user }
    }

    /// The tenant users sign in to (Identity Platform); nil for the project's own users. Every
    /// sign-in after it is set goes to that tenant, and its users are kept apart, as the SDK
    /// sends `tenantId` with each request.
    open var tenantID: String? {
        get { lock.withLock { knobs.tenantID } }
        set { change { $0.tenantID = newValue } }
    }

    /// Makes the engine anew with changed knobs (the signed-in users stay: they are saved).
    private func change(_ body: (inout Knobs) -> Void) {
        lock.withLock {
            body(&knobs)
            core = Auth.makeCore(options, knobs)
        }
    }

    /// The language (BCP 47) of Firebase's emails and of the providers' pages, sent with every
    /// request (`X-Firebase-Locale`) as the SDK sends it; nil: the project's default.
    open var languageCode: String? {
        get { lock.withLock { knobs.languageCode } }
        set { change { $0.languageCode = newValue } }
    }

    /// Sets `languageCode` to the user's language: the first of the system's preferred
    /// languages (on Linux, from `LANGUAGE`/`LANG`).
    open func useAppLanguage() {
        languageCode = Locale.preferredLanguages.first
    }

    /// The domain of the hosted handler browser sign-ins go through, instead of the project's
    /// `PROJECT.firebaseapp.com` (it must be among the project's authorized domains).
    open var customAuthDomain: String? {
        get { lock.withLock { knobs.customAuthDomain } }
        set { change { $0.customAuthDomain = newValue } }
    }

    /// Settings for tests of an app: `isAppVerificationDisabledForTesting` skips the reCAPTCHA
    /// step of phone verification (for the project's fictional test numbers, and emulators).
    /// Copied when set, as the SDK's `@NSCopying` property is; the one held is changed in place
    /// (`auth.settings?.isAppVerificationDisabledForTesting = true`).
    open var settings: AuthSettings? {
        get { lock.withLock { storedSettings } }
        set { lock.withLock { storedSettings = newValue?.copy() as? AuthSettings } }
    }

    /// Whether phone verification skips reCAPTCHA (`settings`).
    var appVerificationDisabled: Bool { lock.withLock { storedSettings?.isAppVerificationDisabledForTesting ?? false } }

    /// The current user's uid, for other Firebase libraries (the SDK's interop call).
    open func getUserID() -> String? { currentUser?.uid }

    /// The current user's ID token, for other Firebase libraries (the SDK's interop call):
    /// nil and no error when no one is signed in, as the SDK's.
    public func getToken(forcingRefresh forceRefresh: Bool, completion callback: @escaping (String?, Error?) -> Void) {
        guard let user = currentUser else {
            let deliver = UncheckedBox(callback)
            DispatchQueue.main.async { deliver.value(nil, nil) }
            return
        }
        user.getIDTokenForcingRefresh(forceRefresh, completion: callback)
    }

    /// Revokes the current user's Sign in with Apple tokens by the authorization code of a
    /// Sign in with Apple (Apple requires it when an account is deleted).
    open func revokeToken(withAuthorizationCode authorizationCode: String, completion: ((Error?) -> Void)? = nil) {
        run({ () async throws(FBAuthError) -> Void in try await self.fbauth.revokeAuthorizationCode(authorizationCode) }) { (_: Void?, error) in
            completion?(error)
        }
    }

    /// The same, with `async`.
    open func revokeToken(withAuthorizationCode authorizationCode: String) async throws {
        try await bridged { () async throws(FBAuthError) in try await self.fbauth.revokeAuthorizationCode(authorizationCode) }
    }

    /// Makes `user` (a user signed in earlier, of this project) the current user, as the SDK's:
    /// a user of another tenant than `tenantID` is refused (`tenantIDMismatch`).
    open func updateCurrentUser(_ user: User, completion: ((Error?) -> Void)? = nil) {
        if let refusal = tenantRefusal(of: user) {
            let deliver = UncheckedBox(completion)
            DispatchQueue.main.async { deliver.value?(refusal) }
            return
        }
        run({ () async throws(FBAuthError) -> Void in try await self.makeCurrent(user) }) { (_: Void?, error) in
            if error == nil {
                self.becameCurrent(user)
                self.tellListeners()
            }
            completion?(error)
        }
    }

    /// The same, with `async`.
    open func updateCurrentUser(_ user: User) async throws {
        if let refusal = tenantRefusal(of: user) { throw refusal }
        try await bridged { () async throws(FBAuthError) in try await self.makeCurrent(user) }
        becameCurrent(user)
        tellListeners()
    }

    /// `user` made current: as it is when it was signed in through this app's API key, else
    /// reloaded with this one first, as the SDK does (which refuses a user of another project).
    private func makeCurrent(_ user: User) async throws(FBAuthError) {
        let core = fbauth
        guard core.holdsSession(of: user.core) else {
            user.update(try await core.adoptAsCurrentUser(user.core))
            return
        }
        try core.updateCurrentUser(user.core)
    }

    /// firebase-ios-sdk's `updateCurrentUser(_:byForce:savingToDisk:)`: when either has a
    /// tenant, the user's and this `Auth`'s must be the same.
    private func tenantRefusal(of user: User) -> AuthErrorCode? {
        let tenant = tenantID
        guard user.tenantID != nil || tenant != nil, user.tenantID != tenant else { return nil }
        return AuthErrorBridge.error(.tenantIDMismatch, reason: "the user is of \(user.tenantID.map { "tenant " + $0 } ?? "the project") and this Auth of \(tenant.map { "tenant " + $0 } ?? "the project")")
    }

    // MARK: - Signing in

    /// Signs in with a credential: a provider's browser sign-in (`getCredentialWith`), a provider token, or an email and password.
    public func signIn(with credential: AuthCredential, completion: ((AuthDataResult?, Error?) -> Void)? = nil) {
        run({ () async throws(FBAuthError) -> AuthDataResult in try await self.signingIn(with: credential) }, completion)
    }

    /// The same, with `async`.
    public func signIn(with credential: AuthCredential) async throws -> AuthDataResult {
        try await bridged { () async throws(FBAuthError) in try await self.signingIn(with: credential) }
    }

    private func signingIn(with credential: AuthCredential) async throws(FBAuthError) -> AuthDataResult {
        let result: AuthOutcome
        switch try credential.resolved() {
        case .browser(let provider): result = try await fbauth.signIn(with: provider)
        case .tokens(let tokens): result = try await fbauth.signIn(with: tokens)
        case .other(let other): result = try await fbauth.signIn(with: other)
        }
        return signedIn(result)
    }

    /// Signs in with the provider's browser sign-in, as `signIn(with:)` with the credential of
    /// `provider.getCredentialWith(uiDelegate)`. Off Apple platforms the user's browser is the
    /// UI: `uiDelegate` (nil as a rule) is not called.
    open func signIn(with provider: FederatedAuthProvider, uiDelegate: AuthUIDelegate?, completion: ((AuthDataResult?, Error?) -> Void)?) {
        let credential = Auth.browserCredential(provider)
        run({ () async throws(FBAuthError) -> AuthDataResult in try await self.signingIn(with: try credential.get()) }, completion)
    }

    /// The same, with `async`.
    open func signIn(with provider: FederatedAuthProvider, uiDelegate: AuthUIDelegate?) async throws -> AuthDataResult {
        let credential = Auth.browserCredential(provider)
        return try await bridged { () async throws(FBAuthError) in try await self.signingIn(with: try credential.get()) }
    }

    /// The browser sign-in's credential of a federated provider (`OAuthProvider`, the only
    /// kind there is off Apple platforms).
    static func browserCredential(_ provider: FederatedAuthProvider) -> Result<AuthCredential, FBAuthError> {
        guard let provider = provider as? OAuthProvider else {
            return .failure(.usage("only OAuthProvider's sign-in runs in the browser"))
        }
        return .success(OAuthCredential(browser: provider.fbauthProvider))
    }

    /// Signs in with an email and password.
    public func signIn(withEmail email: String, password: String, completion: ((AuthDataResult?, Error?) -> Void)? = nil) {
        run({ () async throws(FBAuthError) -> AuthDataResult in self.signedIn(try await self.fbauth.signIn(withEmail: email, password: password)) }, completion)
    }

    /// The same, with `async`.
    public func signIn(withEmail email: String, password: String) async throws -> AuthDataResult {
        try await bridged { () async throws(FBAuthError) in self.signedIn(try await self.fbauth.signIn(withEmail: email, password: password)) }
    }

    /// Makes an email and password user and signs it in.
    public func createUser(withEmail email: String, password: String, completion: ((AuthDataResult?, Error?) -> Void)? = nil) {
        run({ () async throws(FBAuthError) -> AuthDataResult in self.signedIn(try await self.fbauth.createUser(withEmail: email, password: password)) }, completion)
    }

    /// The same, with `async`.
    public func createUser(withEmail email: String, password: String) async throws -> AuthDataResult {
        try await bridged { () async throws(FBAuthError) in self.signedIn(try await self.fbauth.createUser(withEmail: email, password: password)) }
    }

    /// Signs in a new anonymous user.
    public func signInAnonymously(completion: ((AuthDataResult?, Error?) -> Void)? = nil) {
        run({ () async throws(FBAuthError) -> AuthDataResult in self.signedIn(try await self.fbauth.signInAnonymously(), withoutProvider: true) }, completion)
    }

    /// The same, with `async`.
    public func signInAnonymously() async throws -> AuthDataResult {
        try await bridged { () async throws(FBAuthError) in self.signedIn(try await self.fbauth.signInAnonymously(), withoutProvider: true) }
    }

    /// Signs in with a custom token your server made.
    public func signIn(withCustomToken token: String, completion: ((AuthDataResult?, Error?) -> Void)? = nil) {
        run({ () async throws(FBAuthError) -> AuthDataResult in self.signedIn(try await self.fbauth.signIn(withCustomToken: token), withoutProvider: true) }, completion)
    }

    /// The same, with `async`.
    public func signIn(withCustomToken token: String) async throws -> AuthDataResult {
        try await bridged { () async throws(FBAuthError) in self.signedIn(try await self.fbauth.signIn(withCustomToken: token), withoutProvider: true) }
    }

    /// The sign-in methods of an email (empty where the project hides them: email enumeration
    /// protection, the default since 2023).
    public func fetchSignInMethods(forEmail email: String, completion: (([String]?, Error?) -> Void)? = nil) {
        run({ () async throws(FBAuthError) -> [String] in try await self.fbauth.fetchSignInMethods(forEmail: email) }, completion)
    }

    /// The same, with `async`.
    public func fetchSignInMethods(forEmail email: String) async throws -> [String] {
        try await bridged { () async throws(FBAuthError) in try await self.fbauth.fetchSignInMethods(forEmail: email) }
    }

    /// Has Firebase mail a password-reset link.
    public func sendPasswordReset(withEmail email: String, completion: ((Error?) -> Void)? = nil) {
        run({ () async throws(FBAuthError) -> Void in try await self.fbauth.sendPasswordReset(withEmail: email) }) { (_: Void?, error) in completion?(error) }
    }

    /// The same, with `async`.
    public func sendPasswordReset(withEmail email: String) async throws {
        try await bridged { () async throws(FBAuthError) in try await self.fbauth.sendPasswordReset(withEmail: email) }
    }

    /// Forgets the current user on this machine, as the SDK's `signOut()` does on a device: its
    /// session leaves the disk and the keyring. A `User` object the app kept still gets tokens
    /// in this process, as the SDK's (which keeps them in memory) does.
    public func signOut() throws {
        let kept = lock.withLock { currentUserObject }
        do {
            let inMemory = try fbauth.signOutKeepingInMemory()
            if let inMemory, let kept, kept.uid == inMemory.uid { kept.update(inMemory) }
        } catch {
            throw AuthErrorBridge.error(error)
        }
        lock.withLock { currentUserObject = nil }
        tellListeners()
    }

    // MARK: - Listeners

    /// Calls `listener` on the main queue now, and whenever the signed-in user changes through
    /// this `Auth` (sign-in, sign-out).
    @discardableResult
    open func addStateDidChangeListener(_ listener: @escaping (Auth, User?) -> Void) -> NSObjectProtocol {
        let handle = ListenerHandle()
        lock.withLock { stateListeners[handle.id] = listener }
        callNow(listener)
        return handle
    }

    /// Calls a listener just added with the user of now, on the main queue, as the SDK does.
    private func callNow(_ listener: @escaping (Auth, User?) -> Void) {
        let call = UncheckedBox((listener, currentUser))
        DispatchQueue.main.async { call.value.0(self, call.value.1) }
    }

    /// Stops calling a state listener.
    open func removeStateDidChangeListener(_ listenerHandle: NSObjectProtocol) {
        guard let handle = listenerHandle as? ListenerHandle else { return }
        lock.withLock { _ = stateListeners.removeValue(forKey: handle.id) }
    }

    /// Calls `listener` on the main queue now, and whenever a sign-in, sign-out or refresh
    /// through this `Auth` changes the ID token.
    @discardableResult
    open func addIDTokenDidChangeListener(_ listener: @escaping (Auth, User?) -> Void) -> NSObjectProtocol {
        let handle = ListenerHandle()
        lock.withLock { tokenListeners[handle.id] = listener }
        callNow(listener)
        refreshWhileListened()
        return handle
    }

    /// Stops calling an ID-token listener.
    open func removeIDTokenDidChangeListener(_ listenerHandle: NSObjectProtocol) {
        guard let handle = listenerHandle as? ListenerHandle else { return }
        lock.withLock { _ = tokenListeners.removeValue(forKey: handle.id) }
        refreshWhileListened()
    }

    /// Schedules the current user's next proactive refresh while an ID-token listener or
    /// sequence is attached, and stops when none is (`ProactiveRefresh`).
    private func refreshWhileListened() {
        let listened = lock.withLock { !tokenListeners.isEmpty || !tokenContinuations.isEmpty }
        guard listened, let user = currentUser else {
            proactiveRefresh.stop()
            return
        }
        proactiveRefresh.schedule(expiration: user.core.savedIDToken?.expirationDate) { [weak user] in
            guard let user else { return .otherFailure }
            do {
                _ = try await user.getIDToken(forcingRefresh: true)
                return .refreshed
            } catch let error as AuthErrorCode where error.code == .networkError {
                return .networkFailure
            } catch {
                return .otherFailure
            }
        }
    }

    /// Tells the token listeners, and the state listeners when the user changed.
    func tellListeners() {
        let user = currentUser
        let (state, token, changed, stateStreams, tokenStreams) = lock.withLock {
            () -> ([(Auth, User?) -> Void], [(Auth, User?) -> Void], Bool, [AsyncStream<User?>.Continuation], [AsyncStream<User?>.Continuation]) in
            let changed = toldUser != .some(user?.uid)
            toldUser = .some(user?.uid)
            return (Array(stateListeners.values), Array(tokenListeners.values), changed, Array(stateContinuations.values), Array(tokenContinuations.values))
        }
        // The sequences are told at once, on no queue: a program without a main loop reads them.
        if changed { stateStreams.forEach { $0.yield(user) } }
        tokenStreams.forEach { $0.yield(user) }
        let calls = UncheckedBox((changed ? state : [], token, user))
        DispatchQueue.main.async {
            calls.value.0.forEach { $0(self, calls.value.2) }
            calls.value.1.forEach { $0(self, calls.value.2) }
        }
        // A new token or user: the next proactive refresh is reckoned from it.
        refreshWhileListened()
    }

    /// The user of now, then each change; the stream ends when its reader stops reading.
    func changes(ofTokens tokens: Bool) -> AsyncStream<User?> {
        let (stream, continuation) = AsyncStream<User?>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        lock.withLock {
            if tokens { tokenContinuations[id] = continuation } else { stateContinuations[id] = continuation }
        }
        continuation.yield(currentUser)
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.lock.withLock {
                if tokens { self.tokenContinuations[id] = nil } else { self.stateContinuations[id] = nil }
            }
            if tokens { self.refreshWhileListened() }
        }
        if tokens { refreshWhileListened() }
        return stream
    }

    // MARK: - Plumbing

    func signedIn(_ result: AuthOutcome, withoutProvider: Bool = false) -> AuthDataResult {
        defer { tellListeners() }
        let signedIn = AuthDataResult(result, auth: self, withoutProvider: withoutProvider)
        becameCurrent(signedIn.user)
        return signedIn
    }

    /// A link or reauthentication: as the SDK's, its result's user is `user` itself, updated.
    func signedIn(_ result: AuthOutcome, updating user: User) -> AuthDataResult {
        user.update(result.user)
        defer { tellListeners() }
        return AuthDataResult(result, user: user)
    }

    /// Runs `work` off the caller's thread and hands its outcome to `completion` on the main
    /// queue, as the SDK does.
    func run<T>(_ work: @escaping @Sendable () async throws(FBAuthError) -> T, _ completion: ((T?, Error?) -> Void)?) {
        let deliver = UncheckedBox(completion)
        Task.detached {
            do throws(FBAuthError) {
                let value = UncheckedBox(try await work())
                DispatchQueue.main.async { deliver.value?(value.value, nil) }
            } catch {
                let bridged = AuthErrorBridge.error(error, auth: self)
                DispatchQueue.main.async { deliver.value?(nil, bridged) }
            }
        }
    }

    /// `work` with its failure as the SDK's `NSError`.
    func bridged<T>(_ work: () async throws(FBAuthError) -> T) async throws -> T {
        do {
            return try await work()
        } catch {
            throw AuthErrorBridge.error(error, auth: self)
        }
    }
}

/// A value handed across threads as the SDK hands its results to the main queue.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// What `addStateDidChangeListener` and `addIDTokenDidChangeListener` return: an
/// `NSObjectProtocol`, as the SDK's, to remove the listener with.
final class ListenerHandle: NSObject, @unchecked Sendable {
    let id = UUID()
}
