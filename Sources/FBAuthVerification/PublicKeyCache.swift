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

    /// Where the certificates are kept between processes (`fbauth verify-token`: 0600, in the
    /// config directory, read only when that directory is the user's alone); nil: memory only.
    private let file: String?

    init(url: URL, transport: HTTPTransport, clock: WallClock, file: String? = nil) {
        self.url = url
        self.transport = transport
        self.clock = clock
        self.file = file
    }

    /// The keys, fetched again when they have expired, or when `refreshing` (a `kid` none
    /// of them has: Google rotates keys) and they were not fetched a moment ago.
    func keys(refreshing: Bool = false) throws(TokenRefusal) -> [String: RSAPublicKey] {
        let result: Result<[String: RSAPublicKey], TokenRefusal> = lock.withLock {
            let now = clock.now()
            if keys.isEmpty, !refreshing { loadFile(now: now) }
            if now < expires, !refreshing || now < fetchedAt.addingTimeInterval(Self.refetchAfter) { return .success(keys) }
            do throws(TokenRefusal) {
                let (fetched, maxAge, body) = try fetch()
                keys = fetched
                fetchedAt = now
                expires = now.addingTimeInterval(maxAge)
                saveFile(body, expires: expires)
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

    private func fetch() throws(TokenRefusal) -> (keys: [String: RSAPublicKey], maxAge: TimeInterval, body: JSONValue) {
        let response: HTTPClientResponse
        do {
            response = try transport.send(HTTPClientRequest(method: "GET", url: url, timeout: 30))
        } catch {
            throw TokenRefusal("Error fetching public keys for Google certs: \(error.message) (\(url.absoluteString))", code: "auth/internal-error")
        }
        guard response.status == 200 else {
            throw TokenRefusal("Error fetching public keys for Google certs: HTTP \(response.status) from \(url.absoluteString)", code: "auth/internal-error")
        }
        guard let body = JSONValue.decoded(response.body), let keys = Self.keys(in: body) else {
            throw TokenRefusal("Error fetching public keys for Google certs: \(url.absoluteString) answered no object of RSA certificates of 2048 bits or more", code: "auth/internal-error")
        }
        return (keys, Self.maxAge(response.headers["cache-control"]), body)
    }

    /// The keys of `{kid: PEM, …}`; nil unless every one is an RSA certificate fbauth takes.
    static func keys(in certificates: JSONValue) -> [String: RSAPublicKey]? {
        guard case .object(let members) = certificates, (1...100).contains(members.count) else { return nil }
        var keys: [String: RSAPublicKey] = [:]
        for (kid, value) in members {
            guard (1...256).contains(kid.utf8.count), let pem = value.stringValue, let key = try? RSAPublicKey(certificatePEM: pem) else { return nil }
            keys[kid] = key
        }
        return keys
    }

    // MARK: - Between processes

    /// `{"url", "expires" (seconds since 1970), "certificates"}`, used while it has not expired,
    /// for this URL, from a file of the user's own in a directory no other user can write.
    private func loadFile(now: Date) {
        guard let file, Platform.untrustedDirectory(Self.directory(of: file)) == nil, Platform.isOwnRegularFile(file),
              let saved = Platform.withFileBytes(file, { JSONValue.decoded($0) }) ?? nil,
              saved["url"]?.stringValue == url.absoluteString, let until = saved["expires"]?.integer,
              Date(timeIntervalSince1970: TimeInterval(until)) > now, let certificates = saved["certificates"], let keys = Self.keys(in: certificates)
        else { return }
        self.keys = keys
        expires = Date(timeIntervalSince1970: TimeInterval(until))
    }

    /// Best effort: a cache that cannot be written costs the next process a fetch, nothing more.
    private func saveFile(_ certificates: JSONValue, expires: Date) {
        guard let file, Platform.untrustedDirectory(Self.directory(of: file)) == nil else { return }
        let saved = JSONValue.object(["url": .string(url.absoluteString), "expires": .integer(Int64(expires.timeIntervalSince1970)), "certificates": certificates])
        guard let data = try? JSONEncoder().encode(saved) else { return }
        try? Platform.makeDirectory(Self.directory(of: file))
        try? Platform.writeAtomically(data, to: file, mode: 0o600)
    }

    private static func directory(of file: String) -> String {
        String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)])
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
