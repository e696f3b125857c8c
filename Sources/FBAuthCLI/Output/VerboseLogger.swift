#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import LoopbackHTTP
import FBAuthSupport

/// `--verbose`: each HTTP exchange on stderr — method, URL, status, time — with request and
/// response bodies, every secret replaced by a marker (`Redaction`).
struct VerboseLogger: HTTPExchangeLogger {
    let console: Console

    func log(_ request: HTTPClientRequest, response: HTTPClientResponse?, failure: String?, duration: TimeInterval) {
        var lines = ["fbauth: > \(request.method) \(Redaction.url(request.url.absoluteString))"]
        lines.append("fbauth:   " + Redaction.body(request.body, contentType: request.headers["Content-Type"]))
        let milliseconds = Int(duration * 1000)
        if let response {
            lines.append("fbauth: < \(response.status) in \(milliseconds) ms")
            // What the answer quotes of the request's secrets goes too (a server may echo them).
            lines.append("fbauth:   " + SentSecrets(request).removed(from: Redaction.body(response.body, contentType: response.headers["content-type"])))
        } else {
            lines.append("fbauth: < no answer after \(milliseconds) ms: \(failure ?? "unknown failure")")
        }
        console.say(lines.map(TerminalText.safe).joined(separator: "\n"))
    }
}
