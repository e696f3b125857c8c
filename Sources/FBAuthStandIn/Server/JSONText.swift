#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// JSON null in the stand-in's free-form values (`[String: Any]`), which Foundation's
/// JSONSerialization would give as NSNull; FoundationEssentials has neither.
struct JSONNull: Equatable, Sendable {}

/// JSON text to and from free-form values: objects `[String: Any]`, arrays `[Any]`, `String`,
/// `Bool`, `Int`, `Double` and `JSONNull`. The stand-in builds answers as dictionaries, as a
/// server does; fbauth's own decoding (Codable) stays independent of it.
enum JSONText {
    /// Parses JSON; nil when the bytes are not JSON.
    static func parse(_ data: Data) -> Any? {
        (try? JSONDecoder().decode(Parsed.self, from: data))?.value
    }

    static func parse(_ text: String) -> Any? { parse(Data(text.utf8)) }

    /// Compact JSON with keys sorted; `/` escaped as `\/` unless `escapingSlashes` is false.
    static func data(_ value: Any, escapingSlashes: Bool = false) -> Data {
        var output = ""
        write(value, to: &output, escapingSlashes: escapingSlashes)
        return Data(output.utf8)
    }

    private static func write(_ value: Any, to output: inout String, escapingSlashes: Bool) {
        switch value {
        case let text as String:
            writeString(text, to: &output, escapingSlashes: escapingSlashes)
        case let flag as Bool:
            output += flag ? "true" : "false"
        case let number as Int:
            output += String(number)
        case let number as Int64:
            output += String(number)
        case let number as Double:
            output += number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case let object as [String: Any]:
            output += "{"
            for (index, key) in object.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                writeString(key, to: &output, escapingSlashes: escapingSlashes)
                output += ":"
                write(object[key]!, to: &output, escapingSlashes: escapingSlashes)
            }
            output += "}"
        case let array as [Any]:
            output += "["
            for (index, element) in array.enumerated() {
                if index > 0 { output += "," }
                write(element, to: &output, escapingSlashes: escapingSlashes)
            }
            output += "]"
        default:
            output += "null"
        }
    }

    /// The text as a JSON string: runs that need no escape appended whole (ids, addresses,
    /// base64 hashes), not scalar by scalar, which was most of listing a thousand accounts.
    private static func writeString(_ text: String, to output: inout String, escapingSlashes: Bool) {
        output += "\""
        let utf8 = text.utf8
        var runStart = utf8.startIndex
        for index in utf8.indices {
            let byte = utf8[index]
            let escape: String
            switch byte {
            case UInt8(ascii: "\""): escape = "\\\""
            case UInt8(ascii: "\\"): escape = "\\\\"
            case UInt8(ascii: "/") where escapingSlashes: escape = "\\/"
            case UInt8(ascii: "\n"): escape = "\\n"
            case UInt8(ascii: "\r"): escape = "\\r"
            case UInt8(ascii: "\t"): escape = "\\t"
            case 0..<0x20:
                let hex = String(byte, radix: 16)
                escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: continue
            }
            // An escaped byte is ASCII, so the run before it ends on a scalar's boundary.
            output += String(decoding: utf8[runStart..<index], as: UTF8.self)
            output += escape
            runStart = utf8.index(after: index)
        }
        output += String(decoding: utf8[runStart...], as: UTF8.self)
        output += "\""
    }

    /// Decodes any JSON value into the free-form representation.
    private struct Parsed: Decodable {
        let value: Any

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                value = JSONNull()
            } else if let flag = try? container.decode(Bool.self) {
                value = flag
            } else if let number = try? container.decode(Int.self) {
                value = number
            } else if let number = try? container.decode(Double.self) {
                value = number
            } else if let text = try? container.decode(String.self) {
                value = text
            } else if let array = try? container.decode([Parsed].self) {
                value = array.map(\.value)
            } else {
                value = try container.decode([String: Parsed].self).mapValues(\.value)
            }
        }
    }
}
