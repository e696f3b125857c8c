#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import LoopbackHTTP
import FBAuthSupport

/// What a command runs with — the dependencies, the global options and the settings they and
/// the environment make (`RunSettings`, read once) — and the wiring from them to the library.
package struct CommandContext: Sendable {
    package var dependencies: Dependencies
    package var globals: GlobalOptions
    /// Whether the running command can start from nothing (`RunnableCommand.startsSession`).
    var startsSession = false
    /// Read and checked once, before the command runs.
    let settings: RunSettings

    /// Reads the settings; a bad one is a usage error here, before anything runs.
    package init(dependencies: Dependencies, globals: GlobalOptions) throws(FBAuthError) {
        self.dependencies = dependencies
        self.globals = globals
        settings = try RunSettings(environment: dependencies.environment, globals: globals)
    }

    /// For the commands that read no setting (help, completion), which must work whatever the
    /// environment holds: `fbauth help environment` is how a bad setting gets fixed.
    init(dependencies: Dependencies, globals: GlobalOptions, settings: RunSettings) {
        self.dependencies = dependencies
        self.globals = globals
        self.settings = settings
    }

    var console: Console { dependencies.console }
    var environment: [String: String] { dependencies.environment }
    var clock: WallClock { dependencies.clock }

    /// The session the command acts on: `--user`, else the current one.
    var selector: SessionSelector { globals.user.map(SessionSelector.user) ?? .current }

    /// The project: API key (flag, app config, then `FIREBASE_API_KEY`) and which server it
    /// lives on; with none of them, the project of the last sign-in (`contents`, when the caller
    /// has read the store already).
    func projectKey(in contents: StoreContents? = nil) throws(FBAuthError) -> ProjectKey {
        try projectIdentity(in: contents).key
    }

    /// Whether the command line or environment names a project (rather than the remembered one).
    var namesProject: Bool {
        globals.appConfig != nil || globals.apiKey != nil || globals.project != nil || !(environment["FIREBASE_API_KEY"] ?? "").isEmpty
    }

    /// The project `--api-key` or `FIREBASE_API_KEY` names, else the remembered one (not for
    /// `--app-config`, which `projectKey` reads).
    func projectChoice() throws(FBAuthError) -> ProjectChoice {
        try ProjectChoice.from(apiKey: globals.apiKey, variable: { environment[$0] })
    }

    /// The project key and, when known, the project id.
    private func projectIdentity(in contents: StoreContents? = nil) throws(FBAuthError) -> (key: ProjectKey, projectId: String?) {
        if let config = settings.appConfig {
            return (ProjectKey(apiKey: config.apiKey, emulatorHost: settings.emulatorHost), config.projectId)
        }
        if let projectId = globals.project {
            let saved: StoreContents
            if let contents { saved = contents } else { saved = try sessionStore().load() }
            return (try saved.project(byId: projectId, onEmulator: settings.emulatorHost,
                                      startsSession: startsSession, fbauth: CommandName.forSuggestions(environment: environment)), projectId)
        }
        let emulatorHost: String?
        switch try projectChoice() {
        case .key(let key): return (key, nil)
        case .remembered(let host): emulatorHost = host
        }
        let saved: StoreContents
        if let contents { saved = contents } else { saved = try sessionStore().load() }
        if let remembered = saved.remembered(onEmulator: emulatorHost) {
            let projectId = saved.project(remembered)?.projectId
            if startsSession {
                // A sign-in that nobody pointed at a project goes where the last one went: say so.
                console.say("Using \(remembered.displayName(projectId: projectId)) from your last sign-in; pass --api-key or FIREBASE_API_KEY for another.")
            }
            return (remembered, projectId)
        }
        // No project named and none known: a command that needs a signed-in user finds
        // nobody (exit 3), one that signs in needs to be told the project (exit 2).
        throw startsSession ? ProjectKey.missing : ProjectKey.nobodySignedIn
    }

    /// A client for the project's API.
    func client(for key: ProjectKey) throws(FBAuthError) -> FirebaseAuthClient {
        FirebaseAuthClient(
            endpoints: key.emulatorHost.map(FirebaseEndpoints.emulator) ?? .production, apiKey: key.apiKey,
            transport: dependencies.transport, timeout: settings.httpTimeout,
            logger: globals.verbose ? VerboseLogger(console: console) : nil, identity: try clientIdentity())
    }

    /// The headers that identify fbauth and satisfy API-key restrictions: options first, then
    /// what `--app-config` says, then the user's locale.
    func clientIdentity() throws(FBAuthError) -> ClientIdentity {
        let config = settings.appConfig
        return ClientIdentity(
            iosBundleId: globals.iosBundleId ?? config?.iosBundleId,
            androidPackage: globals.androidPackage ?? config?.androidPackage,
            androidCert: globals.androidPackage != nil ? globals.androidCert : config?.androidCert,
            referer: globals.referer,
            language: globals.language ?? ClientIdentity.language(fromEnvironment: environment),
            appId: config?.appId)
    }

    /// Project key, client and tenant together, for commands that talk to Firebase.
    func project() throws(FBAuthError) -> ProjectContext {
        let (key, projectId) = try projectIdentity()
        return ProjectContext(key: key, client: try client(for: key), tenantId: globals.tenantId, projectId: projectId)
    }

    /// Where an Auth emulator keeps the links it "mailed" (empty against Firebase), for the
    /// sentences that say a link was mailed.
    func mailNote(for project: ProjectContext) -> String {
        let projectId = project.projectId ?? (try? sessionStore().load().project(project.key)?.projectId) ?? nil
        return project.client.endpoints.mailNote(projectId: projectId)
    }

    /// The browser flow against the project, with this process's browser, terminal and Ctrl-C;
    /// `secondFactor`: who completes a sign-in that needs one (nil: such a sign-in fails).
    func browserFlow(for project: ProjectContext, secondFactor: SecondFactorHandling? = nil) throws(FBAuthError) -> BrowserSignInFlow {
        let style = TerminalStyle(console: console, environment: environment)
        var headless = HeadlessAdvice(environment: environment)
        headless.againstEmulator = project.key.emulatorHost != nil
        headless.words = CommandLineAdvice.words
        return BrowserSignInFlow(
            client: project.client, browser: dependencies.browser, observer: ConsoleSignInObserver(console: console, style: style, verbose: globals.verbose),
            clock: clock, tenantId: project.tenantId, interrupts: dependencies.interrupts,
            settings: BrowserFlowSettings(showsWaitingLine: style.isRich, firebaseJSBase: settings.firebaseJSBase, authDomain: settings.authDomain,
                                          projectId: project.projectId, secrets: dependencies.secrets, launchDirectory: sessionStore().directory,
                                          headless: headless, listenerGuard: settings.listenerGuard),
            secondFactor: secondFactor)
    }

    /// How this command completes a sign-in that needs a second factor: asked at the terminal
    /// (or read from `--mfa-code-file`/stdin), with a phone number's reCAPTCHA step in the
    /// browser (`openBrowser` false: the address is shown instead).
    func secondFactorHandling(_ options: SecondFactorOptions, project: ProjectContext, openBrowser: Bool = true,
                              stdinTaken: Bool = false) throws(FBAuthError) -> SecondFactorHandling {
        SecondFactorHandling(
            resolver: dependencies.secondFactors ?? TerminalSecondFactor(console: console, options: options, stdinTaken: stdinTaken),
            phoneVerifier: RecaptchaPhoneVerifier(flow: try browserFlow(for: project), openBrowser: openBrowser))
    }

    /// reCAPTCHA Enterprise tokens for email/password requests, from fbauth's page in the
    /// browser (`openBrowser` false: its address is shown instead).
    func recaptchaTokens(for project: ProjectContext, openBrowser: Bool = true) throws(FBAuthError) -> RecaptchaTokenSource {
        BrowserRecaptchaTokens(flow: try browserFlow(for: project), openBrowser: openBrowser)
    }

    func sessionStore() -> FileSessionStore {
        let directory = Platform.absolutePath(FileSessionStore.directory(option: globals.configDirectory, environment: environment))
        return FileSessionStore(directory: directory, waiting: { [console] _ in console.say("another fbauth is using \(directory); waiting") })
    }

    func tokenRefresher(for key: ProjectKey) -> TokenRefresher {
        TokenRefresher(store: sessionStore(), project: key, clock: clock, signInAdvice: CommandLineAdvice.signIn,
                       makeClient: { () throws(FBAuthError) in try client(for: key) })
    }
}

