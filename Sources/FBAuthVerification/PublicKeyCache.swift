#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthSupport
import LoopbackHTTP

/// Google's public keys of one kind of token, fetched from their x509 endpoint (a JSON object
/// of kid → PEM certificate) and kept for the response's `Cache-Control: max-age`, as
/// firebase-admin keeps them. One fetch serves every caller waiting at once: the lock is held
/// while it runs.
final class PublicKeyCache: @unchecked Sendable {
    let url: URL
    private let transport: HTTPTransport
    private let clock: WallClock
    private let lock = Lock()
    private var keys: [String: RSAPublicKey] = [:]
    private var expires = Date.distantPast

    init(url: URL, transport: HTTPTransport, clock: WallClock) {
        self.url = url
        self.transport = transport
        self.clock = clock
    }

    /// The keys, fetched again when they have expired, or when `refreshing` (a `kid` none
    /// of them has: Google rotates keys) and they were not fetched a moment ago.
    func keys(refreshing: Bool = false) throws(TokenRefusal) -> [String: RSAPublicKey] {
        let result: Result<[String: RSAPublicKey], TokenRefusal> = lock.withLock {
            let now = clock.now()
            if now < expires, !refreshing || now < fetchedAt.addingTimeInterval(Self.refetchAfter) { return .success(keys) }
            do throws(TokenRefusal) {
                let (fetched, maxAge) = try fetch()
                keys = fetched
                fetchedAt = now
                expires = now.addingTimeInterval(maxAge)
                return .success(fetched)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private var fetchedAt = Date.distantPast
    /// An unknown `kid` fetches again at most this often (a forged kid must not make every
    /// request a fetch).
    static let refetchAfter: TimeInterval = 60

    private func fetch() throws(TokenRefusal) -> (keys: [String: RSAPublicKey], maxAge: TimeInterval) {
        let response: HTTPClientResponse
        do {
            response = try transport.send(HTTPClientRequest(method: "GET", url: url, timeout: 30))
        } catch {
            throw TokenRefusal("Error fetching public keys for Google certs: \(error.message) (\(url.absoluteString))", code: "auth/internal-error")
        }
        guard response.status == 200 else {
            throw TokenRefusal("Error fetching public keys for Google certs: HTTP \(response.status) from \(url.absoluteString)", code: "auth/internal-error")
        }
        guard case .object(let certificates)? = JSONValue.parse(response.body), !certificates.isEmpty, certificates.count <= 100 else {
            throw TokenRefusal("Error fetching public keys for Google certs: \(url.absoluteString) answered no object of certificates", code: "auth/internal-error")
        }
        var keys: [String: RSAPublicKey] = [:]
        for (kid, value) in certificates {
            guard let pem = value.stringValue, let key = try? RSAPublicKey(certificatePEM: pem) else {
                throw TokenRefusal("Error fetching public keys for Google certs: the certificate of kid \(TerminalText.safe(String(kid.prefix(64)))) is not an RSA key of 2048 bits or more", code: "auth/internal-error")
            }
            keys[kid] = key
        }
        return (keys, Self.maxAge(response.headers["cache-control"]))
    }

    /// `max-age=N` of a Cache-Control header, at most a day; 0 without one.
    static func maxAge(_ header: String?) -> TimeInterval {
        guard let header else { return 0 }
        for directive in header.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.filter { !$0.isWhitespace } }
            if parts.count == 2, parts[0].lowercased() == "max-age", let seconds = Int(parts[1]), seconds >= 0 { return TimeInterval(min(seconds, 86_400)) }
        }
        return 0
    }
}
