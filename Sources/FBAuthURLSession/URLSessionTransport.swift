import FBAuthHTTP
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking  // URLSession on Linux (backed by libcurl)
#endif

/// The live `HTTPTransport`: one synchronous exchange over URLSession, bounded by the request's
/// timeout from start to finish (connecting included). No cookies, no cache. Redirects are not
/// followed (the 3xx answer is returned), and an answer larger than `maximumBodyBytes` — after
/// decompression, so a small gzip body cannot expand without limit — is refused.
///
/// Proxies: on Linux, libcurl reads `https_proxy`/`HTTPS_PROXY`, `http_proxy` and
/// `no_proxy`/`NO_PROXY` from the environment; on macOS the system proxy settings apply.
package final class URLSessionTransport: HTTPTransport, @unchecked Sendable {
    /// Identity Toolkit's answers are a few kilobytes; 1 MiB is plenty.
    package static let maximumBodyBytes = 1 << 20

    // URLSession is thread-safe; the class is only unchecked because URLSession is not marked Sendable.
    private let session: URLSession
    private let transfers = Transfers()

    package init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
    }

    package func send(_ request: HTTPClientRequest) throws(TransportError) -> HTTPClientResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = request.timeout
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body

        let task = session.dataTask(with: urlRequest)
        let transfer = transfers.begin(task)
        task.resume()
        guard transfer.done.wait(timeout: .now() + request.timeout) == .success else {
            task.cancel()
            transfers.end(task)
            throw TransportError(.timedOut, "no answer within \(Int(request.timeout)) s")
        }
        transfers.end(task)
        return try transfer.result()
    }

    /// Every exchange in flight, fed by URLSession's delegate callbacks.
    private final class Transfers: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var byTask: [Int: Transfer] = [:]

        func begin(_ task: URLSessionTask) -> Transfer {
            let transfer = Transfer()
            lock.withLock { byTask[task.taskIdentifier] = transfer }
            return transfer
        }

        func end(_ task: URLSessionTask) { _ = lock.withLock { byTask.removeValue(forKey: task.taskIdentifier) } }

        private func transfer(_ task: URLSessionTask) -> Transfer? { lock.withLock { byTask[task.taskIdentifier] } }

        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
            completionHandler(nil)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            transfer(dataTask)?.response = response as? HTTPURLResponse
            if response.expectedContentLength > Int64(URLSessionTransport.maximumBodyBytes) {
                transfer(dataTask)?.tooLarge = true
                completionHandler(.cancel)
                return
            }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            guard let transfer = transfer(dataTask) else { return }
            if transfer.append(data) > URLSessionTransport.maximumBodyBytes {
                transfer.tooLarge = true
                dataTask.cancel()
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            guard let transfer = transfer(task) else { return }
            transfer.finish(error: error, response: task.response as? HTTPURLResponse)
        }
    }

    /// One exchange's answer, handed from URLSession's queue to the waiting thread.
    private final class Transfer: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var body = Data()
        private var error: Error?
        private var _response: HTTPURLResponse?
        private var _tooLarge = false

        var response: HTTPURLResponse? {
            get { lock.withLock { _response } }
            set { lock.withLock { _response = newValue } }
        }

        var tooLarge: Bool {
            get { lock.withLock { _tooLarge } }
            set { lock.withLock { _tooLarge = newValue } }
        }

        /// Adds a piece of the body and returns the size so far.
        func append(_ data: Data) -> Int {
            lock.withLock {
                body.append(data)
                return body.count
            }
        }

        func finish(error: Error?, response: HTTPURLResponse?) {
            lock.withLock {
                self.error = error
                if _response == nil { _response = response }
            }
            done.signal()
        }

        func result() throws(TransportError) -> HTTPClientResponse {
            let (body, error, response, tooLarge) = lock.withLock { (self.body, self.error, self._response, self._tooLarge) }
            if tooLarge {
                throw TransportError(.tooLarge, "the answer is larger than \(URLSessionTransport.maximumBodyBytes / (1 << 20)) MiB")
            }
            if let error { throw Self.classify(error) }
            guard let response else { throw TransportError(.other, "no HTTP response") }
            var headers: [String: String] = [:]
            for (name, value) in response.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            return HTTPClientResponse(status: response.statusCode, headers: headers, body: body)
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
