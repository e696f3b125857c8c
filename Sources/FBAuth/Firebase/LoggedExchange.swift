#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Sees each exchange with Firebase after it ends (a `--verbose` log).
package protocol HTTPExchangeLogger: Sendable {
    func log(_ exchange: LoggedExchange)
}

/// One exchange with Firebase as a log may show it: every secret is already replaced by a
/// marker (`Redaction`), and what the answer quotes of the request's secrets is removed
/// (`SentSecrets`), so no logger can leak a token, a password or a code.
package struct LoggedExchange: Sendable {
    package let method: String
    /// The address, with secret parameters (the API key among them) replaced.
    package let url: String
    package let requestBody: String
    /// nil when no answer came.
    package let status: Int?
    package let responseBody: String?
    /// Why no answer came.
    package let failure: String?
    package let duration: TimeInterval

    init(_ request: HTTPClientRequest, response: HTTPClientResponse?, failure: String?, duration: TimeInterval) {
        method = request.method
        url = Redaction.url(request.url.absoluteString)
        requestBody = Redaction.body(request.body, contentType: request.headers["Content-Type"])
        status = response?.status
        responseBody = response.map { SentSecrets(request).removed(from: Redaction.body($0.body, contentType: $0.headers["content-type"])) }
        self.failure = failure
        self.duration = duration
    }
}
