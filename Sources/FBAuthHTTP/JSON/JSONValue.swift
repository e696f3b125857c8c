#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Any JSON value, for the parts of Firebase's answers that are free-form (a provider's raw
/// profile). Key order is the encoder's: use `.sortedKeys` for stable output.
package enum JSONValue: Sendable, Equatable, Codable {
    case null
    case bool(Bool)
    /// An integer, kept digit for digit (a Twitter id does not fit a Double).
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    package func encode(to encoder: Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .integer(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let value):
            var container = encoder.singleValueContainer()
            // Whole numbers print without a fraction (ids such as Twitter's are integers).
            if value.rounded() == value, abs(value) < 1e15 { try container.encode(Int64(value)) } else { try container.encode(value) }
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let values):
            var container = encoder.unkeyedContainer()
            for value in values { try container.encode(value) }
        case .object(let members):
            var container = encoder.container(keyedBy: AnyKey.self)
            for (key, value) in members { try container.encode(value, forKey: AnyKey(key)) }
        }
    }

    /// Parses JSON text; nil when it is not JSON.
    package static func parse(_ text: String) -> JSONValue? {
        parse(Data(text.utf8))
    }

    /// Parses JSON bytes; nil when they are not JSON.
    package static func parse(_ data: Data) -> JSONValue? {
        JSONParser.parse(data)
    }

    /// Compact JSON with sorted keys, for pages and logs that must not vary between runs.
    package func sortedData(escapingSlashes: Bool = true) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = escapingSlashes ? [.sortedKeys] : [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data("null".utf8)
    }

    package subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    package var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The value as compact JSON text (for messages).
    package var compactText: String {
        (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
    }

    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}

extension JSONValue: ExpressibleByBooleanLiteral, ExpressibleByStringLiteral {
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(stringLiteral value: String) { self = .string(value) }
}

package struct AnyKey: CodingKey {
    package let stringValue: String
    package var intValue: Int? { nil }
    package init(_ string: String) { stringValue = string }
    package init?(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }
}
