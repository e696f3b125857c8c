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

    /// The same from the segment's bytes: four characters to three bytes by a table, on raw
    /// memory (per-character appends and table lookups were a tenth of a verification).
    /// Leftover bits after the last whole byte are ignored, as base64 decoders do.
    static func bytes(_ segment: ArraySlice<UInt8>) -> [UInt8]? {
        let count = segment.count
        guard count % 4 != 1 else { return nil }
        let outputCount = count * 3 / 4
        var invalid: UInt8 = 0
        let output = [UInt8](unsafeUninitializedCapacity: outputCount) { output, initialized in
            base64URLValues.withUnsafeBufferPointer { table in
                segment.withUnsafeBufferPointer { input in
                    var i = 0, o = 0
                    var group: UInt32 = 0
                    while i < count {
                        // A character's value, or 0xFF (caught by `invalid`'s top bits).
                        let value = table[Int(input[i])]
                        invalid |= value
                        group = group << 6 | UInt32(value & 0x3F)
                        i += 1
                        if i & 3 == 0 {
                            output[o] = UInt8(truncatingIfNeeded: group >> 16)
                            output[o + 1] = UInt8(truncatingIfNeeded: group >> 8)
                            output[o + 2] = UInt8(truncatingIfNeeded: group)
                            o += 3
                            group = 0
                        }
                    }
                    // Two characters hold one byte, three hold two.
                    switch count & 3 {
                    case 2: output[o] = UInt8(truncatingIfNeeded: group >> 4)
                    case 3:
                        output[o] = UInt8(truncatingIfNeeded: group >> 10)
                        output[o + 1] = UInt8(truncatingIfNeeded: group >> 2)
                    default: break
                    }
                }
            }
            initialized = outputCount
        }
        return invalid & 0xC0 == 0 ? output : nil
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
    package static func decoded(_ bytes: some Collection<UInt8>) -> JSONValue? {
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
