import FBAuth
/// The environment variables fbauth reads: one table for `fbauth help environment`, the man page
/// and (by a test) docs/commands.md.
package enum EnvironmentVariables {
    /// What `FBAUTH_HTTP_TIMEOUT` may be, in seconds.
    static let httpTimeoutRange: ClosedRange<Double> = 0.1...3600

    /// fbauth's own settings, which a browser it starts does not inherit.
    package static var fbauthSettings: Set<String> { Set(all.map(\.name).filter { $0.hasPrefix("FBAUTH_") }) }

    package static let all: [(name: String, meaning: String)] = [
        ("FIREBASE_API_KEY", "The Firebase Web API key when --api-key and --app-config are not given."),
        ("FIREBASE_AUTH_EMULATOR_HOST", "host:port of a Firebase Auth emulator (or `fbauth emulator`); requests then go to http://HOST/identitytoolkit.googleapis.com/v1/… and http://HOST/securetoken.googleapis.com/v1/token."),
        ("FBAUTH_CONFIG_DIR", "Where sessions.json lives; default $XDG_CONFIG_HOME/fbauth, else ~/.config/fbauth."),
        ("XDG_CONFIG_HOME", "Base of the default configuration directory."),
        ("LC_ALL", "With LC_MESSAGES and LANG, in that order: the language sent as X-Firebase-Locale when --language is not given (fr_FR.UTF-8 → fr)."),
        ("BROWSER", "The program that opens the sign-in page, or with --loopback the authorization URL (the URL is its only argument)."),
        ("FBAUTH_FIREBASE_JS_URL", "Base URL of the Firebase JS SDK files (firebase-app.js, firebase-auth.js) the hosted flow's page loads; default https://www.gstatic.com/firebasejs/\(AuthServiceSettings.firebaseJSVersion). https:// only (http:// to a loopback host, for tests)."),
        ("FBAUTH_AUTH_DOMAIN", "The hosted handler's domain when --auth-domain is not given (default PROJECT_ID.firebaseapp.com)."),
        ("FBAUTH_CONNECTION_CHECK", "on (default; off under WSL) or off. On: the sign-in's listener closes every connection that is not from one of your own programs (Linux), and the browser is given the sign-in's address; off, or where that cannot be checked (macOS): it is given a page in a file only you can read, which leads there. Turn it off only for a browser that reaches this machine through another user's program (a port forwarder running as root)."),
        ("KUBERNETES_EXEC_INFO", "Set by client-go for token --format exec-credential: the apiVersion to answer (v1 or v1beta1)."),
        ("GOOGLE_EXTERNAL_ACCOUNT_OUTPUT_FILE", "Set by Google's auth libraries for token --format google-executable: the response is also written there (0600)."),
        ("DBUS_SESSION_BUS_ADDRESS", "Linux: the session bus whose Secret Service keeps refresh tokens; unset: no keyring (fbauth starts none)."),
        ("FBAUTH_APP_CHECK_DEBUG_TOKEN", "An App Check debug token registered in the Firebase console, for projects that enforce App Check (exchanged for App Check tokens, sent as X-Firebase-AppCheck)."),
        ("FBAUTH_APP_CHECK_APP_ID", "The Firebase app id (1:NUMBER:PLATFORM:HEX) the debug token is registered for, when --app-config and --app-id give none."),
        ("FBAUTH_APP_CHECK_HOST", "host:port serving the App Check exchange over http instead of Google (default: under FIREBASE_AUTH_EMULATOR_HOST when it is set)."),
        ("GOOGLE_CLOUD_PROJECT", "verify-token only, with GCLOUD_PROJECT: the project whose tokens are taken when --project is not given."),
        ("GOOGLE_APPLICATION_CREDENTIALS", "verify-token --check-revoked only: the Admin API's credentials, a service account's key file or gcloud's authorized_user file; unset: gcloud's application_default_credentials.json in CLOUDSDK_CONFIG, else ~/.config/gcloud."),
        ("GCE_METADATA_HOST", "verify-token --check-revoked only, with no credentials file: the metadata server of Google's clouds (default 169.254.169.254 there, which K_SERVICE, CLOUD_RUN_JOB, FUNCTION_NAME or a Compute Engine VM's firmware tell)."),
        ("FBAUTH_STORE", "Where new refresh tokens are kept: keyring, file or none (as --store); default: where the first sign-in put them, the keyring when one answered. none: nothing is read or kept."),
        ("FBAUTH_REFRESH_TOKEN", "A session's refresh token (fbauth token --refresh-token): the run acts as that session, in memory only, and writes nothing (CI)."),
        ("FBAUTH_HTTP_TIMEOUT", "Seconds allowed for each request to Firebase, connecting included (default 30; 0.1 to 3600)."),
        ("HTTPS_PROXY", "Proxy for Firebase (https); also https_proxy. Lower-case http_proxy for an emulator over http (Linux; macOS uses the system settings)."),
        ("NO_PROXY", "Hosts reached without the proxy; also no_proxy."),
        ("NO_COLOR", "When set and not empty, no colour and no in-place status line."),
        ("WSL_DISTRO_NAME", "Set by Windows Subsystem for Linux: fbauth then opens the Windows browser with wslview or powershell.exe."),
        ("DISPLAY", "With WAYLAND_DISPLAY: whether a browser can be opened with xdg-open (Linux)."),
    ]
}