/// A resolved project: where its sessions are kept and a client for its API.
struct ProjectContext {
    var key: ProjectKey
    var client: FirebaseAuthClient
    var tenantId: String?
    /// From `--app-config`, when given.
    var projectId: String?
}

extension ProjectKey {
    static func resolve(apiKey: String, environment: [String: String]) throws(FBAuthError) -> ProjectKey {
        ProjectKey(apiKey: apiKey, emulatorHost: try FirebaseEndpoints.from(environment: environment).emulatorHost)
    }

    static let nobodySignedIn = FBAuthError.signInAgain("nobody is signed in, and no project is known yet: sign in first (`fbauth signin --provider ID` with FIREBASE_API_KEY set, or --api-key KEY, or --app-config FILE)")

    static let missing = FBAuthError.usage("no Firebase Web API key: set FIREBASE_API_KEY, or pass --app-config FILE (or --api-key KEY) (Firebase console → Project settings → General → Web API key); after a sign-in fbauth remembers the project")
}

extension ProjectChoice {
    /// `apiKey` (from `--api-key`), else `FIREBASE_API_KEY`, names the project; with neither, the
    /// remembered one. Either on the emulator of `FIREBASE_AUTH_EMULATOR_HOST`, when set.
    static func from(apiKey: String?, variable: (String) -> String?) throws(FBAuthError) -> ProjectChoice {
        let emulatorHost = try FirebaseEndpoints.emulatorHost(setting: variable("FIREBASE_AUTH_EMULATOR_HOST"))
        guard let apiKey = apiKey ?? variable("FIREBASE_API_KEY").flatMap({ $0.isEmpty ? nil : $0 }) else {
            return .remembered(emulatorHost: emulatorHost)
        }
        if let problem = APIKey.problem(apiKey, named: apiKey == variable("FIREBASE_API_KEY") ? "FIREBASE_API_KEY" : "--api-key") { throw problem }
        return .key(ProjectKey(apiKey: apiKey, emulatorHost: emulatorHost))
    }
}

