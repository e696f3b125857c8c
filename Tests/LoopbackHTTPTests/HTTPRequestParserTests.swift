import LoopbackHTTP
import Testing

@Suite struct HTTPRequestParserTests {
    private func parse(_ text: String, limits: HTTPLimits = HTTPLimits()) -> HTTPParseOutcome {
        HTTPRequestParser.parse(Array(text.utf8), limits: limits)
    }

    @Test func parsesAGetWithQueryAndHeaders() throws {
        let text = "GET /__/auth/handler?state=abc&code=x%2By+z HTTP/1.1\r\nHost: localhost:9\r\nAccept:  */* \r\n\r\n"
        let outcome = HTTPRequestParser.parse(Array(text.utf8) + Array("NEXT".utf8))
        guard case .complete(let request, let consumed) = outcome else { Issue.record("\(outcome)"); return }
        #expect(consumed == text.utf8.count)
        #expect(request.method == "GET")
        #expect(request.path == "/__/auth/handler")
        #expect(request.rawQuery == "state=abc&code=x%2By+z")
        #expect(request.queryItems.map(\.name) == ["state", "code"])
        #expect(request.queryItems.map(\.value) == ["abc", "x+y z"])
        #expect(request.header("host") == "localhost:9")
        #expect(request.header("ACCEPT") == "*/*")
    }

    @Test func waitsForTheRestOfAPartialRequest() {
        let full = "POST /x HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello"
        for cut in 1..<full.utf8.count {
            #expect(HTTPRequestParser.parse(Array(full.utf8.prefix(cut))) == .needMoreData, "cut at \(cut)")
        }
        guard case .complete(let request, _) = parse(full) else { Issue.record("incomplete"); return }
        #expect(request.body == Array("hello".utf8))
    }

    @Test(arguments: [
        ("garbage\r\n\r\n", HTTPParseFailure.malformedRequestLine),
        ("\u{16}\u{03}\u{01}\u{02}\r\n\r\n", .malformedRequestLine),
        ("GET  / HTTP/1.1\r\n\r\n", .malformedRequestLine),
        ("GET relative HTTP/1.1\r\n\r\n", .malformedRequestLine),
        ("GET / HTTP/2.0\r\n\r\n", .unsupportedVersion),
        ("GET / HTTP/1.1\r\nNo colon here\r\n\r\n", .malformedHeader),
        ("GET / HTTP/1.1\r\nBad name: x\r\n\r\n", .malformedHeader),
        ("GET / HTTP/1.1\r\nName : x\r\n\r\n", .malformedHeader),
        ("GET / HTTP/1.1\r\n folded\r\n\r\n", .malformedHeader),
        ("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", .unsupportedTransferEncoding),
        ("POST / HTTP/1.1\r\nContent-Length: 999999999\r\n\r\n", .bodyTooLarge),
    ])
    func rejects(_ text: String, _ failure: HTTPParseFailure) {
        #expect(parse(text) == .failed(failure))
    }

    @Test func rejectsAGarbageRequestLineBeforeTheHeadersEnd() {
        #expect(parse("\u{0}\u{1}\u{2} nonsense\r\nmore") == .failed(.malformedRequestLine))
    }

    @Test func rejectsOversizedHeadersWithoutWaitingForMore() {
        let limits = HTTPLimits(maxHeaderBytes: 64)
        #expect(parse("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 100), limits: limits) == .failed(.headersTooLarge))
        #expect(parse("GET / HTTP/1.1\r\nX: a\r\n\r\n", limits: limits) != .failed(.headersTooLarge))
    }

    @Test func readsAbsoluteFormTargetsAsAProxyReceivesThem() throws {
        guard case .complete(let request, _) = parse("GET http://example.test:81/p/q?a=1 HTTP/1.1\r\n\r\n") else {
            Issue.record("not parsed"); return
        }
        #expect(request.target == "http://example.test:81/p/q?a=1")
        #expect(request.path == "/p/q")
        #expect(request.rawQuery == "a=1")
    }

    @Test func decodesFormBodiesOnlyWhenDeclared() throws {
        let text = "POST /cb HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 11\r\n\r\nstate=a%20b"
        guard case .complete(let request, _) = parse(text) else { Issue.record("not parsed"); return }
        #expect(request.formItems.map(\.value) == ["a b"])
        var plain = request
        plain.headers = []
        #expect(plain.formItems.isEmpty)
    }
}

@Suite struct FormEncodingTests {
    @Test func roundTripsAnyText() {
        let items = [("a b", "c&d=e"), ("ünï", "%zz+"), ("", "")]
        let decoded = FormEncoding.decode(FormEncoding.encode(items.map { (name: $0.0, value: $0.1) }))
        #expect(decoded.map(\.name) == ["a b", "ünï", ""])
        #expect(decoded.map(\.value) == ["c&d=e", "%zz+", ""])
    }

    @Test func keepsBrokenPercentEscapes() {
        #expect(FormEncoding.percentDecode("100%") == "100%")
        #expect(FormEncoding.percentDecode("%4") == "%4")
        #expect(FormEncoding.percentDecode("%41%ff") == "A\u{FFFD}")
    }
}
