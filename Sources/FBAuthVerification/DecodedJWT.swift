#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthHTTP

/// A compact JWS taken apart (RFC 7515 §7.1): its header and payload as JSON objects, the bytes
/// its signature covers, and the signature. Nothing is trusted yet.
struct DecodedJWT {
    let header: [String: JSONValue]
    let payload: [String: JSONValue]
    let signingInput: [UInt8]
    let signature: [UInt8]

    /// Nil when it is not three base64url segments whose first two are JSON objects.
    init?(_ token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, token.utf8.count <= 16_384,
              case .object(let header)? = Self.bytes(parts[0]).flatMap(JSONValue.decoded),
              case .object(let payload)? = Self.bytes(parts[1]).flatMap(JSONValue.decoded),
              let signature = Self.bytes(parts[2])
        else { return nil }
        self.header = header
        self.payload = payload
        signingInput = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
        self.signature = signature
    }

    /// base64url without padding (RFC 7515 §2); nil for any other character.
    static func bytes(_ segment: Substring) -> [UInt8]? {
        guard segment.utf8.allSatisfy({ $0.isBase64URL }), segment.utf8.count % 4 != 1 else { return nil }
        var text = segment.replacing("-", with: "+").replacing("_", with: "/")
        text += String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
        return Data(base64Encoded: String(text)).map { [UInt8]($0) }
    }

    /// base64url without padding, as a JWS's segments are written.
    static func base64URL(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString().replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
    }

    /// A JSON object as a segment: compact, keys sorted.
    static func segment(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return base64URL((try? encoder.encode(value)) ?? Data("{}".utf8))
    }
}

private extension UInt8 {
    var isBase64URL: Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || self == UInt8(ascii: "-") || self == UInt8(ascii: "_")
    }
}

/// What the verifier reads of JSON, through `JSONValue`'s public face only.
extension JSONValue {
    /// FBAuth's own parser: several times faster than `JSONDecoder` on a token's claims, which
    /// were most of a verification's time.
    static func decoded(_ bytes: some Sequence<UInt8>) -> JSONValue? {
        JSONValue.parse(String(decoding: Array(bytes), as: UTF8.self))
    }

    var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The value as compact JSON, for messages.
    var json: String {
        (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
    }
}