extension StoreContents {
    /// The saved project whose id is `projectId` (on `emulatorHost` when one is given); several
    /// (one id on two emulators) or none are explained with the commands that pick each.
    func project(byId projectId: String, onEmulator emulatorHost: String?, startsSession: Bool, fbauth: String) throws(FBAuthError) -> ProjectKey {
        let matching = projects.values.filter { $0.projectId == projectId && (emulatorHost == nil || $0.emulatorHost == emulatorHost) }
            .map { ProjectKey(apiKey: $0.apiKey, emulatorHost: $0.emulatorHost) }.sorted { $0.storageKey < $1.storageKey }
        if matching.count == 1 { return matching[0] }
        if matching.isEmpty {
            let where_ = emulatorHost.map { " on the emulator at \($0)" } ?? ""
            let message = "fbauth has no sessions for project \(projectId)\(where_); "
            if startsSession { throw .usage(message + "a first sign-in needs its Web API key (FIREBASE_API_KEY, --api-key or --app-config)") }
            throw .signInAgain(message + "sign in first (`\(fbauth) signin --provider ID` with its API key); `\(fbauth) accounts --all` lists the projects fbauth knows")
        }
        throw .usage("project \(projectId) is saved on several servers; pick one: " + matching.map { "`" + ProjectPicker.command(for: $0, projectId: projectId, fbauth: fbauth) + " …`" }.joined(separator: "; or "))
    }

    /// The project commands use when none is named: the last one signed in to; with an emulator
    /// host given, the last one on that emulator.
    func remembered(onEmulator emulatorHost: String?) -> ProjectKey? {
        if let remembered = rememberedProject, remembered.emulatorHost == emulatorHost || emulatorHost == nil {
            return remembered
        }
        guard let emulatorHost else { return nil }
        let candidates = projects.values.filter { $0.emulatorHost == emulatorHost }
        let latest = candidates.max { a, b in
            (a.sessions.map(\.lastSignInTime).max() ?? .distantPast) < (b.sessions.map(\.lastSignInTime).max() ?? .distantPast)
        }
        return latest.map { ProjectKey(apiKey: $0.apiKey, emulatorHost: $0.emulatorHost) }
    }
}
