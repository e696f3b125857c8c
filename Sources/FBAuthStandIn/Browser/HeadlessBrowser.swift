#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// A minimal browser for loopback addresses: follows redirects and answers the fake provider's
/// consent page. `fbauth demo` uses it where no real browser can be opened; tests use it (as
/// `fbauth-fake-browser`) to drive the real binary. It can also imitate a real browser's
/// stray traffic — idle spare connections, `/favicon.ico`, forged callbacks, garbage — against
/// the app's listener before delivering the real redirect.
package struct HeadlessBrowser: Sendable {
    package enum Decision: String, Sendable {
        case allow, deny
    }

    /// The email typed into the consent page; nil keeps what the page pre-fills (`login_hint`).
    package var email: String?
    package var decision: Decision
    package var strayRequestsFirst: Bool
    /// What to post as the result when a page of fbauth's hosted flow is reached (this browser
    /// runs no JavaScript): the body its script would post, `{"requestUri", "sessionId"}`.
    package var hostedResult: String?

    package init(email: String? = nil, decision: Decision = .allow, strayRequestsFirst: Bool = false, hostedResult: String? = nil) {
        self.email = email
        self.decision = decision
        self.strayRequestsFirst = strayRequestsFirst
        self.hostedResult = hostedResult
    }

    package struct Page: Sendable {
        package var url: String
        package var status: Int
        package var body: String
    }

    package struct Failure: Error, Sendable {
        package var message: String
    }

    /// Visits `url` and keeps going until a page needs nothing more. Returns every page seen.
    /// With `stoppingAtPort`, the browser stops before loading anything on that port and
    /// returns its address last (status 0): what a user would copy from the address bar when
    /// the page cannot load.
    package func visit(_ url: String, stoppingAtPort: UInt16? = nil) throws(Failure) -> [Page] {
        var pages: [Page] = []
        var url = url
        if url.hasPrefix("file:") {
            // A local page that moves on at once (fbauth's launch page): read it, follow its refresh.
            let body = try Self.localPage(url)
            pages.append(Page(url: url, status: 200, body: body))
            guard let target = Self.refreshTarget(in: body) else { throw Failure(message: "the local page \(url) leads nowhere") }
            url = target
        }
        var next = Step(method: "GET", url: url, form: nil)
        let firstPort = try Target(url).port
        var spareConnection: LoopbackConnection?
        defer { spareConnection?.close() }
        // As browsers keep them: by host name, whatever the port.
        var cookies: [String: [String: String]] = [:]

        for _ in 0..<12 {
            let target = try Target(next.url)
            if target.port == stoppingAtPort {
                pages.append(Page(url: next.url, status: 0, body: ""))
                return pages
            }
            if strayRequestsFirst, spareConnection == nil, target.port != firstPort {
                spareConnection = Self.disturb(target)
            }
            let response = try exchange(next, target, cookies: &cookies)
            let body = response.bodyText
            pages.append(Page(url: next.url, status: response.status, body: body))
            if (300..<400).contains(response.status), let location = response.header("Location") {
                guard let resolved = URL(string: location, relativeTo: URL(string: next.url))?.absoluteString else {
                    throw Failure(message: "bad redirect location \(location)")
                }
                next = Step(method: "GET", url: resolved, form: nil)
            } else if response.status == 200, body.contains("data-fbauth-consent") {
                next = try consent(on: body, at: next.url)
            } else if response.status == 200, body.contains("id=\"fbauth-config\""), let hostedResult, next.method == "GET" {
                // What the hosted page's script posts once Firebase's handler is done.
                next = Step(method: "POST", url: "http://\(target.hostHeader)/__/fbauth/result", form: hostedResult, contentType: "application/json")
            } else {
                return pages
            }
        }
        throw Failure(message: "too many redirects")
    }

    // MARK: - Pieces

    private struct Step {
        var method: String
        var url: String
        var form: String?
        var contentType = "application/x-www-form-urlencoded"
    }

    /// Where a loopback URL points.
    private struct Target {
        var address: LoopbackAddress
        var hostHeader: String
        var port: UInt16
        var hostName: String { String(hostHeader[..<(hostHeader.lastIndex(of: ":") ?? hostHeader.endIndex)]) }
        var pathAndQuery: String

        init(_ url: String) throws(Failure) {
            guard let components = URLComponents(string: url), components.scheme == "http",
                let host = components.percentEncodedHost?.trimmed(where: { "[]".contains($0) })
            else { throw Failure(message: "not an http URL: \(url)") }
            switch host {
            case "127.0.0.1", "localhost": address = .ipv4
            case "::1": address = .ipv6
            default: throw Failure(message: "the headless browser only visits loopback addresses, not \(host)")
            }
            port = UInt16(components.port ?? 80)
            hostHeader = (host == "::1" ? "[::1]" : host) + ":\(port)"
            pathAndQuery = (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath)
                + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        }
    }

    private func exchange(_ step: Step, _ target: Target, cookies: inout [String: [String: String]]) throws(Failure) -> ReceivedResponse {
        var head = "\(step.method) \(target.pathAndQuery) HTTP/1.1\r\nHost: \(target.hostHeader)\r\n"
            + "User-Agent: fbauth-headless-browser/1\r\nAccept: text/html\r\nConnection: close\r\n"
        let host = target.hostName
        if let jar = cookies[host], !jar.isEmpty {
            head += "Cookie: " + jar.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") + "\r\n"
        }
        let body = Array((step.form ?? "").utf8)
        if step.form != nil {
            // Browsers name the page's origin on every POST.
            head += "Origin: http://\(target.hostHeader)\r\nContent-Type: \(step.contentType)\r\nContent-Length: \(body.count)\r\n"
        }
        let connection: LoopbackConnection
        do {
            connection = try LoopbackConnection(address: target.address, port: target.port, timeoutSeconds: 60)
        } catch {
            throw Failure(message: "cannot connect to \(target.hostHeader): \(error.description)")
        }
        defer { connection.close() }
        connection.send(Array((head + "\r\n").utf8) + body)
        guard let response = ReceivedResponse(parsing: connection.readToEnd()) else {
            throw Failure(message: "no HTTP answer from \(target.hostHeader)")
        }
        for header in response.headers where header.name.lowercased() == "set-cookie" {
            let pair = header.value.split(separator: ";").first.map(String.init) ?? ""
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmed() }
            if parts.count == 2 { cookies[host, default: [:]][parts[0]] = parts[1] }
        }
        return response
    }

    /// Fills in and submits the fake provider's consent form.
    private func consent(on page: String, at url: String) throws(Failure) -> Step {
        guard let action = Self.attribute("action", in: page), let flow = Self.inputValue("flow", in: page),
            let resolved = URL(string: action, relativeTo: URL(string: url))?.absoluteString
        else { throw Failure(message: "the consent page has no form") }
        let prefilled = Self.inputValue("email", in: page) ?? ""
        let email = self.email ?? (prefilled.isEmpty ? "user@example.com" : prefilled)
        let form = FormEncoding.encode([("flow", flow), ("email", email), ("decision", decision.rawValue)])
        return Step(method: "POST", url: resolved, form: form)
    }

    /// What a real browser may do to a local listener before the redirect arrives. Returns an
    /// idle connection the caller keeps open until the end.
    private static func disturb(_ target: Target) -> LoopbackConnection? {
        let spare = try? LoopbackConnection(address: target.address, port: target.port)
        let callbackPath = target.pathAndQuery.split(separator: "?").first.map(String.init) ?? "/"
        let strays = [
            "GET /favicon.ico HTTP/1.1\r\nHost: \(target.hostHeader)\r\n\r\n",
            "GET \(callbackPath)?state=forged&code=forged HTTP/1.1\r\nHost: \(target.hostHeader)\r\n\r\n",
            "GET \(callbackPath) HTTP/1.1\r\nHost: \(target.hostHeader)\r\n\r\n",
            "\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\u{00}\u{01}\u{fc}\u{03}\u{03}not http\r\n\r\n",
            "GET \(target.pathAndQuery) HTTP/1.1\r\nHost: attacker.example\r\n\r\n",
        ]
        for stray in strays {
            guard let connection = try? LoopbackConnection(address: target.address, port: target.port, timeoutSeconds: 5) else { continue }
            connection.send(stray)
            _ = connection.readToEnd()
            connection.close()
        }
        return spare
    }

    /// The text of a `file://` page, as a browser reads it: with this user's permissions.
    static func localPage(_ url: String) throws(Failure) -> String {
        guard let path = URLComponents(string: url)?.path, !path.isEmpty else { throw Failure(message: "not a file URL: \(url)") }
        guard FileManager.default.fileExists(atPath: path) else { throw Failure(message: "cannot read \(path): there is no such file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(message: "cannot read \(path): it cannot be opened (permission denied, or not a file)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Where a `<meta http-equiv="refresh" content="0;url=…">` sends the browser.
    package static func refreshTarget(in html: String) -> String? {
        guard html.contains("http-equiv=\"refresh\""), let range = html.firstRange(of: ";url=") else { return nil }
        return unescape(String(html[range.upperBound...].prefix { $0 != "\"" }))
    }

    static func attribute(_ name: String, in html: String) -> String? {
        guard let range = html.firstRange(of: "\(name)=\"") else { return nil }
        return unescape(String(html[range.upperBound...].prefix { $0 != "\"" }))
    }

    static func inputValue(_ name: String, in html: String) -> String? {
        guard let range = html.firstRange(of: "name=\"\(name)\" value=\"") else { return nil }
        return unescape(String(html[range.upperBound...].prefix { $0 != "\"" }))
    }

    static func unescape(_ text: String) -> String {
        text.replacing("&quot;", with: "\"").replacing("&#39;", with: "'")
            .replacing("&lt;", with: "<").replacing("&gt;", with: ">")
            .replacing("&amp;", with: "&")
    }
}
