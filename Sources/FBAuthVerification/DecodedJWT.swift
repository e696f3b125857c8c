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

    /// Nil when it is not three base64url segments whose first two are JSON objects. Taken
    /// apart on its UTF-8 bytes: Character-level splitting and replacing were most of a
    /// verification's time.
    init?(_ token: String) {
        let bytes = Array(token.utf8)
        guard bytes.count <= 16_384, let first = bytes.firstIndex(of: UInt8(ascii: ".")),
              let second = bytes[(first + 1)...].firstIndex(of: UInt8(ascii: ".")),
              !bytes[(second + 1)...].contains(UInt8(ascii: ".")),
              case .object(let header)? = Self.bytes(bytes[..<first]).flatMap(JSONParser.parse),
              case .object(let payload)? = Self.bytes(bytes[(first + 1)..<second]).flatMap(JSONParser.parse),
              let signature = Self.bytes(bytes[(second + 1)...])
        else { return nil }
        self.header = header
        self.payload = payload
        signingInput = Array(bytes[..<second])
        self.signature = signature
    }

    /// base64url without padding (RFC 7515 §2); nil for any other character.
    static func bytes(_ segment: Substring) -> [UInt8]? {
        bytes(Array(segment.utf8)[...])
    }

    /// The same from the segment's bytes: four characters to three bytes by a table.
    static func bytes(_ segment: ArraySlice<UInt8>) -> [UInt8]? {
        guard segment.count % 4 != 1 else { return nil }
        var output = [UInt8]()
        output.reserveCapacity(segment.count * 3 / 4)
        var accumulator: UInt32 = 0, bits: UInt32 = 0
        for character in segment {
            let value = base64URLValues[Int(character)]
            guard value != 0xFF else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> bits))
            }
        }
        return output
    }

    /// Each byte's 6-bit value in base64url, 0xFF for a byte that is not one of its characters.
    private static let base64URLValues: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8.enumerated() { table[Int(character)] = UInt8(value) }
        return table
    }()

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

/// What the verifier reads of JSON, through `JSONValue`'s public face only.
extension JSONValue {
    /// FBAuth's own parser: several times faster than `JSONDecoder` on a token's claims, which
    /// were most of a verification's time.
    static func decoded(_ bytes: some Collection<UInt8>) -> JSONValue? {
        JSONParser.parse(bytes)
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
