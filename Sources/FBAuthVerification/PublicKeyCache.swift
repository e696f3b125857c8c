#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthHTTP
import FBAuthSupport
import LoopbackHTTP

/// Google's public keys of one kind of token, fetched from their x509 endpoint (a JSON object
/// of kid → PEM certificate) and kept for the response's `Cache-Control: max-age`, as
/// firebase-admin keeps them. One fetch at a time serves every caller that needs one, and the
/// state's lock is never held while it runs: a verification with the keys already held never
/// waits for Google, however slow (issue 56: a long-running server). While a fetch of keys that
/// have just expired is under way, the other callers go on with them (for at most
/// `staleWhileFetching`) instead of all waiting for it. With a file, the keys and the time of
/// the last fetch are shared by every process that keeps them there (`fbauth verify-token`),
/// under a lock file beside it.
final class PublicKeyCache: @unchecked Sendable {
    /// How an endpoint publishes its keys: X.509 certificates by kid (securetoken,
    /// identitytoolkit), or a JSON Web Key Set (App Check, RFC 7517).
    enum Format: Sendable { case certificates, jwks }

    let url: URL
    let format: Format
    private let transport: HTTPTransport
    private let clock: WallClock
    /// Guards the state below; held only for moments, never across a fetch.
    private let lock = Lock()
    /// Held by the one caller fetching; the others that need a fetch wait here.
    private let fetching = Lock()
    private var fetchUnderWay = false
    private var keys: [String: RSAPublicKey] = [:]
    private var expires = Date.distantPast
    /// When keys were last asked for, whether they came or not: an unknown `kid` fetches
    /// again only `refetchAfter` later, so a forged kid cannot make every request a fetch
    /// (issue 47).
    private var lastFetch = Date.distantPast
    private var fileRead = false

    /// Where the certificates are kept between processes (`fbauth verify-token`: a file, 0600,
    /// in the config directory, opened and checked by the caller); nil: memory only.
    private let kept: KeptKeys?

    init(url: URL, format: Format = .certificates, transport: HTTPTransport, clock: WallClock, kept: KeptKeys? = nil) {
        self.url = url
        self.format = format
        self.transport = transport
        self.clock = clock
        self.kept = kept
    }

    /// The keys, fetched again when they have expired, or when `refreshing` (a `kid` none
    /// of them has: Google rotates keys) and they were not fetched a moment ago.
    func keys(refreshing: Bool = false) throws(TokenRefusal) -> [String: RSAPublicKey] {
        let now = clock.now()
        let held: [String: RSAPublicKey]? = lock.withLock {
            if !fileRead {
                fileRead = true
                withFile { directory, name in adopt(directory, name, now: now) }
            }
            if isFresh(now: now, refreshing: refreshing) { return keys }
            // Just expired, and another caller is fetching: go on with them meanwhile.
            if !refreshing, fetchUnderWay, !keys.isEmpty, now < expires.addingTimeInterval(Self.staleWhileFetching) { return keys }
            return nil
        }
        if let held { return held }
        let result: Result<[String: RSAPublicKey], TokenRefusal> = fetching.withLock {
            // The fetch another caller made while this one waited may be all it needs.
            let now = clock.now()
            if let fresh = lock.withLock({ isFresh(now: now, refreshing: refreshing) ? keys : nil }) { return .success(fresh) }
            lock.withLock { fetchUnderWay = true }
            defer { lock.withLock { fetchUnderWay = false } }
            // Another process may have fetched while this one waited for the file's lock.
            return withFile { directory, name in
                guard let fileLock = try? directory.lock(name + ".lock", timeout: .seconds(35)) else { return fetchAndKeep(now: now, in: nil) }
                defer { fileLock.unlock() }
                if let fresh = lock.withLock({ () -> [String: RSAPublicKey]? in
                    adopt(directory, name, now: now)
                    return isFresh(now: now, refreshing: refreshing) ? keys : nil
                }) { return .success(fresh) }
                return fetchAndKeep(now: now, in: (directory, name))
            } ?? fetchAndKeep(now: now, in: nil)
        }
        return try result.get()
    }

    /// How long past their expiry the kept keys still serve while a fetch is under way.
    static let staleWhileFetching: TimeInterval = 300

    private func isFresh(now: Date, refreshing: Bool) -> Bool {
        !keys.isEmpty && now < expires && (!refreshing || now < lastFetch.addingTimeInterval(Self.refetchAfter))
    }

    /// Fetches without the state's lock (the caller holds `fetching`), then keeps what came.
    private func fetchAndKeep(now: Date, in kept: (TrustedDirectory, String)?) -> Result<[String: RSAPublicKey], TokenRefusal> {
        lock.withLock { lastFetch = now }
        do throws(TokenRefusal) {
            let (fetched, maxAge, body) = try fetch()
            lock.withLock {
                keys = fetched
                expires = now.addingTimeInterval(maxAge)
            }
            if let (directory, name) = kept { save(body, in: directory, name) }
            return .success(fetched)
        } catch {
            // Kept too: the other processes wait as this one does.
            if let (directory, name) = kept { save(nil, in: directory, name) }
            return .failure(error)
        }
    }

