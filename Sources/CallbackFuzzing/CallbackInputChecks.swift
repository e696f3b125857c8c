import FBAuth
import LoopbackHTTP

/// What must hold for any bytes a client sends to the loopback listener, and any text pasted as
/// a redirect. A violation traps, which the fuzzer reports with the input.
package enum CallbackInputChecks {
    static let limits = HTTPLimits()
    static let oauth2 = CallbackMatcher(redirectPath: "/__/auth/handler", binding: .state("S"), port: 8977)
    static let oauth1 = CallbackMatcher(redirectPath: "/__/auth/handler", binding: .oauthToken("T"), port: 8977)

    package static func check(_ bytes: [UInt8]) {
        switch HTTPRequestParser.parse(bytes, limits: limits) {
        case .complete(let request, let consumed):
            precondition(consumed > 0 && consumed <= bytes.count, "consumed \(consumed) of \(bytes.count)")
            precondition(request.body.count <= limits.maxBodyBytes, "body over the limit")
            // The request is exactly its bytes: parsing just those gives the same request.
            guard case .complete(let again, consumed) = HTTPRequestParser.parse(Array(bytes[..<consumed]), limits: limits), again == request else {
                preconditionFailure("re-parsing the consumed bytes differs")
            }
            _ = (request.path, request.rawQuery, request.queryItems, request.formItems, request.originForm)
            classify(request, with: oauth2)
            classify(request, with: oauth1)
        case .needMoreData:
            precondition(bytes.count <= limits.maxHeaderBytes + 4 + limits.maxBodyBytes, "waits for more past every limit")
        case .failed(let failure):
            precondition((400...505).contains(failure.status), "status \(failure.status)")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        _ = CallbackMatcher.binding(forAuthorizationURL: text)
        let decoded = FormEncoding.decode(FormEncoding.encode([(name: text, value: text)]))
        precondition(decoded.count == 1 && decoded[0].name == text && decoded[0].value == text, "form encoding does not round-trip")
    }

    private static func classify(_ request: HTTPRequest, with matcher: CallbackMatcher) {
        switch matcher.classify(request) {
        case .authorized(let parameters):
            precondition(request.path == matcher.redirectPath, "authorized another path")
            switch matcher.binding {
            case .state(let value): precondition(parameters["state"] == value, "authorized a foreign state")
            case .oauthToken(let value): precondition(parameters["oauth_token"] == value, "authorized a foreign token")
            case .none: break
            }
        case .providerError:
            precondition(request.path == matcher.redirectPath, "ended the flow from another path")
        case .rejected(let status, _):
            precondition((400...499).contains(status), "rejected with \(status)")
        }
    }
}
