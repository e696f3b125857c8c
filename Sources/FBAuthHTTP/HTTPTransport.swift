#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An outgoing HTTP request. fbauth's own value type, so the core never needs
/// FoundationNetworking (and libcurl) to describe one.
package struct HTTPClientRequest: Sendable {
    package var method: String
    package var url: URL
    package var headers: [String: String]
    package var body: Data?
    /// Total time allowed for the exchange, connecting included.
    package var timeout: TimeInterval

    package init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil, timeout: TimeInterval = 30) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

package struct HTTPClientResponse: Sendable {
    package var status: Int
    /// Header names in lower case.
    package var headers: [String: String]
    package var body: Data

    package init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }
}

/// Why no response arrived.
package struct TransportError: Error, Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case timedOut
        case cannotConnect
        case other
        /// The answer was larger than the transport accepts.
        case tooLarge
    }

    package var kind: Kind
    package var message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}

/// Sends one HTTP request and waits for the whole response. The live implementations are
/// `CurlTransport` (Linux, and the library's default) and `URLSessionTransport` (module
/// FBAuthURLSession, fbauth on macOS); tests pass fakes.
package protocol HTTPTransport: Sendable {
    func send(_ request: HTTPClientRequest) throws(TransportError) -> HTTPClientResponse
}
