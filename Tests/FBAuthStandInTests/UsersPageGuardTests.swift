import FBAuthStandIn
import Foundation
import LoopbackHTTP
import Testing

/// Issue 59, item 5 and issue 56, item 6: the users page is served to the emulator's own origin
/// only (a loopback Host, no other Origin, no cross-site fetch but a navigation), sets no
/// cookie, and leaves Google's JSON answer at `/` and the API's openness to any origin alone.
@Suite struct UsersPageGuardTests {
    static let browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

    func get(_ standIn: StandIn, _ path: String, _ headers: [String], host: String? = nil, method: String = "GET") throws -> ReceivedResponse {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host ?? standIn.hostAndPort)\r\nConnection: close\r\n"
        for header in headers { head += header + "\r\n" }
        head += "Content-Length: 0\r\n\r\n"
        let connection = try LoopbackConnection(port: standIn.port)
        connection.send(Array(head.utf8))
        return try #require(ReceivedResponse(parsing: connection.readToEnd()))
    }

    @Test func aBrowserGetsThePageAndAJSONClientGetsTheStatus() throws {
        var configuration = StandInConfiguration()
        configuration.projectId = "demo-page"
        let standIn = try StandIn(configuration: configuration)
        standIn.start()
        defer { standIn.stop() }
        let page = try get(standIn, "/", ["Accept: \(Self.browserAccept)"])
        #expect(page.status == 200 && page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.bodyText.contains("<script src=\"/emulator/ui/users.js\" defer></script>"), "\(page.bodyText)")
        #expect(page.header("Content-Security-Policy") == "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'")
        #expect(page.header("X-Frame-Options") == "DENY" && page.header("X-Content-Type-Options") == "nosniff" && page.header("Cache-Control") == "no-store")
        for (path, type) in [("/emulator/ui/users.js", "text/javascript; charset=utf-8"), ("/emulator/ui/users.css", "text/css; charset=utf-8"),
                             ("/emulator/ui/projects", "application/json")] {
            let asset = try get(standIn, path, ["Sec-Fetch-Site: same-origin"])
            #expect(asset.status == 200 && asset.header("Content-Type") == type, "\(path): \(asset.status) \(asset.bodyText)")
            #expect(asset.header("Set-Cookie") == nil && asset.header("Access-Control-Allow-Origin") == nil, "\(path)")
        }
        #expect(try get(standIn, "/emulator/ui/projects", []).bodyText == #"{"projects":["demo-page"]}"#)
        #expect(page.header("Set-Cookie") == nil)
        // curl, firebase-tools' readiness check and other JSON clients: Google's answer, as before.
        for accept in [nil, "*/*", "application/json"] {
            let status = try get(standIn, "/", accept.map { ["Accept: \($0)"] } ?? [])
            let json = try JSONSerialization.jsonObject(with: Data(status.body)) as? [String: Any]
            #expect(status.status == 200 && (json?["authEmulator"] as? [String: Any])?["ready"] as? Bool == true, "\(accept ?? "none"): \(status.bodyText)")
        }
    }

    @Test func anotherOriginARebindingHostOrACrossSiteFetchIsRefused() throws {
        var configuration = StandInConfiguration()
        configuration.profile = .googleEmulator  // as `fbauth emulator` runs it
        let standIn = try StandIn(configuration: configuration)
        standIn.start()
        defer { standIn.stop() }
        let port = standIn.port
        let refused: [(path: String, headers: [String], host: String?, words: String)] = [
            // DNS rebinding: another name that resolves to 127.0.0.1.
            ("/", ["Accept: text/html"], "attacker.example:\(port)", "This page is served only at http://127.0.0.1:\(port)/ or http://localhost:\(port)/."),
            ("/emulator/ui/projects", [], "attacker.example:\(port)", "This page is served only at"),
            ("/emulator/ui/projects", [], "127.0.0.1:\(port + 1)", "This page is served only at"),
            ("/emulator/ui/projects", [], "", "This page is served only at"),
            ("/emulator/ui/projects", ["Origin: http://attacker.example"], nil, "Requests from another origin are refused here."),
            ("/emulator/ui/projects", ["Origin: null"], nil, "Requests from another origin are refused here."),
            ("/emulator/ui/users.js", ["Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: no-cors"], nil, "Requests from another site are refused here."),
            ("/emulator/ui/projects", ["Sec-Fetch-Site: same-site", "Sec-Fetch-Mode: cors"], nil, "Requests from another site are refused here."),
        ]
        for attempt in refused {
            let answer = try get(standIn, attempt.path, attempt.headers, host: attempt.host)
            #expect(answer.status == 403 && answer.bodyText.hasPrefix(attempt.words) && answer.bodyText.hasSuffix("\n")
                    && answer.bodyText.split(separator: "\n").count == 1, "\(attempt): \(answer.status) \(answer.bodyText)")
            #expect(answer.header("Access-Control-Allow-Origin") == nil && answer.header("Set-Cookie") == nil)
        }
        // A link from another site may open the page: it acts only on the user's clicks, in no frame.
        let linked = try get(standIn, "/", ["Accept: text/html", "Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: navigate"], host: "localhost:\(port)")
        #expect(linked.status == 200 && linked.header("X-Frame-Options") == "DENY")
        let posted = try get(standIn, "/emulator/ui/projects", [], method: "POST")
        #expect(posted.status == 405 && posted.bodyText == "Only GET is served here.\n")
        // Google's API stays open to any origin, as Google's emulator's is.
        let api = try get(standIn, "/identitytoolkit.googleapis.com/v1/projects/\(standIn.configuration.projectId)/accounts:batchGet",
                          ["Origin: http://attacker.example", "Authorization: Bearer owner"], host: "attacker.example:\(port)")
        #expect(api.status == 200 && api.header("Access-Control-Allow-Origin") != nil, "\(api.status) \(api.bodyText)")
    }
}
