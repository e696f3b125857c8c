#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Sees each exchange with Firebase after it ends (a `--verbose` log).
public protocol HTTPExchangeLogger: Sendable {
    func log(_ exchange: LoggedExchange)
}

/// One exchange with Firebase as a log may show it: every secret is already replaced by a
/// marker (`Redaction`), and what the answer quotes of the request's secrets is removed
/// (`SentSecrets`), so no logger can leak a token, a password or a code.
public struct LoggedExchange: Sendable {
    public let method: String
    /// The address, with secret parameters (the API key among them) replaced.
    public let url: String
    public let requestBody: String
    /// nil when no answer came.
    public let status: Int?
    public let responseBody: String?
    /// Why no answer came.
    public let failure: String?
    public let duration: TimeInterval

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
