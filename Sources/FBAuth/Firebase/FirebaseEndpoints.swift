#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// Where Identity Toolkit and securetoken live: Google's production hosts, or an Auth
/// emulator (`FIREBASE_AUTH_EMULATOR_HOST=host:port`), which serves both under
/// `http://HOST/<production host>/…` (firebase-tools src/emulator/auth, README.md and server.ts).
internal struct FirebaseEndpoints: Sendable, Equatable {
    /// `host:port` of the emulator, or nil for production.
    internal let emulatorHost: String?

    internal static let production = FirebaseEndpoints(emulatorHost: nil)

    internal static func emulator(_ hostAndPort: String) -> FirebaseEndpoints {
        FirebaseEndpoints(emulatorHost: hostAndPort)
    }

    /// Reads `FIREBASE_AUTH_EMULATOR_HOST`; a value with a scheme or path is a usage error.
    internal static func from(environment: [String: String]) throws(FBAuthError) -> FirebaseEndpoints {
        FirebaseEndpoints(emulatorHost: try emulatorHost(setting: environment["FIREBASE_AUTH_EMULATOR_HOST"]))
    }

    /// The emulator's `host:port` from the value of `FIREBASE_AUTH_EMULATOR_HOST`: nil (production)
    /// when unset or empty, a usage error when it has a scheme or path.
    internal static func emulatorHost(setting value: String?) throws(FBAuthError) -> String? {
        guard let value, !value.isEmpty else { return nil }
        guard isHostAndPort(value.utf8) else {
            throw .usage("FIREBASE_AUTH_EMULATOR_HOST must be host:port (e.g. 127.0.0.1:9099), not '\(value)'")
        }
        return value
    }

