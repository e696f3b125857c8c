@testable import FBAuthVerification
import Foundation
import Testing

/// The JWS segment decoder against Foundation's base64: every length (so every remainder), every
/// byte value, and the characters and lengths it must refuse.
@Suite struct Base64URLTests {
    @Test func everyLengthDecodesAsFoundationEncodes() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let segment = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(DecodedJWT.bytes(Substring(segment)) == bytes, "length \(length)")
        }
        let all = (0...255).map(UInt8.init)
        #expect(DecodedJWT.bytes(Substring(DecodedJWT.base64URL(all))) == all)
    }

    @Test(arguments: ["AAAAA", "A", "AA+A", "AA/A", "AA=A", "AA==", "AB C", "ABC\u{e9}", "ABCD.", "ABC\0"])
    func whatIsNotBase64URLIsRefused(segment: String) {
        #expect(DecodedJWT.bytes(Substring(segment)) == nil)
    }
}
