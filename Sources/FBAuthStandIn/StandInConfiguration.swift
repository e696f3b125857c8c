#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthHTTP

/// How the stand-in behaves. The defaults follow the production service as documented; the
/// switches reproduce documented variants (the official emulator, project settings).
package struct StandInConfiguration: Sendable {
    /// The project id in ID tokens (`aud`, `iss`).
    package var projectId = "fbauth-stand-in"
    /// The project number securetoken reports as `project_id`.
    package var projectNumber = "123456789012"
    /// Lifetime of minted Firebase ID tokens, in seconds (production: 3600).
    package var idTokenLifetime = 3600
    /// Certificates (kid → PEM) published where Google publishes securetoken's
    /// (`/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com`,
    /// with `Cache-Control: max-age` as Google sends it), for a server to verify ID tokens
    /// with; nil: not served.
    package var publishedCertificates: [String: String]?
    /// Sign ID tokens with RS256 by the stand-in's own key (public on purpose) and publish its
    /// certificate there, under kid `stand-in`, as `fbauth emulator` does; otherwise the
    /// signature is random bytes, which is faster and all a client sees.
    package var signsIDTokens = false
    /// The project's fictional phone numbers and their fixed codes, as production's
    /// `testPhoneNumbers`: no text is "sent" (none is listed), the code is always the same
    /// (`fbauth emulator --test-phone-number`; `projects/P/config`'s `signIn.phoneNumber` too).
    package var testPhoneNumbers: [String: String] = [:]
    /// The project's own password hash parameters (production's `signIn.hashConfig`, which the
    /// console shows): imported hashes that name no algorithm of their own are checked with
    /// them, as a `firebase auth:export` file's are (`fbauth emulator --hash-config FILE`).
    package var passwordHashConfig: PasswordHashConfig?
    /// Blocking functions' URLs by trigger (`beforeCreate`, `beforeSignIn`, `beforeSendEmail`,
    /// `beforeSendSms`), as `fbauth emulator --blocking-function EVENT=URL` gives them.
    package var blockingFunctionURIs: [String: String] = [:]
    /// How blocking functions are called; nil: libcurl, no redirect followed, 1 MiB at most.
    package var blockingFunctionTransport: (any HTTPTransport)?
    /// Without `signsIDTokens`: tokens with `alg: none` and no signature, as Google's Auth
    /// emulator makes them (the Admin SDKs take them from an emulator), instead of RS256-shaped
    /// ones with random bytes.
    package var unsignedTokens = false
    /// Refuse a mail's continue URL outside the project's authorized domains, as production
    /// does (`UNAUTHORIZED_DOMAIN`); Google's Auth emulator takes any (Firebase's samples use
    /// `https://www.example.com/…`).
    package var checksContinueURLDomains = true
    /// Consent at the fake providers at once, as this account (or the one a request's
    /// `login_hint` names), for scripts and tests that have no person to click (`fbauth emulator
    /// --auto-consent EMAIL`); nil: the consent page is shown.
    package var autoConsentEmail: String?
    /// How recent a sign-in must be to delete the user, set a password or change second
    /// factors (production: 5 minutes, `CREDENTIAL_TOO_OLD_LOGIN_AGAIN` after).
    package var recentSignIn: TimeInterval = 300
    /// Lifetime of providers' OAuth access tokens, in seconds.
    package var providerTokenLifetime = 3600
    /// Where the stand-in answers otherwise than production (EmulatorProfile.swift):
    /// `fbauth emulator` answers as Google's Auth emulator does, as a drop-in for it.
    package var profile = EmulatorProfile.production
    /// "One account per email address" (the Firebase default): a provider whose unverified
    /// email belongs to another account gets `needConfirmation`.
    package var oneAccountPerEmail = true
    /// Email enumeration protection: `createAuthUri` with `identifier` returns no methods, and
    /// a wrong email or password is `INVALID_LOGIN_CREDENTIALS`. On by default, as for every
    /// Firebase project created since September 2023; tests that need the old answers turn it
    /// off and say why.
    package var emailEnumerationProtection = true
    /// When set, only these API keys are valid; otherwise any non-empty key is (as in the emulator).
    package var validAPIKeys: Set<String>? = nil
    /// reCAPTCHA Enterprise enforcement for email/password sign-in: requests without a
    /// `captchaResponse` are refused with `MISSING_RECAPTCHA_TOKEN`.
    package var passwordRecaptchaEnforced = false
    /// "Enable create (sign-up)" turned off: no sign-in may create a user (`ADMIN_ONLY_OPERATION`).
    package var signUpsDisabled = false
    /// A beforeCreate blocking function that refuses every new user with this message.
    package var blockingFunctionRefusal: String? = nil
    /// Application restrictions of API keys (Google Cloud console → Credentials), by key.
    package var apiKeyRestrictions: [String: APIKeyRestriction] = [:]
    /// The project's authorized domains; nil: those of a new project.
    package var authorizedDomains: [String]? = nil
    /// Multi-factor authentication (Identity Platform): which second factors users may enrol;
    /// a user with one enrolled must give it at every sign-in.
    package var multiFactor = ProjectMultiFactorPolicy()
    /// reCAPTCHA Enterprise enforcement for phone numbers (SMS second factors). Off, phone
    /// verification needs a reCAPTCHA v2 token instead, as in production.
    package var phoneRecaptcha = RecaptchaEnforcement.off
    /// Whether phone numbers need reCAPTCHA at all, as in production. Off (as in Google's Auth
    /// emulator, and `fbauth emulator`, whose users have no test double of Google's scripts):
    /// no reCAPTCHA configuration is served and none is checked.
    package var checksRecaptcha = true
    /// The reCAPTCHA site key the project's configuration names (v2 and Enterprise).
    package var recaptchaSiteKey = "6LfbauthStandInSiteKey"
    /// The project's password policy (Identity Platform; `GET /v2/passwordPolicy`).
    package var passwordPolicy = PasswordPolicySettings()
    /// Email-link (passwordless) sign-in enabled for the email provider.
    package var emailLinkSignInEnabled = true
    /// Client ids, besides each fake provider's own (`fake-PROVIDER-client`), whose ID tokens
    /// the project accepts: Google sign-in's "safelist client IDs from external projects", an
    /// OpenID Connect provider's client id.
    package var trustedAudiences: Set<String> = []
    /// Firebase App Check, enforced on Authentication when set: every Identity Toolkit and
    /// securetoken request needs an `X-Firebase-AppCheck` token this stand-in issued, which
    /// `…:exchangeDebugToken` gives for the registered debug tokens. Nil: not enforced (the
    /// header is ignored, as Google's Auth emulator ignores it).
    package var appCheck: AppCheckEnforcement? = nil
    /// Take an ID token (or, with none, an access token) the fake providers did not issue as
    /// fake claims (strict JSON or an unsigned JWT), as Google's Auth emulator takes them: for
    /// programs written against it.
    package var acceptsFakeClaims = false
    /// Service accounts Google's token endpoint (`/oauth2.googleapis.com/token`) knows, by
    /// `client_email`: it exchanges the JWTs they sign for access tokens the Admin API takes,
    /// besides the emulator's `Bearer owner`.
    package var serviceAccounts: [String: ServiceAccountPublicKey] = [:]
    /// gcloud users' OAuth clients and refresh tokens (`authorized_user` credentials) the token
    /// endpoint exchanges for access tokens.
    package var authorizedUsers: [AuthorizedUserGrant] = []

    package init() {}

    /// How `fbauth emulator` answers: as Google's Auth emulator does, for project `projectId`
    /// (its tokens `alg: none` unless `signsTokens`). One place, for the command and the tests
    /// that stand in for it.
    package static func googleEmulator(projectId: String, signsTokens: Bool = false) -> StandInConfiguration {
        var configuration = StandInConfiguration()
        configuration.projectId = projectId
        // As Google's Auth emulator starts: without email enumeration protection (its
        // `PATCH /emulator/v1/projects/P/config` turns it on, as a project's setting does).
        configuration.emailEnumerationProtection = false
        configuration.profile = .googleEmulator
        // Any continue URL, as Google's Auth emulator takes (Firebase's samples use www.example.com).
        configuration.checksContinueURLDomains = false
        // Google's Auth emulator's project number, which securetoken reports as project_id.
        configuration.projectNumber = "12345"
        // No test double of Google's reCAPTCHA scripts reaches a user's browser: SMS second
        // factors go without reCAPTCHA, as against Google's Auth emulator.
        configuration.checksRecaptcha = false
        // Programs written against Google's Auth emulator sign in with fake JSON claims.
        configuration.acceptsFakeClaims = true
        // With signsTokens its ID tokens are signed, and its certificate published, so that a
        // server (fbauth verify-token, FirebaseAdminAuth) checks their signatures as against
        // production; otherwise they are `alg: none`, as Google's Auth emulator makes them.
        configuration.signsIDTokens = signsTokens
        configuration.unsignedTokens = !signsTokens
        return configuration
    }
}

