#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthSupport
import LoopbackHTTP

/// What a command runs with — the dependencies, the global options and the settings they and
/// the environment make (`RunSettings`, read once) — and the wiring from them to the library.
package struct CommandContext: Sendable {
    package var dependencies: Dependencies
    package var globals: GlobalOptions
    /// Whether the running command can start from nothing (`RunnableCommand.startsSession`).
    var startsSession = false
    /// Read and checked once, before the command runs.
    let settings: RunSettings

    /// The run's sessions when it keeps nothing (`--store none`, a refresh token given); nil:
    /// the config directory's.
    let sessionMemory: SessionMemory?
    /// The status fbauth exits with when a command it ran decides it (`emulator exec`).
    let exitStatus = ExitStatusOverride()

    /// Reads the settings; a bad one is a usage error here, before anything runs.
    package init(dependencies: Dependencies, globals: GlobalOptions) throws(FBAuthError) {
        self.dependencies = dependencies
        self.globals = globals
        settings = try RunSettings(environment: dependencies.environment, globals: globals, console: dependencies.console)
        sessionMemory = settings.keepsNothing ? SessionMemory() : nil
    }

    /// For the commands that read no setting (help, completion), which must work whatever the
    /// environment holds: `fbauth help environment` is how a bad setting gets fixed.
    init(dependencies: Dependencies, globals: GlobalOptions, settings: RunSettings) {
        self.dependencies = dependencies
        self.globals = globals
        self.settings = settings
        sessionMemory = nil
    }

    var console: Console { dependencies.console }
    var environment: [String: String] { dependencies.environment }
    var clock: WallClock { dependencies.clock }

    /// `--config-dir`; nil: the library's default (`FBAUTH_CONFIG_DIR`, XDG, `~/.config/fbauth`).
    var sessionDirectory: String? { globals.configDirectory }

    /// The library configured for `project` with this run's settings and this process's
    /// browser, terminal, clock and Ctrl-C: the door every command goes through (issue 28).
    /// `opensBrowser` false: pages (reCAPTCHA, sign-in) are shown as addresses to open;
    /// `configure` sets what the command adds (a browser flow's options, its second-factor prompt).
    func auth(for project: ProjectContext, opensBrowser: Bool = true,
              _ configure: (inout AuthServiceSettings) -> Void = { _ in }) throws(FBAuthError) -> AuthService {
        var authSettings = AuthServiceSettings(apiKey: project.apiKey, emulatorHost: project.emulatorHost, tenantID: project.tenantId,
                                        projectID: project.projectId, configDirectory: sessionDirectory)
        authSettings.authDomain = settings.authDomain
        authSettings.firebaseJSURL = settings.firebaseJSBase
        authSettings.listenerCheck = settings.listenerGuard
        authSettings.opensBrowser = opensBrowser
        // As the SDKs answer reCAPTCHA in the app's web view, fbauth answers it in the browser.
        authSettings.recaptchaInBrowser = true
        authSettings.requestTimeout = settings.httpTimeout
        authSettings.secretStorage = settings.secretStorage
        authSettings.appCheck = settings.appCheck
        authSettings.clientHeaders = try clientIdentity()
        authSettings.logger = globals.verbose ? VerboseLogger(console: console) : nil
        authSettings.advice = CommandLineAdvice.words
        authSettings.signInAgain = { user in user.signInAgainAdvice }
        authSettings.credentialPartNames = CredentialOptions.TokenSources.optionNames
        authSettings.sessionMemory = sessionMemory
        configure(&authSettings)
        let style = TerminalStyle(console: console, environment: environment)
        let auth = AuthService(settings: authSettings, browser: dependencies.browser,
                        observer: ConsoleSignInObserver(console: console, style: style, verbose: globals.verbose),
                        transport: dependencies.transport,
                        host: AuthHost(clock: clock, interrupts: dependencies.interrupts, secrets: dependencies.secrets, environment: environment))
        // The session of a refresh token given to the run, exchanged once: every Auth of the
        // run shares the memory it is kept in. A sign-in makes its own.
        if let given = settings.refreshToken, !startsSession, auth.currentUser == nil {
            do throws(FBAuthError) {
                try auth.adoptRefreshToken(given.token)
            } catch .signInAgain(let text, let remedy) {
                throw .signInAgain("\(given.source): \(text)", remedy: remedy)
            } catch {
                throw error.naming(given.source)
            }
        }
        return auth
    }

    /// The user the command acts on (`--user`, else the current one), through the library.
    func user() throws(FBAuthError) -> SignedInUser {
        try auth(for: project()).savedUser(globals.user)
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

    /// Who answers a second factor: the person at the terminal (or `--mfa-code-file`/stdin),
    /// or the demo's own authenticator app.
    func secondFactorPrompt(_ options: SecondFactorOptions, stdinTaken: Bool = false) -> MultiFactorPrompt {
        dependencies.secondFactors ?? TerminalSecondFactor(console: console, options: options, stdinTaken: stdinTaken)
    }
}

/// The exit status of a command fbauth ran for the user (`emulator exec -- CMD` exits with
/// CMD's), set once by the command.
package final class ExitStatusOverride: @unchecked Sendable {
    private let lock = Lock()
    private var status: Int32?

    package var value: Int32? { lock.withLock { status } }

    func set(_ status: Int32) { lock.withLock { self.status = status } }
}
