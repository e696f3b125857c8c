#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// The provider's redirect, however it arrived: at the listener (to be answered after the
/// exchange), pasted into the terminal, or given to `--complete`.
internal struct ReceivedCallback {
    internal let verdict: CallbackMatcher.Verdict
    /// The URL exactly as the browser requested it: scheme, host, port, path and query.
    internal let requestURI: String
    /// The form body of a POST callback (`response_mode=form_post`), as sent.
    internal let postBody: String?
    /// The browser's connection, when the redirect reached the listener.
    let held: HeldRequest?

    /// Answers the browser, when it is waiting on the listener.
    internal func respond(_ page: HTTPResponse) { held?.respond(page) }
}

/// A redirect URL the user pasted (or passed to `--complete`), checked against the redirect URI
/// of the flow: same host, port and path, and then the same state / oauth_token as any request
/// on the listener.
enum PastedRedirect {
    static func callback(from text: String, redirectURI: String, matcher: CallbackMatcher) -> Result<ReceivedCallback, PasteProblem> {
        let pasted = text.trimmed().trimmed(where: { "\"'<>".contains($0) })
        guard let url = URLComponents(string: pasted), let expected = URLComponents(string: redirectURI),
            url.scheme?.lowercased() == "http", let host = url.percentEncodedHost?.lowercased(), let port = url.port
        else { return .failure(.notTheRedirect("that is not an http://localhost address")) }
        guard ["localhost", "127.0.0.1", "[::1]", "::1"].contains(host), port == expected.port else {
            return .failure(.notTheRedirect("it does not point at this sign-in's redirect address \(redirectURI)"))
        }
        let target = url.percentEncodedPath + (url.percentEncodedQuery.map { "?" + $0 } ?? "")
        let hostHeader = (host == "::1" ? "[::1]" : host) + ":\(port)"
        let request = HTTPRequest(method: "GET", target: target, headers: [("Host", hostHeader)])
        let verdict = matcher.classify(request)
        if case .rejected(_, let reason) = verdict { return .failure(.notTheRedirect(reason)) }
        return .success(ReceivedCallback(verdict: verdict, requestURI: "http://\(hostHeader)\(target)", postBody: nil, held: nil))
    }

    enum PasteProblem: Error {
        case notTheRedirect(String)

        var reason: String {
            switch self {
            case .notTheRedirect(let reason): reason
            }
        }
    }
}