/// A service account's RSA public key, as the token endpoint checks its signatures.
package struct ServiceAccountPublicKey: Sendable {
    /// The modulus, big-endian hex.
    package var modulusHex: String
    package var exponent: UInt64

    package init(modulusHex: String, exponent: UInt64 = 65537) {
        self.modulusHex = modulusHex
        self.exponent = exponent
    }
}

/// An `authorized_user` credential's client and refresh token.
package struct AuthorizedUserGrant: Sendable {
    package var clientID: String
    package var clientSecret: String
    package var refreshToken: String

    package init(clientID: String, clientSecret: String, refreshToken: String) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.refreshToken = refreshToken
    }
}

/// A password policy (Firebase console → Authentication → Settings → Password policy).
package struct PasswordPolicySettings: Sendable {
    /// Off: only Firebase's floor of six characters applies.
    package var enforced = false
    package var minimumLength = 6
    package var lowercase = false
    package var uppercase = false
    package var numeric = false
    package var nonAlphanumeric = false
    /// The characters that count as non-alphanumeric (production's list).
    package static let symbolList = "^$*.[]{}()?\"!@#%&/\\,><':;|_~`=+-"
    package static let symbols = Set(symbolList)

    package init() {}

    /// A strict policy for tests and the demo: 8 characters, both cases, a digit, a symbol.
    package static let strict: PasswordPolicySettings = {
        var policy = PasswordPolicySettings()
        policy.enforced = true
        policy.minimumLength = 8
        policy.lowercase = true
        policy.uppercase = true
        policy.numeric = true
        policy.nonAlphanumeric = true
        return policy
    }()
}

