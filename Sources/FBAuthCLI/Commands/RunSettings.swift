#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthSupport

/// What the environment and the global options set for one run, read and checked once, before
/// the command runs (issue 28): a bad `FBAUTH_HTTP_TIMEOUT` is exit 2 at once, not halfway
/// through a sign-in, and `--app-config` is read once. Commands take their settings from here.
struct RunSettings: Sendable {
    /// Seconds per request to Firebase (`FBAUTH_HTTP_TIMEOUT`, default 30).
    var httpTimeout: TimeInterval = 30
    /// Where the hosted flow's page loads the SDK (`FBAUTH_FIREBASE_JS_URL`); nil: gstatic.
    var firebaseJSBase: String?
    /// The hosted handler's domain (`FBAUTH_AUTH_DOMAIN`).
    var authDomain: String?
    /// Who may connect to a sign-in's listener (`FBAUTH_CONNECTION_CHECK`; off under WSL).
    var listenerGuard = ListenerGuard.ownConnectionsOnly
    /// `FIREBASE_AUTH_EMULATOR_HOST`, checked.
    var emulatorHost: String?
    /// `--app-config`, read.
    var appConfig: AppConfigFile?
    /// `--store`, else `FBAUTH_STORE`: where this run keeps new refresh tokens; nil: where the
    /// config directory remembers (the keyring when one answered on the first sign-in).
    var secretStorage: SecretStorage?
    /// `--store none`, `FBAUTH_STORE=none` or a refresh token given: sessions live in the
    /// process only, and nothing is read from or written to the config directory or a keyring.
    var keepsNothing = false
    /// `FBAUTH_REFRESH_TOKEN`, else `--refresh-token-file`: the session this run acts as.
    var refreshToken: RefreshTokenSetting?
    /// App Check with a debug token (`FBAUTH_APP_CHECK_DEBUG_TOKEN` or
    /// `--app-check-debug-token-file`), for projects that enforce it; nil: none is sent.
    var appCheck: AppCheckDebugSettings?

    init() {}

    init(environment: [String: String], globals: GlobalOptions, console: Console) throws(FBAuthError) {
        if let text = environment["FBAUTH_HTTP_TIMEOUT"], !text.isEmpty {
            let range = EnvironmentVariables.httpTimeoutRange
            guard let seconds = NumberSetting.seconds(text, in: range) else {
                throw .usage("FBAUTH_HTTP_TIMEOUT '\(TerminalText.safe(String(text.prefix(40))))' is not a number of seconds from \(NumberSetting.text(range.lowerBound)) to \(NumberSetting.text(range.upperBound))")
            }
            httpTimeout = seconds
        }
        if let base = environment["FBAUTH_FIREBASE_JS_URL"], !base.isEmpty {
            guard SettingChecks.isFirebaseJSURL(base) else {
                throw .usage("FBAUTH_FIREBASE_JS_URL '\(TerminalText.safe(String(base.prefix(100))))' must be an https:// address (or http:// to localhost, 127.0.0.1 or [::1]) without query or fragment")
            }
            firebaseJSBase = base
        }
        if let domain = environment["FBAUTH_AUTH_DOMAIN"], !domain.isEmpty {
            guard SettingChecks.isAuthDomain(domain) else {
                throw .usage("FBAUTH_AUTH_DOMAIN '\(TerminalText.safe(String(domain.prefix(100))))' must be a host name such as my-project.firebaseapp.com (no scheme or path)")
            }
            authDomain = domain
        }
        switch environment["FBAUTH_CONNECTION_CHECK"] ?? "" {
        case "":
            // Under WSL the Windows browser reaches the listener through WSL's localhost relay,
            // a program that is not the user's: the launch page protects the address there.
            listenerGuard = ListenerGuard.suited(to: environment)
        case "on": listenerGuard = .ownConnectionsOnly
        case "off": listenerGuard = .off
        case let other: throw .usage("FBAUTH_CONNECTION_CHECK '\(TerminalText.safe(String(other.prefix(20))))' must be on or off")
        }
        let storeNone = environment["FBAUTH_STORE"] == "none"
        let storeSetting = storeNone ? nil : try Self.secretStorage(environment["FBAUTH_STORE"])
        secretStorage = globals.store ?? storeSetting
        refreshToken = try Self.refreshToken(environment: environment, globals: globals, console: console)
        keepsNothing = globals.keepsNothing || (storeNone && globals.store == nil) || refreshToken != nil
        if keepsNothing, let store = globals.store {
            throw .usage("--store \(store.rawValue) keeps the session, and \(refreshToken?.source ?? "--store none") keeps nothing: give one")
        }
        emulatorHost = try SettingChecks.emulatorHost(environment["FIREBASE_AUTH_EMULATOR_HOST"])
        appConfig = try globals.appConfig.map { (path: String) throws(FBAuthError) in try AppConfigFile.read(path, appId: globals.appId) }
        appCheck = try Self.appCheck(environment: environment, globals: globals, appConfig: appConfig, console: console)
    }

