import FBAuth
import FBAuthSupport
/// Options every command accepts.
package struct GlobalOptions: Sendable, Equatable {
    package var apiKey: String?
    package var tenantId: String?
    package var configDirectory: String?
    /// `--user UID-or-EMAIL`: act on this saved session instead of the current one.
    package var user: String?
    /// `--project ID`: a project fbauth has sessions for, by its id (as gcloud and firebase
    /// name projects).
    package var project: String?
    /// `--verbose`: log each HTTP exchange, secrets redacted.
    package var verbose = false
    /// `--app-config FILE`: GoogleService-Info.plist or google-services.json.
    package var appConfig: String?
    /// `--app-id ID`: which app of a google-services.json with several.
    package var appId: String?
    /// What API-key restrictions require, when not read from `--app-config`.
    package var iosBundleId: String?
    package var androidPackage: String?
    package var androidCert: String?
    package var referer: String?
    /// `--language`: for provider pages and Firebase's emails.
    package var language: String?
    /// `--store keyring|file`: where this run keeps new refresh tokens.
    package var store: SecretStorage?
    /// `--store none`: this run keeps nothing, on disk or in a keyring.
    package var keepsNothing = false
    /// `--refresh-token-file FILE|-`: the session's refresh token (also FBAUTH_REFRESH_TOKEN).
    package var refreshTokenFile: String?
    /// `--app-check-debug-token-file FILE|-`: the App Check debug token.
    package var appCheckDebugTokenFile: String?

    package static let specs: [OptionSpec] = [
        OptionSpec("api-key", value: "KEY", help: "Firebase Web API key. Prefer FIREBASE_API_KEY or --app-config: arguments are visible to other users in the process list."),
        OptionSpec("app-config", value: "FILE", help: "Read the API key and project id from an iOS GoogleService-Info.plist or an Android google-services.json."),
        OptionSpec("app-id", value: "ID", help: "With --app-config: the app (mobilesdk_app_id or package name) of a google-services.json with several. Without it: the Firebase app id (1:NUMBER:PLATFORM:HEX) App Check's debug token is registered for."),
        OptionSpec("app-check-debug-token-file", value: "FILE|-", help: "Read an App Check debug token (registered in the Firebase console) from FILE or stdin, for projects that enforce App Check; also FBAUTH_APP_CHECK_DEBUG_TOKEN. Never given as an argument."),
        OptionSpec("tenant-id", value: "TENANT", help: "Identity Platform tenant, sent as tenantId."),
        OptionSpec("ios-bundle-id", value: "ID", help: "Bundle id for an API key restricted to an iOS app (X-Ios-Bundle-Identifier); a plist's BUNDLE_ID is sent by itself."),
        OptionSpec("android-package", value: "NAME", help: "Package name for an API key restricted to an Android app (X-Android-Package), with --android-cert."),
        OptionSpec("android-cert", value: "SHA1", help: "SHA-1 of the Android app's signing certificate (X-Android-Cert), with --android-package."),
        OptionSpec("referer", value: "URL", help: "Referer for an API key restricted to web sites, usually https://PROJECT.firebaseapp.com/."),
        OptionSpec("language", value: "CODE", help: "Language of provider pages and Firebase emails (X-Firebase-Locale), e.g. fr; default from LC_ALL, LC_MESSAGES or LANG."),
        OptionSpec("config-dir", value: "DIR", help: "Where sessions.json lives (default: $FBAUTH_CONFIG_DIR, $XDG_CONFIG_HOME/fbauth or ~/.config/fbauth)."),
        OptionSpec("store", value: "keyring|file|none", suggestions: ["keyring", "file", "none"], help: "Where new refresh tokens are kept: the OS keyring (an error when none answers) or sessions.json (0600); default $FBAUTH_STORE, else where the first sign-in put them. none: this run reads and keeps nothing, on disk or in a keyring (CI)."),
        OptionSpec("refresh-token-file", value: "FILE|-", help: "Act as the session of this refresh token, read from FILE or stdin, in memory only (as --store none); also FBAUTH_REFRESH_TOKEN. Never given as an argument."),
        OptionSpec("user", value: "UID-or-EMAIL", help: "Act on this saved session instead of the current one."),
        OptionSpec("project", value: "ID", help: "Act on the saved sessions of this project, by its id (as gcloud and firebase do); with FIREBASE_AUTH_EMULATOR_HOST, on that emulator. A first sign-in still needs the project's API key. For fbauth emulator: the project clients with an API key sign in to (default demo-fbauth)."),
        OptionSpec("verbose", help: "Log each HTTP exchange on stderr, with tokens, codes and passwords redacted."),
        OptionSpec("allow-unknown-provider", help: "Accept a --provider id that Firebase does not offer under that name (fbauth refuses a typo such as yahoo.co otherwise); oidc.NAME and saml.NAME need no such option."),
    ]

    package init(apiKey: String? = nil, tenantId: String? = nil, configDirectory: String? = nil, user: String? = nil) {
        self.apiKey = apiKey
        self.tenantId = tenantId
        self.configDirectory = configDirectory
        self.user = user
    }

    init(_ arguments: ParsedArguments) throws(FBAuthError) {
        apiKey = try arguments.nonEmpty("api-key")
        if let apiKey, let problem = SettingChecks.apiKeyProblem(apiKey, named: "--api-key") { throw problem }
        tenantId = try arguments.headerValue("tenant-id")
        // Paths are made absolute once, here: a page handed to a browser as file://, or a
        // command printed for the user to copy, must not depend on the working directory.
        configDirectory = try arguments.nonEmpty("config-dir").map(Platform.absolutePath)
        user = try arguments.nonEmpty("user")
        project = try arguments.nonEmpty("project")
        if let project, !SettingChecks.isProjectID(project) {
            throw .usage("--project '\(TerminalText.safe(String(project.prefix(60))))' is not a project id (6 to 30 lower-case letters, digits and hyphens)")
        }
        verbose = arguments.flag("verbose")
        appConfig = try arguments.nonEmpty("app-config").map(Platform.absolutePath)
        appId = try arguments.headerValue("app-id")
        iosBundleId = try arguments.headerValue("ios-bundle-id")
        androidPackage = try arguments.headerValue("android-package")
        androidCert = try arguments.headerValue("android-cert").map { $0.replacing(":", with: "").lowercased() }
        referer = try arguments.headerValue("referer")
        language = try arguments.nonEmpty("language")
        if let text = try arguments.nonEmpty("store") {
            if text == "none" {
                keepsNothing = true
            } else {
                guard let store = SecretStorage(rawValue: text) else { throw .usage("--store '\(TerminalText.safe(String(text.prefix(20))))' must be keyring, file or none") }
                self.store = store
            }
        }
        refreshTokenFile = try arguments.nonEmpty("refresh-token-file")
        if apiKey != nil && appConfig != nil { throw .usage("give either --api-key or --app-config, not both") }
        if project != nil && (apiKey != nil || appConfig != nil) {
            throw .usage("give either --project or --api-key/--app-config, not both: --project picks a project fbauth has sessions for")
        }
        if let androidCert, androidCert.count != 40 || !androidCert.allSatisfy(\.isHexDigit) {
            throw .usage("--android-cert '\(androidCert)' is not a SHA-1 (40 hex digits, colons allowed)")
        }
        if (androidPackage == nil) != (androidCert == nil) { throw .usage("--android-package and --android-cert go together") }
        if let referer, !(referer.hasPrefix("https://") || referer.hasPrefix("http://")) {
            throw .usage("--referer '\(referer)' must be a URL such as https://my-project.firebaseapp.com/")
        }
        if let language, language.isEmpty || language.count > 20 || !language.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }) {
            throw .usage("--language '\(language)' is not a language code such as fr or pt-BR")
        }
        appCheckDebugTokenFile = try arguments.nonEmpty("app-check-debug-token-file")
        if let appId, appConfig == nil, !AppCheckDebugSettings.isAppID(appId) {
            throw .usage("--app-id '\(TerminalText.safe(String(appId.prefix(80))))' needs --app-config, or must be a Firebase app id such as 1:123456789:web:0a1b2c3d4e5f (for App Check)")
        }
    }
}
