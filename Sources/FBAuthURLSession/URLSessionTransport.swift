import FBAuthCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking  // URLSession on Linux (backed by libcurl)
#endif

/// The live `HTTPTransport`: one synchronous exchange over URLSession, bounded by the request's
/// timeout from start to finish (connecting included). No cookies, no cache.
///
/// Proxies: on Linux, libcurl reads `https_proxy`/`HTTPS_PROXY`, `http_proxy` and
/// `no_proxy`/`NO_PROXY` from the environment; on macOS the system proxy settings apply.
public final class URLSessionTransport: HTTPTransport, @unchecked Sendable {
    // URLSession is thread-safe; the class is only unchecked because URLSession is not marked Sendable.
    private let session: URLSession

    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    public func send(_ request: HTTPClientRequest) throws(TransportError) -> HTTPClientResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = request.timeout
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body

        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: urlRequest) { data, response, error in
            outcome.set(data: data, response: response as? HTTPURLResponse, error: error)
            done.signal()
        }
        task.resume()
        guard done.wait(timeout: .now() + request.timeout) == .success else {
            task.cancel()
            throw TransportError(.timedOut, "no answer within \(Int(request.timeout)) s")
        }
        return try outcome.result()
    }

    /// The completion handler's values, handed from URLSession's queue to the waiting thread.
    private final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var data: Data?
        private var response: HTTPURLResponse?
        private var error: Error?

        func set(data: Data?, response: HTTPURLResponse?, error: Error?) {
            lock.withLock {
                self.data = data
                self.response = response
                self.error = error
            }
        }

        func result() throws(TransportError) -> HTTPClientResponse {
            let (data, response, error) = lock.withLock { (self.data, self.response, self.error) }
            if let error { throw Self.classify(error) }
            guard let response else { throw TransportError(.other, "no HTTP response") }
            var headers: [String: String] = [:]
            for (name, value) in response.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            return HTTPClientResponse(status: response.statusCode, headers: headers, body: data ?? Data())
        }

        private static func classify(_ error: Error) -> TransportError {
            guard let urlError = error as? URLError else { return TransportError(.other, error.localizedDescription) }
            switch urlError.code {
            case .timedOut:
                return TransportError(.timedOut, "timed out")
            case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet, .networkConnectionLost:
                return TransportError(.cannotConnect, Self.describe(urlError))
            default:
                return TransportError(.other, Self.describe(urlError))
            }
        }

        private static func describe(_ error: URLError) -> String {
            switch error.code {
            case .cannotConnectToHost: "connection refused"
            case .cannotFindHost, .dnsLookupFailed: "host name not found"
            case .notConnectedToInternet: "not connected to the internet"
            case .networkConnectionLost: "the connection was lost"
            case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate:
                "TLS handshake failed (\(error.localizedDescription))"
            default: error.localizedDescription
            }
        }
    }
}
