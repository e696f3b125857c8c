import FBAuthStandIn
import Foundation
import LoopbackHTTP

/// Talks to the stand-in over raw HTTP, as an independent client would.
struct StandInClient {
    let standIn: StandIn
    var apiKey: String? = "test-key"

    struct Answer {
        var status: Int
        var json: [String: Any]
        var contentType: String?
        var errorMessage: String? { (json["error"] as? [String: Any])?["message"] as? String }
    }

    func post(_ path: String, json body: [String: Any], headers: [String] = []) -> Answer {
        let data = (try? JSONSerialization.data(withJSONObject: body)) ?? Data()
        return send("POST", path, body: Array(data), contentType: "application/json", headers: headers)
    }

    func accounts(_ method: String, _ body: [String: Any]) -> Answer {
        post("/identitytoolkit.googleapis.com/v1/accounts:\(method)", json: body)
    }

    func send(_ method: String, _ path: String, body: [UInt8] = [], contentType: String? = nil, headers: [String] = []) -> Answer {
        let target = path + (apiKey.map { (path.contains("?") ? "&" : "?") + "key=" + $0 } ?? "")
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(standIn.hostAndPort)\r\nConnection: close\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        for header in headers { head += header + "\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        guard let connection = try? LoopbackConnection(port: standIn.port) else { return Answer(status: -1, json: [:]) }
        connection.send(Array(head.utf8) + body)
        guard let response = ReceivedResponse(parsing: connection.readToEnd()) else { return Answer(status: -1, json: [:]) }
        let json = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
        return Answer(status: response.status, json: json, contentType: response.header("Content-Type"))
    }

    /// GET on a page of the stand-in, following nothing.
    func get(_ url: String) -> ReceivedResponse? {
        guard let components = URLComponents(string: url) else { return nil }
        let target = components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        guard let connection = try? LoopbackConnection(port: standIn.port) else { return nil }
        connection.send("GET \(target) HTTP/1.1\r\nHost: \(standIn.hostAndPort)\r\n\r\n")
        return ReceivedResponse(parsing: connection.readToEnd())
    }

    /// Runs createAuthUri and the consent page, and returns the redirect the provider sends.
    func authorize(provider: String, continueUri: String = "http://localhost:9/__/auth/handler", email: String = "a@example.com",
                   sessionId: String? = nil, decision: String = "allow", extra: [String: Any] = [:]) -> (sessionId: String, redirect: String)? {
        var body: [String: Any] = ["providerId": provider, "continueUri": continueUri]
        if let sessionId { body["sessionId"] = sessionId }
        body.merge(extra) { $1 }
        let answer = accounts("createAuthUri", body)
        guard let authUri = answer.json["authUri"] as? String, let session = answer.json["sessionId"] as? String,
            let page = get(authUri), page.status == 200,
            let flow = HeadlessBrowserForms.input("flow", in: page.bodyText)
        else { return nil }
        let form = FormEncoding.encode([("flow", flow), ("email", email), ("decision", decision)])
        guard let connection = try? LoopbackConnection(port: standIn.port) else { return nil }
        connection.send("POST /fake-idp/consent HTTP/1.1\r\nHost: \(standIn.hostAndPort)\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n\r\n\(form)")
        guard let redirect = ReceivedResponse(parsing: connection.readToEnd()), redirect.status == 302,
            let location = redirect.header("Location")
        else { return nil }
        return (session, location)
    }
}

enum HeadlessBrowserForms {
    static func input(_ name: String, in html: String) -> String? {
        guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }
}
