/// A response to write on a connection. Every response carries `Content-Length` and
/// `Connection: close`: one request per connection keeps the listener simple and lets a
/// browser's idle keep-alive connections be told apart from live ones.
package struct HTTPResponse: Sendable, Equatable {
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]

    package init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    package static func text(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array(text.utf8))
    }

    package static func html(_ status: Int, _ html: String) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: [
                ("Content-Type", "text/html; charset=utf-8"),
                // The page is static: no scripts, no frames, nothing loaded from elsewhere.
                ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action *"),
                ("X-Frame-Options", "DENY"),
                ("Referrer-Policy", "no-referrer"),
            ],
            body: Array(html.utf8))
    }

    package static func json(_ status: Int, _ bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json; charset=UTF-8")], body: bytes)
    }

    package static func redirect(to location: String) -> HTTPResponse {
        HTTPResponse(status: 302, headers: [("Location", location)])
    }

    /// The bytes on the wire.
    package func serialized() -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n"
        for header in headers { head += "\(header.name): \(header.value)\r\n" }
        head += "Content-Length: \(body.count)\r\n"
        // Nothing fbauth serves is to be kept, unless the response says how long it may be.
        if !headers.contains(where: { $0.name.lowercased() == "cache-control" }) { head += "Cache-Control: no-store\r\n" }
        head += "Connection: close\r\n\r\n"
        return Array(head.utf8) + body
    }

    package static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 302: "Found"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }

    package static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.serialized() == rhs.serialized()
    }
}
