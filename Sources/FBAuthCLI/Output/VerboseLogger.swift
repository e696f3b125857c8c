import FBAuth
import FBAuthSupport

/// `--verbose`: each HTTP exchange on stderr — method, URL, status, time — with request and
/// response bodies, as the library hands them over: secrets already replaced by markers.
struct VerboseLogger: HTTPExchangeLogger {
    let console: Console

    func log(_ exchange: LoggedExchange) {
        var lines = ["fbauth: > \(exchange.method) \(exchange.url)", "fbauth:   " + exchange.requestBody]
        let milliseconds = Int(exchange.duration * 1000)
        if let status = exchange.status {
            lines.append("fbauth: < \(status) in \(milliseconds) ms")
            lines.append("fbauth:   " + (exchange.responseBody ?? ""))
        } else {
            lines.append("fbauth: < no answer after \(milliseconds) ms: \(exchange.failure ?? "unknown failure")")
        }
        console.say(lines.map(TerminalText.safe).joined(separator: "\n"))
    }
}
