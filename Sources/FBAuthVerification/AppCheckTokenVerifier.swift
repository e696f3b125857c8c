#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthHTTP
import FBAuthSupport

/// A verified App Check token: the app it attests (`sub`) and every claim.
package struct VerifiedAppCheckToken: Sendable, Equatable {
    package let appID: String
    package let claims: [String: JSONValue]
    /// With `consume`: whether the App Check API had seen the token used before.
    package var alreadyConsumed: Bool?
}

/// Verifies Firebase App Check tokens of one project as firebase-admin-node's
/// `app-check/token-verifier.ts` does, in its order and words: RS256; `aud` naming
/// `projects/ID`; an issuer under `https://firebaseappcheck.googleapis.com/`; a `sub` (the app
/// id); then the signature by a key of the App Check JWKS (kept for its max-age, six hours
/// without one, fetched again for an unknown `kid` at most once a minute) and the expiry. With
/// `consume`, the App Check API marks a limited-use token used (`verifyAppCheckToken`), for
/// replay protection. Under an emulator host, the emulator's JWKS and API are asked instead.
package struct AppCheckTokenVerifier: Sendable {
    package static let issuer = "https://firebaseappcheck.googleapis.com/"
    package static let jwksURL = "https://firebaseappcheck.googleapis.com/v1/jwks"

    let projectId: String
    let keys: PublicKeyCache
    let clock: WallClock
    let transport: HTTPTransport
    let accessTokens: AdminAccessTokens
    /// `https://firebaseappcheck.googleapis.com`, or the emulator's `http://HOST/firebaseappcheck.googleapis.com`.
    let endpoint: String
    package let emulatorHost: String?

    package init(projectId: String, emulatorHost: String? = nil, transport: HTTPTransport = CurlTransport(), clock: WallClock = SystemClock(),
                 keptKeys: KeptKeys? = nil,
                 credentials: AdminCredentialsSource = .applicationDefault(environment: ProcessInfo.processInfo.environment)) {
        self.projectId = projectId
        self.emulatorHost = emulatorHost
        endpoint = emulatorHost.map { "http://\($0)/firebaseappcheck.googleapis.com" } ?? "https://firebaseappcheck.googleapis.com"
        keys = PublicKeyCache(url: URL(string: endpoint + "/v1/jwks")!, format: .jwks, transport: transport, clock: clock, kept: keptKeys)
        self.clock = clock
        self.transport = transport
        let found = credentials.finder(emulatorHost: emulatorHost)
        accessTokens = AdminAccessTokens(transport: transport, clock: clock, credentials: found)
    }

    package func verify(_ token: String, consume: Bool = false) throws(TokenRefusal) -> VerifiedAppCheckToken {
        guard !token.isEmpty else { throw Self.invalid("App check token must be a non-null string.") }
        guard let decoded = DecodedJWT(token) else {
            throw Self.invalid("Decoding App Check token failed. Make sure you passed the entire string JWT which represents the Firebase App Check token.")
        }
        try checkContent(decoded)
        try checkSignature(decoded)
        var verified = VerifiedAppCheckToken(appID: decoded.payload["sub"]?.stringValue ?? "", claims: decoded.payload)
        if consume { verified.alreadyConsumed = try consumed(token) }
        return verified
    }

    private func checkContent(_ token: DecodedJWT) throws(TokenRefusal) {
        let scoped = "projects/\(projectId)"
        let algorithm = token.header["alg"]?.stringValue
        guard algorithm == "RS256" else {
            throw Self.invalid("The provided App Check token has incorrect algorithm. Expected \"RS256\" but got \"\(algorithm ?? "undefined")\".")
        }
        guard case .array(let audiences)? = token.payload["aud"], !audiences.isEmpty, audiences.contains(.string(scoped)) else {
            let shown = token.payload["aud"].map(Self.shown) ?? "undefined"
            throw Self.invalid("The provided App Check token has incorrect \"aud\" (audience) claim. Expected \"\(scoped)\" but got \"\(shown)\". Make sure the App Check token comes from the same Firebase project as the service account used to authenticate this SDK.")
        }
        guard let issuer = token.payload["iss"]?.stringValue, issuer.hasPrefix(Self.issuer) else {
            throw Self.invalid("The provided App Check token has incorrect \"iss\" (issuer) claim.")
        }
        guard let subject = token.payload["sub"]?.stringValue else { throw Self.invalid("The provided App Check token has no \"sub\" (subject) claim.") }
        guard !subject.isEmpty else { throw Self.invalid("The provided App Check token has an empty string \"sub\" (subject) claim.") }
    }

    /// The key of the token's `kid` (any key of the set when it names none, as jsonwebtoken
    /// tries them), then the times, as jsonwebtoken checks them in that order. A `kid` that is
    /// not a string names no key (firebase-admin-python finds none for it); `nbf` and `exp`
    /// must be numbers (jsonwebtoken's "invalid exp value"), so a claim of another type can
    /// never stand in for no expiry.
    private func checkSignature(_ token: DecodedJWT) throws(TokenRefusal) {
        var known = try keys.keys()
        let kid: String?
        switch token.header["kid"] {
        case nil, .null?: kid = nil
        case .string(let name)?: kid = name
        default: throw Self.unknownKid
        }
        if let kid, known[kid] == nil { known = try keys.keys(refreshing: true) }
        let candidates = kid.map { known[$0].map { [$0] } ?? [] } ?? Array(known.values)
        guard !candidates.isEmpty else { throw Self.unknownKid }
        guard candidates.contains(where: { RS256.verify(token.signature, of: token.signingInput, with: $0) }) else {
            throw Self.invalid("The provided App Check token has invalid signature.")
        }
        let now = clock.now().timeIntervalSince1970.rounded(.down)
        if let notBefore = try Self.time(token, "nbf", named: "not before"), notBefore > now {
            throw Self.invalid("The provided App Check token is not yet valid: its \"nbf\" (not before) claim is in the future.")
        }
        if let expires = try Self.time(token, "exp", named: "expiration time"), now >= expires {
            throw TokenRefusal("The provided App Check token has expired. Get a fresh App Check token from your client app and try again.",
                               code: "app-check/app-check-token-expired")
        }
    }

    private static let unknownKid = invalid("The provided App Check token has \"kid\" claim which does not correspond to a known public key. Most likely the provided App Check token is expired, so get a fresh token from your client app and try again.")

    /// The time claim `name` in seconds since 1970, nil when absent; refused when it is not a
    /// JSON number (`"1"`, `null`, `true`).
    private static func time(_ token: DecodedJWT, _ name: String, named words: String) throws(TokenRefusal) -> Double? {
        switch token.payload[name] {
        case nil: return nil
        case .integer(let seconds)?: return Double(seconds)
        case .number(let seconds)? where seconds.isFinite: return seconds
        default: throw invalid("The provided App Check token has an invalid \"\(name)\" (\(words)) claim: it must be a number of seconds.")
        }
    }

    /// `POST v1beta/projects/P:verifyAppCheckToken`: whether the token was used before (the
    /// API marks it used now).
    private func consumed(_ token: String) throws(TokenRefusal) -> Bool {
        guard RevocationCheck.isProjectID(projectId) else {
            throw TokenRefusal("\"\(projectId.prefix(100))\" is not a project id the App Check API can be asked about.", code: "app/invalid-credential")
        }
        let url = URL(string: endpoint + "/v1beta/projects/\(projectId):verifyAppCheckToken")!
        let (status, answer) = try accessTokens.post(.object(["app_check_token": .string(token)]), to: url, transport: transport)
        guard status == 200 else {
            let message = answer?["error"]?["message"]?.stringValue ?? "HTTP \(status)"
            throw TokenRefusal("The App Check API refused the token: \(message)", code: status >= 500 ? "app-check/internal-error" : "app-check/invalid-argument")
        }
        // An answer that is no JSON object says nothing: replay protection fails closed.
        guard case .object(let fields)? = answer else {
            throw TokenRefusal("The App Check API's answer to verifyAppCheckToken is not a JSON object, so whether the token was used before is unknown.",
                               code: "app-check/internal-error")
        }
        switch fields["alreadyConsumed"] {
        case .bool(let consumed)?: return consumed
        case nil: return false
        default: throw TokenRefusal("`alreadyConsumed` must be a boolean value.", code: "app-check/invalid-argument")
        }
    }

    private static func invalid(_ message: String) -> TokenRefusal { TokenRefusal(message, code: "app-check/invalid-argument") }

    /// A claim as JavaScript's string conversion shows it (an array's items joined by commas).
    private static func shown(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .array(let items): items.map(shown).joined(separator: ",")
        default: value.stringValue ?? "\(value)"
        }
    }
}
