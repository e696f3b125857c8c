@testable import FBAuth
import Foundation
import Testing
@testable import FBAuthSupport

/// What fbauth accepts from a server before saving, printing or sending it on.
@Suite struct ServerValueChecksTests {
    @Test(arguments: [
        ("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln-_", TokenAlphabet.jwt, true),
        ("eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.", .jwt, true),
        ("eyJ.eyJ.x\r\nX-Evil: 1", .jwt, false),
        ("a.b", .jwt, false),
        (".b.c", .jwt, false),
        ("a.b.c.d", .jwt, false),
        ("a+b.c.d", .jwt, false),
        ("AMf-vBx_9.z~", .bearer, true),
        ("eyJfQXV0aEVtdWxhdG9yUmVmcmVzaFRva2VuIjoiRE8gTk9UIE1PRElGWSJ9+/==", .bearer, true),
        ("abc=def", .bearer, false),
        ("abc\n", .bearer, false),
        ("", .bearer, false),
        ("M.C507_BAY.0.U.-Cs2Oq!AlT6M*mfhGIf$", .visible, true),
        ("ya29.a0Af", .visible, true),
        ("with space", .visible, false),
        ("tab\there", .visible, false),
        ("é", .visible, false),
    ])
    func tokenAlphabets(text: String, alphabet: TokenAlphabet, accepted: Bool) {
        #expect(alphabet.accepts(text) == accepted, "\(text.debugDescription)")
    }

    @Test func tokensHaveALengthLimit() {
        #expect(TokenAlphabet.visible.accepts(String(repeating: "a", count: ServerValueBounds.tokenLength)))
        #expect(!TokenAlphabet.visible.accepts(String(repeating: "a", count: ServerValueBounds.tokenLength + 1)))
    }

    private struct Answer: Decodable {
        var expiresIn: Int?
        var token: String?
        enum CodingKeys: String, CodingKey { case expiresIn, token }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            expiresIn = try c.integer(.expiresIn, in: ServerValueBounds.tokenLifetime)
            token = try c.token(.token, .jwt)
        }
    }

    private func decode(_ json: String) -> Result<Answer, Error> {
        Result { try JSONDecoder().decode(Answer.self, from: Data(json.utf8)) }
    }

    @Test(arguments: [#"{"expiresIn": "3600"}"#, #"{"expiresIn": 3600}"#, #"{"expiresIn": null}"#, "{}"])
    func lifetimesFirebaseSends(json: String) throws {
        let answer = try decode(json).get()
        #expect(answer.expiresIn == (json.contains("3600") ? 3600 : nil))
    }

    @Test(arguments: [#"{"expiresIn": -1e11}"#, #"{"expiresIn": "-9223372036854775808"}"#, #"{"expiresIn": 9223372036854775807}"#,
                      #"{"expiresIn": 1e308}"#, #"{"expiresIn": 36.5}"#, #"{"expiresIn": "an hour"}"#, #"{"expiresIn": 0}"#,
                      #"{"expiresIn": 86401}"#, #"{"token": 7}"#, #"{"token": "a.b.c\n"}"#])
    func valuesOutOfRangeRefuseTheAnswer(json: String) {
        guard case .failure(let error) = decode(json) else { Issue.record("accepted \(json)"); return }
        #expect(error is ServerValueProblem, "\(error)")
        #expect("\(error)".hasSuffix("nothing was saved"))
    }

    @Test func storedTimestampsOutOfRangeReadAsExpired() {
        #expect(Timestamp.stored("2026-11-22T03:04:05Z") == Date(timeIntervalSince1970: 1_795_316_645))
        for text in ["-1144-12-04T23:06:40Z", "506713-02-07T00:00:00Z", "2201-01-01T00:00:00Z", "1969-12-31T23:59:59Z",
                     "-4712-01-01T12:00:00.5Z"] {
            #expect(Timestamp.stored(text) == Date(timeIntervalSince1970: 0), "\(text)")
        }
        for text in ["yesterday", "2026-11-22", "2026-11-22T03:04:05", "2026-11-22T03:04:05+01:00", "", "20261-1-22T03:04:05Z"] {
            #expect(Timestamp.stored(text) == nil, "\(text)")
        }
        #expect(Timestamp.secondsSince1970("2200-12-31T23:59:59Z") != nil)
        #expect(Timestamp.secondsSince1970("2201-01-01T00:00:00Z") == nil, "the quick path leaves such a date to the full path")
    }

    @Test func theProjectIDOfATokenMustLookLikeOne() {
        func token(aud: String) -> String {
            let payload = Data(#"{"aud":\#(String(decoding: try! JSONEncoder().encode(aud), as: UTF8.self))}"#.utf8).base64EncodedString()
                .replacing("=", with: "").replacing("+", with: "-").replacing("/", with: "_")
            return "eyJhbGciOiJub25lIn0.\(payload)."
        }
        #expect(IDTokenClaims.projectId(of: token(aud: "my-project-123")) == "my-project-123")
        #expect(IDTokenClaims.projectId(of: token(aud: "example.com:legacy")) == "example.com:legacy")
        #expect(IDTokenClaims.projectId(of: token(aud: "x\u{1b}]0;pwned\u{07}")) == nil)
        #expect(IDTokenClaims.projectId(of: token(aud: "Upper Case")) == nil)
    }

    @Test func terminalTextKeepsLinesOnlyWhenAsked() {
        #expect(TerminalText.safeLines("a\u{1b}[2J\nb\r\u{9b}c\td") == "a[2J\nbc d")
        #expect(TerminalText.safe("a\nb") == "a b")
        #expect(TerminalText.safeLines("plain\ntext") == "plain\ntext")
    }
}