    /// RFC 3986's `host ":" port` without user info: a registered name (letters, digits,
    /// `-._~!$&'()*+,;=`, %XX) or a bracketed IPv6 address, and a port up to 65535. Checked by
    /// hand rather than with `URL`, whose parser `fbauth token` would otherwise start up, and on
    /// bytes, so that its quick path can check the environment's own (`ProjectQuery`).
    static func isHostAndPort<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes) -> Bool {
        guard let colon = bytes.lastIndex(of: UInt8(ascii: ":")) else { return false }
        let host = bytes[..<colon], port = bytes[bytes.index(after: colon)...]
        guard (1...5).contains(port.count), port.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            port.reduce(0, { $0 * 10 + Int($1 - UInt8(ascii: "0")) }) <= 65535, !host.isEmpty
        else { return false }
        if host.first == UInt8(ascii: "[") {
            return host.count > 2 && host.last == UInt8(ascii: "]")
                && host.dropFirst().dropLast().allSatisfy { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") || isHexDigit($0) }
        }
        var pendingHexDigits = 0  // after a %
        for byte in host {
            if pendingHexDigits > 0 {
                guard isHexDigit(byte) else { return false }
                pendingHexDigits -= 1
            } else if byte == UInt8(ascii: "%") {
                pendingHexDigits = 2
            } else {
                guard isHexDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || isNameSymbol(byte) else { return false }
            }
        }
        return pendingHexDigits == 0
    }

    /// The unreserved and sub-delimiter symbols a registered name may hold: `-._~!$&'()*+,;=`.
    private static func isNameSymbol(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"),
            UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            true
        default:
            false
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }

    internal var isEmulator: Bool { emulatorHost != nil }

    /// Against an Auth emulator, where a "mailed" link really is: the emulator's listing of
    /// them (`/emulator/v1/projects/PROJECT/oobCodes`, firebase-tools and fbauth's stand-in
    /// alike); empty against Firebase. `PROJECT_ID` stands in when the project is unknown.
    internal func mailNote(projectId: String?) -> String {
        guard let emulatorHost else { return "" }
        return " (an Auth emulator sends no mail: the link is listed at http://\(emulatorHost)/emulator/v1/projects/\(projectId ?? "PROJECT_ID")/oobCodes)"
    }

    /// `…/v1/accounts:METHOD?key=KEY`
    internal func accounts(_ method: String, apiKey: String) -> URL {
        url(host: "identitytoolkit.googleapis.com", path: "/v1/accounts:\(method)", apiKey: apiKey)
    }

    /// `…/v2/accounts:revokeToken?key=KEY`: revokes a provider's token (Apple).
    internal func revokeToken(apiKey: String) -> URL {
        url(host: "identitytoolkit.googleapis.com", path: "/v2/accounts:revokeToken", apiKey: apiKey)
    }

    /// `…/v2/accounts/METHOD?key=KEY` (multi-factor authentication: `mfaSignIn:start`, …).
    internal func accountsV2(_ method: String, apiKey: String) -> URL {
        url(host: "identitytoolkit.googleapis.com", path: "/v2/accounts/\(method)", apiKey: apiKey)
    }

    /// `…/v2/recaptchaConfig?key=KEY&clientType=CLIENT_TYPE_WEB&version=RECAPTCHA_ENTERPRISE[&tenantId=T]`.
    internal func recaptchaConfig(apiKey: String, tenantId: String?) -> URL {
        url(host: "identitytoolkit.googleapis.com", path: "/v2/recaptchaConfig", apiKey: apiKey,
            query: [("clientType", "CLIENT_TYPE_WEB"), ("version", "RECAPTCHA_ENTERPRISE")] + (tenantId.map { [("tenantId", $0)] } ?? []))
    }

    /// `…/v2/passwordPolicy?key=KEY[&tenantId=T]`: the project's password policy.
    internal func passwordPolicy(apiKey: String, tenantId: String?) -> URL {
        url(host: "identitytoolkit.googleapis.com", path: "/v2/passwordPolicy", apiKey: apiKey, query: tenantId.map { [("tenantId", $0)] } ?? [])
    }

    /// `…/v1/recaptchaParams?key=KEY`: the reCAPTCHA v2 site key.
    internal func recaptchaParams(apiKey: String) -> URL {
        url(host: "identitytoolkit.googleapis.com", path: "/v1/recaptchaParams", apiKey: apiKey)
    }

    /// `…/v1/projects?key=KEY`: the project configuration (project id, authorized domains).
    internal func projectConfig(apiKey: String) -> URL {
        url(host: "identitytoolkit.googleapis.com", path: "/v1/projects", apiKey: apiKey)
    }

    /// `…/v1/token?key=KEY` (securetoken).
    internal func token(apiKey: String) -> URL {
        url(host: "securetoken.googleapis.com", path: "/v1/token", apiKey: apiKey)
    }

    /// The Identity Toolkit host as named in errors.
    internal var identityToolkitHost: String { emulatorHost ?? "identitytoolkit.googleapis.com" }

    /// The host named in errors: the emulator's `host:port`, or the production host.
    /// The host that answers `url`, as messages name it: `host:port` for an emulator (or a
    /// host given for one service, such as `FBAUTH_APP_CHECK_HOST`), the host name otherwise.
    internal func displayHost(for url: URL) -> String {
        guard let host = url.host else { return emulatorHost ?? "the server" }
        guard url.scheme == "http" else { return host }
        return url.port.map { "\(host):\($0)" } ?? host
    }

    /// `…/v1/projects/PROJECT/apps/APP:exchangeDebugToken?key=KEY` on
    /// `content-firebaseappcheck.googleapis.com` (firebase-js-sdk packages/app-check
    /// `getExchangeDebugTokenRequest`), under the emulator's host as the other calls are, or
    /// under `overrideHost`.
    internal func appCheckExchange(project: String, appID: String, apiKey: String, overrideHost: String?) -> URL {
        let host = "content-firebaseappcheck.googleapis.com"
        let base = (overrideHost ?? emulatorHost).map { "http://\($0)/\(host)" } ?? "https://\(host)"
        // Both are checked where they are read (a project id or number, a Firebase app id).
        let path = "/v1/projects/\(project)/apps/\(appID):exchangeDebugToken"
        return URL(string: base + path + "?" + FormEncoding.encode([("key", apiKey)]))!
    }

    private func url(host: String, path: String, apiKey: String, query: [(String, String)] = []) -> URL {
        let base = emulatorHost.map { "http://\($0)/\(host)" } ?? "https://\(host)"
        return URL(string: base + path + "?" + FormEncoding.encode([("key", apiKey)] + query))!
    }
}