    /// The debug token from `FBAUTH_APP_CHECK_DEBUG_TOKEN` or the file given to
    /// `--app-check-debug-token-file` (never from an argument: other users read those), for the
    /// app of `--app-config`, else `--app-id`, else `FBAUTH_APP_CHECK_APP_ID`.
    static func appCheck(environment: [String: String], globals: GlobalOptions, appConfig: AppConfigFile?,
                         console: Console) throws(FBAuthError) -> AppCheckDebugSettings? {
        let option = "--app-check-debug-token-file"
        var token = environment["FBAUTH_APP_CHECK_DEBUG_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        if let file = globals.appCheckDebugTokenFile {
            token = try SecretInput.token(from: file, option: option, console: console)
        }
        guard let token else { return nil }
        guard AppCheckDebugSettings.isDebugToken(token) else {
            throw .usage("the App Check debug token (\(globals.appCheckDebugTokenFile != nil ? option : "FBAUTH_APP_CHECK_DEBUG_TOKEN")) is not one: 1 to 200 letters, digits and -_. such as the UUID the Firebase console shows")
        }
        let configured = appConfig?.appId ?? (globals.appConfig == nil ? globals.appId : nil)
        guard let appID = configured ?? environment["FBAUTH_APP_CHECK_APP_ID"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw .usage("App Check needs the app the debug token is registered for: --app-config FILE, --app-id 1:NUMBER:PLATFORM:HEX or FBAUTH_APP_CHECK_APP_ID")
        }
        guard AppCheckDebugSettings.isAppID(appID) else {
            throw .usage("'\(TerminalText.safe(String(appID.prefix(80))))' is not a Firebase app id such as 1:123456789:web:0a1b2c3d4e5f (Firebase console → Project settings → Your apps)")
        }
        let host = environment["FBAUTH_APP_CHECK_HOST"].flatMap { $0.isEmpty ? nil : $0 }
        if let host, (try? SettingChecks.emulatorHost(host)) == nil {
            throw .usage("FBAUTH_APP_CHECK_HOST '\(TerminalText.safe(String(host.prefix(80))))' must be host:port, such as 127.0.0.1:9099")
        }
        return AppCheckDebugSettings(debugToken: token, appID: appID, exchangeHost: host)
    }

    /// The refresh token a run acts as: `--refresh-token-file` wins over the variable, as an
    /// option does; checked as Firebase issues them before it is sent.
    static func refreshToken(environment: [String: String], globals: GlobalOptions, console: Console) throws(FBAuthError) -> RefreshTokenSetting? {
        let setting: RefreshTokenSetting
        if let file = globals.refreshTokenFile {
            setting = RefreshTokenSetting(token: try SecretInput.token(from: file, option: "--refresh-token-file", console: console), source: "--refresh-token-file")
        } else if let token = environment["FBAUTH_REFRESH_TOKEN"], !token.isEmpty {
            setting = RefreshTokenSetting(token: token.trimmed(), source: "FBAUTH_REFRESH_TOKEN")
        } else {
            return nil
        }
        guard RefreshTokenSetting.looksLikeOne(setting.token) else {
            throw .usage("\(setting.source) holds no refresh token (letters, digits and -._~+/=, as `fbauth token --refresh-token` prints one)")
        }
        return setting
    }

    static func secretStorage(_ text: String?) throws(FBAuthError) -> SecretStorage? {
        guard let text, !text.isEmpty else { return nil }
        guard let storage = SecretStorage(rawValue: text) else {
            throw .usage("FBAUTH_STORE '\(TerminalText.safe(String(text.prefix(20))))' must be keyring, file or none")
        }
        return storage
    }
}

/// A refresh token given to the run, and where it came from (for messages: never the token).
struct RefreshTokenSetting: Sendable {
    var token: String
    /// `FBAUTH_REFRESH_TOKEN` or `--refresh-token-file`.
    var source: String

    /// The shape of a Firebase refresh token: RFC 6750's b64token, at most 4 KiB.
    static func looksLikeOne(_ text: String) -> Bool {
        (1...4096).contains(text.utf8.count) && text.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || "-._~+/=".utf8.contains(byte)
        }
    }
}