/// The project's multi-factor settings (Firebase console → Authentication → Sign-in method →
/// Multi-factor authentication).
package struct ProjectMultiFactorPolicy: Sendable {
    /// Whether users may enrol second factors at all.
    package var enabled = true
    /// Which kinds: SMS (`phone`) and authenticator apps (`totp`).
    package var phone = true
    package var totp = true
    /// How many factors one user may enrol (production: 5).
    package var maximumEnrollments = 5

    package init() {}
}

/// reCAPTCHA Enterprise enforcement of a provider, as `GET /v2/recaptchaConfig` reports it.
package enum RecaptchaEnforcement: String, Sendable {
    case off = "OFF", audit = "AUDIT", enforce = "ENFORCE"
}

/// What an API key may be used from. Production refuses other requests with 403 and a
/// `details[].reason` naming the restriction.
package enum APIKeyRestriction: Sendable {
    /// `X-Ios-Bundle-Identifier` must be one of these.
    case iosApps([String])
    /// `X-Android-Package` and `X-Android-Cert` (SHA-1, lower-case hex) must match.
    case androidApp(package: String, sha1: String)
    /// `Referer` must start with one of these.
    case httpReferrers([String])
}

/// App Check as a project sees it: the debug tokens registered, and whether Authentication
/// enforces it.
package struct AppCheckEnforcement: Sendable {
    /// The debug tokens registered in the console.
    package var debugTokens: Set<String>
    /// The App Check tokens' time to live, in seconds.
    package var ttl: Int
    /// Whether Identity Toolkit and securetoken refuse a request without a valid token; when
    /// not, the exchange still serves the debug tokens (monitoring mode, in the console's words).
    package var enforced: Bool
    /// Whether the exchange serves an app of any project, as an emulator serves every project
    /// id; else only the stand-in's own project (id or number).
    package var anyProject: Bool

    package init(debugTokens: Set<String>, ttl: Int = 3600, enforced: Bool = true, anyProject: Bool = false) {
        self.debugTokens = debugTokens
        self.ttl = ttl
        self.enforced = enforced
        self.anyProject = anyProject
    }
}
