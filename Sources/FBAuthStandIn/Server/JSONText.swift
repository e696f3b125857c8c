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

    private static func writeString(_ text: String, to output: inout String, escapingSlashes: Bool) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "/" where escapingSlashes: output += "\\/"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
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
