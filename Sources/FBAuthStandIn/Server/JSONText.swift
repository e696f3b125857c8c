#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// JSON null in the stand-in's free-form values (`[String: Any]`), which Foundation's
/// JSONSerialization would give as NSNull; FoundationEssentials has neither.
package struct JSONNull: Equatable, Sendable {
    package init() {}
}

/// JSON text to and from free-form values: objects `[String: Any]`, arrays `[Any]`, `String`,
/// `Bool`, `Int`, `Double` and `JSONNull`. The stand-in builds answers as dictionaries, as a
/// server does; fbauth's own decoding (Codable) stays independent of it.
enum JSONText {
    /// Parses JSON; nil when the bytes are not JSON.
    static func parse(_ data: Data) -> Any? { JSONReader.value(Array(data)) }
    static func parse(_ bytes: [UInt8]) -> Any? { JSONReader.value(bytes) }

    static func parse(_ text: String) -> Any? { JSONReader.value(Array(text.utf8)) }

    /// Compact JSON with keys sorted; `/` escaped as `\/` unless `escapingSlashes` is false.
    /// Written as bytes: a listing of a thousand accounts appended to a String was most of its
    /// time.
    static func data(_ value: Any, escapingSlashes: Bool = false) -> Data {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(value, to: &output, escapingSlashes: escapingSlashes)
        return Data(output)
    }

    private static func write(_ value: Any, to output: inout [UInt8], escapingSlashes: Bool) {
        switch value {
        case let text as String:
            writeString(text, to: &output, escapingSlashes: escapingSlashes)
        case let flag as Bool:
            output += (flag ? "true" : "false").utf8
        case let number as Int:
            output += String(number).utf8
        case let number as Int64:
            output += String(number).utf8
        case let number as Double:
            output += (number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)).utf8
        case let object as [String: Any]:
            output.append(UInt8(ascii: "{"))
            for (index, member) in object.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeString(member.key, to: &output, escapingSlashes: escapingSlashes)
                output.append(UInt8(ascii: ":"))
                write(member.value, to: &output, escapingSlashes: escapingSlashes)
            }
            output.append(UInt8(ascii: "}"))
        case let array as [Any]:
            output.append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(element, to: &output, escapingSlashes: escapingSlashes)
            }
            output.append(UInt8(ascii: "]"))
        default:
            output += "null".utf8
        }
    }

    /// The text as a JSON string: runs that need no escape copied whole (ids, addresses,
    /// base64 hashes), escapes written where they fall.
    private static func writeString(_ text: String, to output: inout [UInt8], escapingSlashes: Bool) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
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
                output += bytes[runStart..<index]
                output += escape.utf8
                runStart = index + 1
            }
            output += bytes[runStart...]
        }
        output.append(UInt8(ascii: "\""))
    }
}
