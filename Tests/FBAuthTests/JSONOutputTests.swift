@testable import FBAuthCLI
import FBAuthHTTP
import Foundation
import Testing

/// `JSONOutput.render` of a JSON value writes it directly (verify-token's start-up, issue 50);
/// every value must come out exactly as Foundation's encoder writes it, which it replaced.
@Suite struct JSONOutputTests {
    static let values: [JSONValue] = [
        .object([:]), .array([]), .null, .bool(true), .integer(-9_223_372_036_854_775_808), .integer(Int64.max), .number(42), .number(-3),
        .string(""), .string("plain"), .string("quote \" backslash \\ slash / tab \t newline \n return \r"),
        .string("controls \u{0} \u{1} \u{8} \u{c} \u{1f} \u{7f} del"), .string("unicode é ü 漢字 🙂 \u{2028} \u{202E}gnp.exe"),
        .object(["b": .integer(1), "a": .string("x"), "B": .bool(false), "_": .null, "é": .integer(2), "aa": .array([]), "A1": .object([:])]),
        .object(["firebase": .object(["identities": .object(["email": .array([.string("a@example.com")])]), "sign_in_provider": .string("password")]),
                 "nested": .array([.object(["k": .array([.integer(1), .object([:]), .array([.null])])]), .string("end")])]),
    ]

    @Test(arguments: values)
    func writtenDirectlyAsTheEncoderWritesIt(_ value: JSONValue) {
        struct Wrapped: Encodable {
            let value: JSONValue
            func encode(to encoder: Encoder) throws { try value.encode(to: encoder) }
        }
        #expect(JSONOutput.render(value) == JSONOutput.render(Wrapped(value: value)))
    }

    @Test func aFractionStillGoesThroughTheEncoder() {
        #expect(JSONOutput.render(JSONValue.object(["x": .number(1.5)])) == "{\n  \"x\" : 1.5\n}\n")
    }
}
