#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthSupport

/// A verified Firebase ID token or session cookie: its uid (`sub`) and every claim.
public struct VerifiedFirebaseToken: Sendable, Equatable {
    public let uid: String
    public let claims: [String: JSONValue]
}

/// Verifies Firebase ID tokens or session cookies of one project as firebase-admin does, with
/// the keys Google publishes (cached for their max-age, fetched again for an unknown `kid`).
/// Against an emulator (`emulatorHost`), unsigned tokens are taken, and a signed one is checked
/// with the certificates the emulator publishes where Google publishes securetoken's.
public struct FirebaseTokenVerifier: Sendable {
    let checks: FirebaseTokenChecks
    let keys: PublicKeyCache
    let clock: WallClock

    /// `keyCacheFile`: where Google's certificates are kept between processes (0600); nil:
    /// in this process only.
    public init(projectId: String, kind: FirebaseTokenKind = .idToken, emulatorHost: String? = nil,
                transport: HTTPTransport = CurlTransport(), clock: WallClock = SystemClock(), keyCacheFile: String? = nil) {
        checks = FirebaseTokenChecks(kind: kind, projectId: projectId, againstEmulator: emulatorHost != nil)
        let address = emulatorHost.map { "http://\($0)/" + kind.certificatesURL.dropFirst("https://".count) } ?? kind.certificatesURL
        keys = PublicKeyCache(url: URL(string: address)!, transport: transport, clock: clock, file: keyCacheFile)
        self.clock = clock
    }

    public func verify(_ token: String) throws(TokenRefusal) -> VerifiedFirebaseToken {
        let decoded = try checks.decode(token)
        try checks.checkContent(decoded)
        if !(checks.againstEmulator && decoded.header["alg"]?.stringValue == "none") {
            var known = try keys.keys()
            if let kid = decoded.header["kid"]?.stringValue, known[kid] == nil { known = try keys.keys(refreshing: true) }
            try checks.checkSignature(decoded, keys: known)
        } else {
            try checks.checkSignature(decoded, keys: [:])
        }
        try checks.checkTimes(decoded, now: Int64(clock.now().timeIntervalSince1970.rounded(.down)))
        return VerifiedFirebaseToken(uid: decoded.payload["sub"]?.stringValue ?? "", claims: decoded.payload)
    }
}
