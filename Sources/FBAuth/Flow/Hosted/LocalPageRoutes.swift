#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP
import FBAuthSupport

/// Decides, request by request, what the loopback listener does for a page fbauth serves on
/// `http://localhost:PORT` (the hosted flow's page, the reCAPTCHA page). A pure value, so it
/// can be tested without sockets. The browser comes through a `StartGate`; the page, and what
/// it posts, are served only to requests that carry the gate's cookie, from the page's origin.
/// The page posts its result (checked by `decodeResult`: a malformed one is refused and the
/// wait goes on), a failure, or progress worth telling the user.
struct LocalPageRoutes<Result> {
    static var resultPath: String { "/__/fbauth/result" }
    static var failurePath: String { "/__/fbauth/failure" }
    static var statusPath: String { "/__/fbauth/status" }

    private(set) var gate: StartGate
    let port: UInt16
    let page: HTTPResponse
    let decodeResult: ([UInt8]) -> Result?
    private(set) var resultTaken = false

    init(nonce: String, cookie: String, port: UInt16, page: HTTPResponse, decodeResult: @escaping ([UInt8]) -> Result?) {
        gate = StartGate(nonce: nonce, cookie: cookie, authority: "localhost:\(port)")
        self.port = port
        self.page = page
        self.decodeResult = decodeResult
    }

    /// The address to open.
    var startURL: String { gate.startURL }

    enum Decision {
        /// Answer and keep waiting.
        case respond(HTTPResponse)
        /// The `/start` address was used a second time: refuse, and warn the user.
        case refuseReplay(HTTPResponse)
        /// The page's result: act on it, then answer with the outcome.
        case result(Result)
        /// The page reports that it ended without a result.
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
                return .respond(StartGate.refusal(403, "open the address printed in the terminal"))
            }
            return .respond(page)
        case ("POST", Self.resultPath), ("POST", Self.failurePath), ("POST", Self.statusPath):
            guard gate.hasCookie(request), sameOrigin(request) else {
                return .respond(LocalPageAnswer.refusal(403, "this request does not come from the sign-in page"))
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
            guard !resultTaken else { return .respond(LocalPageAnswer.refusal(409, "a result was already received")) }
            guard let result = decodeResult(request.body) else { return .respond(LocalPageAnswer.refusal(400, "the result is not valid")) }
            resultTaken = true
            return .result(result)
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
}

/// The JSON answers a local page's script reads.
enum LocalPageAnswer {
    static func refusal(_ status: Int, _ reason: String) -> HTTPResponse {
        json(status, ["ok": .bool(false), "heading": .string("Sign-in failed"), "text": .string(reason)])
    }

    /// How the page ends: its heading and sentence (the same words as the terminal).
    static func outcome(ok: Bool, heading: String, text: String) -> HTTPResponse {
        json(200, ["ok": .bool(ok), "heading": .string(heading), "text": .string(text)])
    }

    static let received = json(200, ["ok": true])

    static func json(_ status: Int, _ members: [String: JSONValue]) -> HTTPResponse {
        .json(status, Array(JSONValue.object(members).sortedData()))
    }
}

extension LocalPageRoutes.Decision: Equatable where Result: Equatable {}
