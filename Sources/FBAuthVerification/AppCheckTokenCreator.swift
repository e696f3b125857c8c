#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthHTTP
import FBAuthSupport

/// App Check tokens for an app, as firebase-admin-node's `AppCheck.createToken` makes them
/// (`app-check/token-generator.ts`, `app-check-api-client-internal.ts`): a custom token for the
/// App Check exchange's audience, signed as Auth's custom tokens are, exchanged at
/// `v1/projects/P/apps/APP:exchangeCustomToken` for the app's token. Under an emulator host the
/// emulator is asked, with an unsigned custom token.
package struct AppCheckTokenCreator: Sendable {
    package static let audience = "https://firebaseappcheck.googleapis.com/google.firebase.appcheck.v1.TokenExchangeService"
    /// The lifetimes App Check takes: 30 minutes to 7 days.
    package static let lifetimes = 1_800_000...604_800_000

    let projectId: String
    let minter: CustomTokenMinter
    let caller: AuthorizedCaller
    let clock: WallClock
    let endpoint: String

    package init(projectId: String, emulatorHost: String?, credentials: AdminCredentialsSource, transport: HTTPTransport = CurlTransport(),
                 clock: WallClock = SystemClock()) {
        self.projectId = projectId
        self.clock = clock
        endpoint = emulatorHost.map { "http://\($0)/firebaseappcheck.googleapis.com" } ?? "https://firebaseappcheck.googleapis.com"
        minter = CustomTokenMinter(emulator: emulatorHost != nil, credentials: credentials, transport: transport, clock: clock)
        caller = AuthorizedCaller(emulatorHost: emulatorHost, transport: transport, clock: clock, credentials: credentials, purpose: "Creating an App Check token")
    }

    /// The app's token and how long it lasts, in milliseconds. `limitedUse`: a token for one
    /// use (replay protection), with `jti` as its id where given.
    package func create(appId: String, ttlMillis: Int?, limitedUse: Bool?, jti: String?) throws(TokenRefusal) -> (token: String, ttlMillis: Int) {
        guard !appId.isEmpty else { throw Self.invalid("`appId` must be a non-empty string.") }
        // The app id goes into a path: the characters Firebase app ids have (`1:123:web:abc`).
        guard appId.utf8.allSatisfy({ RevocationCheck.isIDCharacter($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) else {
            throw Self.invalid("`appId` must be a Firebase app id (digits, letters, colons).")
        }
        if let ttlMillis, !Self.lifetimes.contains(ttlMillis) {
            throw Self.invalid("ttlMillis must be a duration in milliseconds between 30 minutes and 7 days (inclusive).")
        }
        if jti != nil, limitedUse != true { throw Self.invalid("`jti` cannot be specified without setting `limitedUse` to `true`.") }
        guard RevocationCheck.isProjectID(projectId) else {
            throw TokenRefusal("\"\(projectId.prefix(100))\" is not a project id the App Check API can be asked about.", code: "app-check/invalid-credential")
        }
        let issued = Int64(clock.now().timeIntervalSince1970.rounded(.down))
        let custom: String
        do throws(TokenRefusal) {
            custom = try minter.sign(purpose: "Creating an App Check token") { signer in
                var payload: [String: JSONValue] = ["iss": .string(signer), "sub": .string(signer), "app_id": .string(appId), "aud": .string(Self.audience),
                                                    "exp": .integer(issued + 300), "iat": .integer(issued)]
                // Whole seconds and a fraction, as firebase-admin's transformMillisecondsToSecondsString writes them.
                payload["ttl"] = ttlMillis.map { .string(Self.seconds($0)) }
                return payload
            }.token
        } catch {
            throw TokenRefusal(error.message, code: error.code.hasPrefix("app/") ? "app-check/invalid-credential" : error.code)
        }
        var body: [String: JSONValue] = ["customToken": .string(custom)]
        body["limitedUse"] = limitedUse.map(JSONValue.bool)
        body["jti"] = jti.map(JSONValue.string)
        let url = URL(string: endpoint + "/v1/projects/\(projectId)/apps/\(appId):exchangeCustomToken")!
        let (status, answer) = try caller.send("POST", url, body: .object(body))
        guard status == 200 else {
            let message = answer?["error"]?["message"]?.stringValue.map { TerminalText.safe(String($0.prefix(300))) } ?? "Unknown server error"
            let code = Self.errorCodes[answer?["error"]?["status"]?.stringValue ?? ""] ?? "unknown-error"
            throw TokenRefusal(message, code: "app-check/" + code)
        }
        guard let token = answer?["token"]?.stringValue, !token.isEmpty else { throw Self.invalid("`token` must be a non-empty string.") }
        guard let ttl = answer?["ttl"]?.stringValue, ttl.hasSuffix("s"), let seconds = Double(ttl.dropLast()), seconds.isFinite, seconds >= 0, seconds < 1e9 else {
            throw Self.invalid("`ttl` must be a valid duration string with the suffix `s`.")
        }
        return (token, Int((seconds * 1000).rounded(.down)))
    }

    /// `1800000` → `"1800s"`, `1800001` → `"1800.001000000s"` (firebase-admin-node `transformMillisecondsToSecondsString`).
    static func seconds(_ milliseconds: Int) -> String {
        let (whole, rest) = (milliseconds / 1000, milliseconds % 1000)
        guard rest != 0 else { return "\(whole)s" }
        let nanos = String(rest * 1_000_000)
        return "\(whole).\(String(repeating: "0", count: 9 - nanos.count))\(nanos)s"
    }

    /// The API's statuses as firebase-admin-node's `APP_CHECK_ERROR_CODE_MAPPING` names them.
    static let errorCodes = ["ABORTED": "aborted", "INVALID_ARGUMENT": "invalid-argument", "INVALID_CREDENTIAL": "invalid-credential",
                             "INTERNAL": "internal-error", "PERMISSION_DENIED": "permission-denied", "UNAUTHENTICATED": "unauthenticated",
                             "NOT_FOUND": "not-found", "UNKNOWN": "unknown-error"]

    private static func invalid(_ message: String) -> TokenRefusal { TokenRefusal(message, code: "app-check/invalid-argument") }
}
