#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthSupport

/// Every effect fbauth has on the world enters through this value: the network, the terminal,
/// the environment, the clock, the browser and the local stand-in. `main.swift` builds the
/// live one; tests build theirs with fakes.
package struct Dependencies: Sendable {
    package var transport: HTTPTransport
    package var console: Console
    package var environment: [String: String]
    package var clock: WallClock
    package var browser: BrowserLauncher
    /// The local stand-in for Firebase Auth (`demo`, `emulator`); nil where it is not linked in.
    package var standIn: LocalStandIn?
    /// Ctrl-C while waiting for the browser.
    package var interrupts: InterruptSource
    /// Unguessable values for a sign-in's page.
    package var secrets: SecretTokens
    /// Who answers a second factor; nil: the person at the terminal (`TerminalSecondFactor`).
    /// The demo's built-in authenticator app answers in its place.
    package var secondFactors: MultiFactorPrompt?
    /// Runs a command the user gave (`emulator exec -- CMD`) in the foreground, passing on the
    /// signals the pipe reports; its status.
    package var runCommand: @Sendable (_ arguments: [String], _ environment: [String: String], _ interrupts: Int32?) -> Result<Int32, Platform.FileProblem> = {
        Platform.runInForeground($0, environment: $1, interrupts: $2)
    }

    package init(transport: HTTPTransport, console: Console, environment: [String: String], clock: WallClock,
                browser: BrowserLauncher, standIn: LocalStandIn? = nil, interrupts: InterruptSource = NoInterrupts(),
                secrets: SecretTokens = SystemSecretTokens()) {
        self.transport = transport
        self.console = console
        self.environment = environment
        self.clock = clock
        self.browser = browser
        self.standIn = standIn
        self.interrupts = interrupts
        self.secrets = secrets
    }
}

/// Starts fbauth's own stand-in for Firebase Auth and fake providers on loopback.
package protocol LocalStandIn: Sendable {
    /// Serves on 127.0.0.1:`port` (0: any free port), minting ID tokens that last
    /// `tokenLifetime` seconds, with the users of an export in `importing` (Google's Auth
    /// emulator's layout) when given.
    /// `appCheck`: the App Check debug tokens it registers, and whether it enforces App Check.
    func start(_ setup: LocalEmulatorSetup) throws(FBAuthError) -> RunningStandIn
    /// The demo's fake account at a provider: one whose address the provider vouches for where
    /// it hosts addresses (demo@yahoo.com at Yahoo), so that its sign-in verifies it.
    func demoAccount(at providerId: String) -> String
}

/// How `fbauth emulator` (and `demo`) starts the stand-in.
package struct LocalEmulatorSetup: Sendable, Equatable {
    package var port: UInt16
    /// The project of clients with an API key.
    package var project = "fbauth-stand-in"
    package var tokenLifetime = 3600
    /// ID tokens signed with RS256 by the stand-in's published key; otherwise `alg: none`, as
    /// Google's Auth emulator makes them.
    package var signsTokens = true
    /// Consent at the fake providers at once, as this account; nil: the consent page.
    package var autoConsentEmail: String?
    package var importing: String?
    package var appCheck: LocalAppCheck?
    /// The project's test phone numbers and their fixed codes (`--test-phone-number`).
    package var testPhoneNumbers: [String: String] = [:]
    /// The project's password hash parameters, as the console shows them (`--hash-config FILE`).
    package var hashParameters: String?
    /// Blocking functions' URLs by trigger (`--blocking-function EVENT=URL`).
    package var blockingFunctions: [String: String] = [:]

    package init(port: UInt16) { self.port = port }
}

/// App Check on the local stand-in (`fbauth emulator --app-check-debug-token-file`,
/// `--enforce-app-check`).
package struct LocalAppCheck: Sendable, Equatable {
    package var debugTokens: [String]
    package var enforced: Bool

    package init(debugTokens: [String], enforced: Bool) {
        self.debugTokens = debugTokens
        self.enforced = enforced
    }
}

extension LocalStandIn {
    package func demoAccount(at providerId: String) -> String { "demo@example.com" }

    func start(port: UInt16, tokenLifetime: Int) throws(FBAuthError) -> RunningStandIn {
        var setup = LocalEmulatorSetup(port: port)
        setup.tokenLifetime = tokenLifetime
        return try start(setup)
    }
}

package protocol RunningStandIn: Sendable {
    /// `127.0.0.1:PORT`, the value for `FIREBASE_AUTH_EMULATOR_HOST`.
    var hostAndPort: String { get }
    /// What `--import` found.
    var imported: ImportedUsers { get }
    /// Hands each mail and SMS the stand-in "sends" to `deliver`.
    func deliverMessages(to deliver: @escaping @Sendable (String) -> Void)
    /// Opens (creating it) the directory an export will go to, and refuses one that another
    /// user could tamper with, before anything is served.
    func prepareExport(to directory: String) throws(FBAuthError)
    /// A browser that fbauth drives itself, consenting as `email`.
    func headlessBrowser(email: String) -> BrowserLauncher
    /// The code an authenticator app shows now for a TOTP secret (base32): the demo's own app.
    func authenticatorCode(secret: String) -> String?
    /// Writes the users and settings to `directory` in Google's Auth emulator's layout.
    func export(to directory: String) throws(FBAuthError)
    func stop()
}

/// What the stand-in's `--import` found, for the line `fbauth emulator` prints.
package enum ImportedUsers: Sendable, Equatable {
    case notAsked
    /// No such directory yet: a first start.
    case noDirectory
    case emptyDirectory
    case users(Int)
}

extension RunningStandIn {
    package var imported: ImportedUsers { .notAsked }
}
