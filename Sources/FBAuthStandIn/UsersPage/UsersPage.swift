#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// The emulator's users page: `GET /` from a browser, its script and style under `/emulator/ui/`,
/// and the list of projects that hold something (`/emulator/ui/projects`). The page itself
/// lists, adds, edits and deletes users through the Admin API with `Bearer owner`, as the
/// Emulator UI does; that API stays as open as Google's. What the page adds of its own is
/// served only to the emulator's own origin: a loopback `Host` (a DNS-rebound name is refused),
/// no other `Origin`, and no cross-site fetch but a navigation. It sets no cookie, so there is
/// nothing for another site to ride, and its script renders every value as text.
enum UsersPage {
    static let prefix = "/emulator/ui/"
    static let projectsPath = prefix + "projects"

    /// Whether `request` is for the page rather than the API: `/` asked for as HTML (a JSON
    /// client of `/` still gets Google's status answer), or anything under `/emulator/ui/`.
    static func isFor(_ request: HTTPRequest) -> Bool {
        if request.path.hasPrefix(prefix) { return true }
        guard request.path == "/", request.method == "GET" else { return false }
        return (request.header("Accept") ?? "").lowercased().contains("text/html")
    }

    /// The answer to a request `isFor` took; `projects` lists the projects that hold something,
    /// the emulator's own first.
    static func answer(_ request: HTTPRequest, port: UInt16, projects: () -> [String]) -> HTTPResponse {
        if let refusal = refusal(of: request, port: port) { return refusal }
        guard request.method == "GET" else { return plain(405, "Only GET is served here.") }
        switch request.path {
        case "/": return page(UsersPageAssets.html, type: "text/html; charset=utf-8")
        case prefix + "users.js": return page(UsersPageAssets.script, type: "text/javascript; charset=utf-8")
        case prefix + "users.css": return page(UsersPageAssets.style, type: "text/css; charset=utf-8")
        case projectsPath: return page(String(decoding: JSONText.data(["projects": projects()]), as: UTF8.self), type: "application/json")
        default: return plain(404, "Not found.")
        }
    }

    /// Why `request` is not the page's own origin asking, as a 403; nil when it is.
    static func refusal(of request: HTTPRequest, port: UInt16) -> HTTPResponse? {
        let origins = ownOrigins(port: port)
        guard let host = request.header("Host")?.lowercased(), origins.contains("http://" + host) else {
            return plain(403, "This page is served only at http://127.0.0.1:\(port)/ or http://localhost:\(port)/.")
        }
        if let origin = request.header("Origin"), !origins.contains(origin.lowercased()) {
            return plain(403, "Requests from another origin are refused here.")
        }
        // Browsers say where a request comes from; only a navigation may come from another site
        // (a link to the page), never a script, style or fetch another page includes.
        let site = request.header("Sec-Fetch-Site")?.lowercased()
        if site == "cross-site" || site == "same-site", request.header("Sec-Fetch-Mode")?.lowercased() != "navigate" {
            return plain(403, "Requests from another site are refused here.")
        }
        return nil
    }

    /// The origins the emulator is reached at: the loopback names, which no other host can take.
    static func ownOrigins(port: UInt16) -> Set<String> {
        ["http://127.0.0.1:\(port)", "http://localhost:\(port)", "http://[::1]:\(port)"]
    }

    private static func page(_ text: String, type: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", type)] + headers, body: Array(text.utf8))
    }

    private static func plain(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers, body: Array((text + "\n").utf8))
    }

    /// Every answer: scripts and styles from the emulator only, fetches to it only, no frame
    /// around it (clickjacking), no referrer, nothing cached, no sniffing.
    static let headers: [(String, String)] = [
        ("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"),
        ("X-Frame-Options", "DENY"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
    ]
}
