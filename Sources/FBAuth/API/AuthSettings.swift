#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Everything an `Auth` is configured with, in one value: the project, how a browser sign-in
/// comes back, and what every request carries. The Apple SDK spreads these over `FirebaseApp`'s
/// options, `Auth.useEmulator(withHost:port:)`, `tenantID`, `languageCode` and the app's
/// bundle; a program on Linux has no bundle, so they are given here, checked by the caller
/// (fbauth reads them from its options and environment once, before a command runs).
public struct AuthSettings: Sendable {
    /// The project's Web API key.
    public var apiKey: String
    /// `host:port` of an Auth emulator (or `fbauth emulator`), as `FIREBASE_AUTH_EMULATOR_HOST`.
    public var emulatorHost: String?
    /// The tenant users sign in to (Identity Platform multi-tenancy).
    public var tenantID: String?
    /// The project id, when known: it gives the hosted handler's default domain
    /// (`PROJECT.firebaseapp.com`).
    public var projectID: String?
    /// Where `sessions.json` lives; nil: `$FBAUTH_CONFIG_DIR`, else `$XDG_CONFIG_HOME/fbauth`,
    /// else `~/.config/fbauth`.
    public var configDirectory: String?
    /// Where new refresh tokens (and X token secrets) are kept; nil: where the config directory
    /// remembers, else the OS keyring when one answers, else `sessions.json` — chosen on the
    /// first sign-in and said once. `.keyring` without a keyring is an error, never a fallback.
    public var secretStorage: SecretStorage?
    /// Keep sessions here, in the process, instead of the config directory and the keyring:
    /// nothing is read from or written to either (`fbauth --store none`). Nil: on disk.
    public var sessionMemory: SessionMemory?
    /// Whether sessions stay in the process (`sessionMemory`).
    public var keepsSessionsInMemory: Bool { sessionMemory != nil }
    /// App Check with a debug token, for projects that enforce it; nil: no App Check token is
    /// exchanged or sent.
    public var appCheck: AppCheckDebugSettings?

    /// How the provider's redirect comes back: through Firebase's hosted handler (a browser that
    /// runs JavaScript) or straight to a loopback listener (`.loopback`).
    public var redirect: RedirectRoute = .hostedHandler
    /// The loopback listener's port (0: any free port; `.loopback` needs the registered one).
    public var port: UInt16 = 0
    /// How long a browser sign-in waits for the browser.
    public var timeout: Duration = .seconds(300)
    /// The hosted handler's domain, when it is not `PROJECT.firebaseapp.com` (a custom domain).
    public var authDomain: String?
    /// Where the hosted flow's page loads the Firebase JS SDK from; nil: Google's CDN, the
    /// version `firebaseJSVersion`.
    public var firebaseJSURL: String?
    /// The Firebase JS SDK version the hosted flow's page loads (a copy must hold its files).
    public static var firebaseJSVersion: String { HostedPage.sdkVersion }
    /// Who may connect to a sign-in's listener.
    public var listenerCheck: ListenerGuard = .ownConnectionsOnly
    /// Whether a browser is launched; false: the address to open is shown to the observer.
    public var opensBrowser = true
    /// The loopback redirect's host (`.loopback` only): the one registered with the provider.
    public var redirectHost: RedirectHost = .localhost
    /// What the program records with a sign-in so that it can be repeated (fbauth: its
    /// options); kept with the session as `User.signInArguments`.
    public var signInArguments: [String]?
    /// How messages name the parts of a provider credential.
    public var credentialPartNames = CredentialPartNames.sdk
    /// Who answers a second factor during the operation that meets it; nil: the operation
    /// throws `secondFactorRequired`, as in the SDK.
    public var secondFactorPrompt: MultiFactorPrompt?
    /// Whether Firebase's reCAPTCHA (before an SMS code; password requests of projects that
    /// enforce reCAPTCHA Enterprise) is answered on a page in the browser, as the SDKs answer it
    /// in the app's web view. Off: no token is sent, which such projects refuse.
    public var recaptchaInBrowser = false

    /// Seconds each request to Firebase may take.
    public var requestTimeout: TimeInterval = 30
    /// The headers that identify the app (locale, app id, the platform headers an API key's
    /// restrictions ask for).
    public var clientHeaders = ClientIdentity()
    /// Sees each exchange with Firebase, secrets redacted; nil: none.
    public var logger: HTTPExchangeLogger?
    /// How advice names the other ways to sign in.
    public var advice = AdviceWords()
    /// What to tell a user whose session must be signed in again; nil: "sign in again".
    public var signInAgain: (@Sendable (User) -> String)?

    public init(apiKey: String, emulatorHost: String? = nil, tenantID: String? = nil, projectID: String? = nil, configDirectory: String? = nil) {
        self.apiKey = apiKey
        self.emulatorHost = emulatorHost
        self.tenantID = tenantID
        self.projectID = projectID
        self.configDirectory = configDirectory
    }
}
