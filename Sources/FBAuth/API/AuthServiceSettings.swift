#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Everything an `AuthService` is configured with, in one value: the project, how a browser sign-in
/// comes back, and what every request carries. The Apple SDK spreads these over `FirebaseApp`'s
/// options, `AuthService.useEmulator(withHost:port:)`, `tenantID`, `languageCode` and the app's
/// bundle; a program on Linux has no bundle, so they are given here, checked by the caller
/// (fbauth reads them from its options and environment once, before a command runs).
package struct AuthServiceSettings: Sendable {
    /// The project's Web API key.
    package var apiKey: String
    /// `host:port` of an Auth emulator (or `fbauth emulator`), as `FIREBASE_AUTH_EMULATOR_HOST`.
    package var emulatorHost: String?
    /// The tenant users sign in to (Identity Platform multi-tenancy).
    package var tenantID: String?
    /// The app of the SDK's API this `AuthService` serves, when it is not the default app: its
    /// current user is its own, as firebase-ios-sdk keeps the stored user by app name. Nil: the
    /// project's current user, which the command line and the default app share.
    package var appName: String?
    /// The project id, when known: it gives the hosted handler's default domain
    /// (`PROJECT.firebaseapp.com`).
    package var projectID: String?
    /// Where `sessions.json` lives; nil: `$FBAUTH_CONFIG_DIR`, else `$XDG_CONFIG_HOME/fbauth`,
    /// else `~/.config/fbauth`.
    package var configDirectory: String?
    /// Where new refresh tokens (and X token secrets) are kept; nil: where the config directory
    /// remembers, else the OS keyring when one answers, else `sessions.json` — chosen on the
    /// first sign-in and said once. `.keyring` without a keyring is an error, never a fallback.
    package var secretStorage: SecretStorage?
    /// Keep sessions here, in the process, instead of the config directory and the keyring:
    /// nothing is read from or written to either (`fbauth --store none`). Nil: on disk.
    package var sessionMemory: SessionMemory?
    /// Whether sessions stay in the process (`sessionMemory`).
    package var keepsSessionsInMemory: Bool { sessionMemory != nil }
    /// App Check with a debug token, for projects that enforce it; nil: no App Check token is
    /// exchanged or sent.
    package var appCheck: AppCheckDebugSettings?

    /// How the provider's redirect comes back: through Firebase's hosted handler (a browser that
    /// runs JavaScript) or straight to a loopback listener (`.loopback`).
    package var redirect: RedirectRoute = .hostedHandler
    /// The loopback listener's port (0: any free port; `.loopback` needs the registered one).
    package var port: UInt16 = 0
    /// How long a browser sign-in waits for the browser.
    package var timeout: Duration = .seconds(300)
    /// The hosted handler's domain, when it is not `PROJECT.firebaseapp.com` (a custom domain).
    package var authDomain: String?
    /// Where the hosted flow's page loads the Firebase JS SDK from; nil: Google's CDN, the
    /// version `firebaseJSVersion`.
    package var firebaseJSURL: String?
    /// The Firebase JS SDK version the hosted flow's page loads (a copy must hold its files).
    package static var firebaseJSVersion: String { HostedPage.sdkVersion }
    /// Who may connect to a sign-in's listener.
    package var listenerCheck: ListenerGuard = .ownConnectionsOnly
    /// Whether a browser is launched; false: the address to open is shown to the observer.
    package var opensBrowser = true
    /// The loopback redirect's host (`.loopback` only): the one registered with the provider.
    package var redirectHost: RedirectHost = .localhost
    /// What the program records with a sign-in so that it can be repeated (fbauth: its
    /// options); kept with the session as `SignedInUser.signInArguments`.
    package var signInArguments: [String]?
    /// How messages name the parts of a provider credential.
    package var credentialPartNames = CredentialPartNames.sdk
    /// Who answers a second factor during the operation that meets it; nil: the operation
    /// throws `secondFactorRequired`, as in the SDK.
    package var secondFactorPrompt: MultiFactorPrompt?
    /// Whether Firebase's reCAPTCHA (before an SMS code; password requests of projects that
    /// enforce reCAPTCHA Enterprise) is answered on a page in the browser, as the SDKs answer it
    /// in the app's web view. Off: no token is sent, which such projects refuse.
    package var recaptchaInBrowser = false
    /// The same for phone numbers alone, where it differs (`FirebaseAuth`: an SMS needs the
    /// reCAPTCHA step, a password sign-in opens no browser); nil: as `recaptchaInBrowser`.
    package var phoneRecaptchaInBrowser: Bool?

    /// Seconds each request to Firebase may take.
    package var requestTimeout: TimeInterval = 30
    /// The headers that identify the app (locale, app id, the platform headers an API key's
    /// restrictions ask for).
    package var clientHeaders = ClientIdentity()
    /// Sees each exchange with Firebase, secrets redacted; nil: none.
    package var logger: HTTPExchangeLogger?
    /// How advice names the other ways to sign in.
    package var advice = AdviceWords()
    /// What to tell a user whose session must be signed in again; nil: "sign in again".
    package var signInAgain: (@Sendable (SignedInUser) -> String)?

    package init(apiKey: String, emulatorHost: String? = nil, tenantID: String? = nil, projectID: String? = nil, configDirectory: String? = nil) {
        self.apiKey = apiKey
        self.emulatorHost = emulatorHost
        self.tenantID = tenantID
        self.projectID = projectID
        self.configDirectory = configDirectory
    }
}