    /// An unknown `kid` fetches again at most this often (a forged kid must not make every
    /// request a fetch).
    static let refetchAfter: TimeInterval = 60

    private func fetch() throws(TokenRefusal) -> (keys: [String: RSAPublicKey], maxAge: TimeInterval, body: JSONValue) {
        // firebase-admin's words for each kind of endpoint.
        let (failure, code, shape) = format == .jwks
            ? ("Error fetching Json Web Keys", "app-check/internal-error", "JSON Web Key Set of RSA keys")
            : ("Error fetching public keys for Google certs", "auth/internal-error", "object of RSA certificates")
        let response: HTTPClientResponse
        do {
            response = try transport.send(HTTPClientRequest(method: "GET", url: url, timeout: 30))
        } catch {
            throw TokenRefusal("\(failure): \(error.message) (\(url.absoluteString))", code: code)
        }
        guard response.status == 200 else {
            throw TokenRefusal("\(failure): HTTP \(response.status) from \(url.absoluteString)", code: code)
        }
        guard let body = JSONValue.decoded(response.body), let keys = Self.keys(in: body, format: format) else {
            throw TokenRefusal("\(failure): \(url.absoluteString) answered no \(shape) of 2048 bits or more", code: code)
        }
        let maxAge = Self.maxAge(response.headers["cache-control"])
        // App Check's keys are kept six hours when the answer says nothing, as firebase-admin keeps them.
        return (keys, maxAge == 0 && format == .jwks ? 6 * 3600 : maxAge, body)
    }

    /// The keys of `{kid: PEM, …}`, or of a JWKS's RSA keys (`{"keys": [{"kid", "n", "e"}, …]}`);
    /// nil unless every one is a key fbauth takes.
    static func keys(in published: JSONValue, format: Format) -> [String: RSAPublicKey]? {
        guard format == .jwks else { return keys(in: published) }
        guard case .array(let entries)? = published["keys"], (1...100).contains(entries.count) else { return nil }
        var keys: [String: RSAPublicKey] = [:]
        for entry in entries {
            guard entry["kty"]?.stringValue == "RSA", let kid = entry["kid"]?.stringValue, (1...256).contains(kid.utf8.count),
                  let modulus = entry["n"]?.stringValue.flatMap({ DecodedJWT.bytes(Substring($0)) }),
                  let exponent = entry["e"]?.stringValue.flatMap({ DecodedJWT.bytes(Substring($0)) }),
                  let key = try? RSAPublicKey(modulus: modulus, exponent: exponent) else { return nil }
            keys[kid] = key
        }
        return keys
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

    /// `body` with the file's directory and name; nil without a file.
    private func withFile<T>(_ body: (TrustedDirectory, String) -> T) -> T? {
        kept.map { body($0.directory, $0.name) }
    }

    /// `{"url", "fetched" and "expires" (seconds since 1970), "certificates"}`, read through the
    /// directory from a file of the user's own that no one else may write, for this URL: its
    /// keys while they have not expired, and when they were last asked for. Called under the
    /// state's lock.
    private func adopt(_ directory: TrustedDirectory, _ name: String, now: Date) {
        guard let data = try? directory.read(name, limit: 1 << 20), let saved = JSONValue.decoded(data),
              saved["url"]?.stringValue == url.absoluteString
        else { return }
        if let fetched = saved["fetched"]?.integer, case let date = Date(timeIntervalSince1970: TimeInterval(fetched)), date > lastFetch, date <= now {
            lastFetch = date
        }
        guard let until = saved["expires"]?.integer, case let date = Date(timeIntervalSince1970: TimeInterval(until)), date > now, date > expires || keys.isEmpty,
              let certificates = saved["certificates"], let kept = Self.keys(in: certificates, format: format)
        else { return }
        keys = kept
        expires = date
    }

    /// Best effort: a cache that cannot be written costs the next process a fetch, nothing more.
    /// `certificates` nil: the fetch failed; the keys kept before stay, with the time.
    private func save(_ certificates: JSONValue?, in directory: TrustedDirectory, _ name: String) {
        let (fetched, until) = lock.withLock { (lastFetch, expires) }
        var saved: [String: JSONValue] = ["url": .string(url.absoluteString), "fetched": .integer(Int64(fetched.timeIntervalSince1970))]
        if let certificates {
            saved["certificates"] = certificates
            saved["expires"] = .integer(Int64(until.timeIntervalSince1970))
        } else if let data = try? directory.read(name, limit: 1 << 20), let previous = JSONValue.decoded(data), previous["url"]?.stringValue == url.absoluteString {
            saved["certificates"] = previous["certificates"]
            saved["expires"] = previous["expires"]
        }
        guard let data = try? JSONEncoder().encode(JSONValue.object(saved)) else { return }
        try? directory.writeAtomically(data, to: name, mode: 0o600)
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

/// The file Google's certificates are kept in between processes: its name in a directory the
/// caller opened through its ancestors (`TrustedDirectory`), so every read and write goes
/// through that one descriptor.
package struct KeptKeys: Sendable {
    package let directory: TrustedDirectory
    package let name: String

    package init(directory: TrustedDirectory, name: String) {
        self.directory = directory
        self.name = name
    }
}
