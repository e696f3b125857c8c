/// JSON text (RFC 8259) to `JSONValue`, without Codable, for bodies and fields whose shape is not
/// fixed (error details, the hosted page's posts, redaction of logged bodies).
package enum JSONParser {
    /// Nil when the bytes are not exactly one JSON value (surrounding white space allowed).
    package static func parse<Bytes: Collection>(_ input: Bytes) -> JSONValue? where Bytes.Element == UInt8 {
        Array(input).withUnsafeBytes { bytes in
            var cursor = JSONCursor(bytes)
            guard let value = value(&cursor), cursor.atEnd() else { return nil }
            return value
        }
    }

    private static func value(_ cursor: inout JSONCursor) -> JSONValue? {
        switch cursor.next() {
        case UInt8(ascii: "{"):
            // Room for a token's claims at once: growing 1, 2, 4, 8 rehashed every key each time.
            var members = [String: JSONValue](minimumCapacity: 12)
            let complete = cursor.members { key, cursor in
                guard let member = value(&cursor) else { return false }
                members[key.string] = member
                return true
            }
            return complete ? .object(members) : nil
        case UInt8(ascii: "["):
            var elements: [JSONValue] = []
            let complete = cursor.elements { cursor in
                guard let element = value(&cursor) else { return false }
                elements.append(element)
                return true
            }
            return complete ? .array(elements) : nil
        case UInt8(ascii: "\""): return cursor.string().map(JSONValue.string)
        case UInt8(ascii: "t"): return cursor.literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return cursor.literal("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return cursor.literal("null") ? .null : nil
        case nil: return nil
        default:
            guard let number = cursor.number() else { return nil }
            if number.isWhole, let integer = Int64(number.text) { return .integer(integer) }
            return Double(number.text).map(JSONValue.number)
        }
    }
}
