#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// What the browser page of the hosted flow hands to fbauth: the body the Firebase JS SDK was
/// about to send to `accounts:signInWithIdp` (firebase-js-sdk
/// `packages/auth/src/core/strategies/idp.ts`, `_buildIdpRequest`), minus what only the SDK
/// would add.
package struct HostedIdpResponse: Sendable, Equatable, Decodable {
    /// The URL Firebase's handler received from the provider (code and state included).
    package var requestUri: String
    /// The session id the handler passed to `createAuthUri`.
    package var sessionId: String?
    /// The form body of a POST callback (`response_mode=form_post`), when there was one.
    package var postBody: String?
    package var tenantId: String?
}

/// Decides, request by request, what the loopback listener of the hosted flow does. A pure
/// value, so it can be tested without sockets. The browser comes through a `StartGate`; the
/// page, and the result it posts, are served only to requests that carry the gate's cookie.
struct HostedPageRoutes {
    static let resultPath = "/__/fbauth/result"
    static let failurePath = "/__/fbauth/failure"
    static let statusPath = "/__/fbauth/status"

    private(set) var gate: StartGate
    let port: UInt16
    let page: HTTPResponse
    private(set) var resultTaken = false

    init(nonce: String, cookie: String, port: UInt16, page: HTTPResponse) {
        gate = StartGate(nonce: nonce, cookie: cookie, authority: "localhost:\(port)")
        self.port = port
        self.page = page
    }

    /// The address to open.
    var startURL: String { gate.startURL }

    enum Decision: Equatable {
        /// Answer and keep waiting.
        case respond(HTTPResponse)
        /// The `/start` address was used a second time: refuse, and warn the user.
        case refuseReplay(HTTPResponse)
        /// The page captured the handler's result: exchange it, then answer with the outcome.
        case result(HostedIdpResponse)
        /// The page reports that the sign-in ended without a result.
        case failure(code: String, message: String)
        /// The page reports progress worth telling the user (e.g. a blocked popup).
        case status(String)
    }

    mutating func classify(_ request: HTTPRequest) -> Decision {
        // A page elsewhere must not reach us under another name (DNS rebinding); the page's
        // origin is exactly http://localhost:PORT, an authorized domain of every project.
        guard request.header("Host")?.lowercased() == "localhost:\(port)" else {
            return .respond(StartGate.refusal(400, "unexpected Host header"))
        }
        switch gate.start(request, then: "/") {
        case .respond(let response)?: return .respond(response)
        case .refuseReplay(let response)?: return .refuseReplay(response)
        case nil: break
        }
        switch (request.method, request.path) {
        case ("GET", "/"):
            guard gate.hasCookie(request) else {
                return .respond(StartGate.refusal(403, "open the address fbauth printed in the terminal"))
            }
            return .respond(page)
        case ("POST", Self.resultPath), ("POST", Self.failurePath), ("POST", Self.statusPath):
            guard gate.hasCookie(request), sameOrigin(request) else {
                return .respond(Self.jsonRefusal(403, "this request does not come from the sign-in page"))
            }
            return pagePost(request)
        default:
            return .respond(StartGate.refusal(404, "not found"))
        }
    }

    private mutating func pagePost(_ request: HTTPRequest) -> Decision {
        let object = JSONValue.parse(Data(request.body))
        switch request.path {
        case Self.resultPath:
            guard !resultTaken else { return .respond(Self.jsonRefusal(409, "a result was already received")) }
            guard let response = try? JSONDecoder().decode(HostedIdpResponse.self, from: Data(request.body)),
                let url = URLComponents(string: response.requestUri), ["http", "https"].contains(url.scheme?.lowercased() ?? "")
            else { return .respond(Self.jsonRefusal(400, "the result has no valid requestUri")) }
            resultTaken = true
            return .result(response)
        case Self.failurePath:
            return .failure(code: Self.text(object?["code"]), message: Self.text(object?["message"]))
        default:
            return .status(Self.text(object?["state"]))
        }
    }

    /// Browsers send `Origin` with every POST made by `fetch`.
    private func sameOrigin(_ request: HTTPRequest) -> Bool {
        request.header("Origin")?.lowercased() == "http://localhost:\(port)"
    }

    /// Page-supplied text, reduced to what can be shown safely on a terminal line.
    private static func text(_ value: JSONValue?) -> String {
        String(TerminalText.safe(value?.stringValue ?? "").prefix(300))
    }

    static func jsonRefusal(_ status: Int, _ reason: String) -> HTTPResponse {
        json(status, ["ok": .bool(false), "heading": .string("Sign-in failed"), "text": .string(reason)])
    }

    static func json(_ status: Int, _ members: [String: JSONValue]) -> HTTPResponse {
        .json(status, Array(JSONValue.object(members).sortedData()))
    }
}
