/// JSON text (RFC 8259) to `JSONValue`, without Codable: on `fbauth token`'s path JSONDecoder's
/// first use of each generic type costs more than the rest of the command (metadata lookups
/// by mangled name), so the session file's fast read parses with this instead.
struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    /// Nil when the bytes are not exactly one JSON value (surrounding white space allowed).
    static func parse<Bytes: Collection>(_ input: Bytes) -> JSONValue? where Bytes.Element == UInt8 {
        var parser = JSONParser(bytes: Array(input))
        guard let value = parser.value() else { return nil }
        parser.skipSpace()
        return parser.index == parser.bytes.count ? value : nil
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func value() -> JSONValue? {
        skipSpace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number()
        }
    }

    private mutating func object() -> JSONValue? {
        guard enter() else { return nil }
        defer { depth -= 1 }
        index += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if consume(UInt8(ascii: "}")) { return .object(members) }
        repeat {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
            skipSpace()
            guard consume(UInt8(ascii: ":")), let member = value() else { return nil }
            members[key] = member
            skipSpace()
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "}")) ? .object(members) : nil
    }

    private mutating func array() -> JSONValue? {
        guard enter() else { return nil }
        defer { depth -= 1 }
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if consume(UInt8(ascii: "]")) { return .array(elements) }
        repeat {
            guard let element = value() else { return nil }
            elements.append(element)
            skipSpace()
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "]")) ? .array(elements) : nil
    }

    /// A bound on nesting, so hostile input cannot exhaust the stack.
    private mutating func enter() -> Bool {
        depth += 1
        return depth <= 256
    }

    private mutating func string() -> String? {
        index += 1  // the opening quote
        var result: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                let text = String(decoding: result, as: UTF8.self)
                return text.utf8.elementsEqual(result) ? text : nil  // invalid UTF-8 is refused
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): result.append(escape)
                case UInt8(ascii: "b"): result.append(0x08)
                case UInt8(ascii: "f"): result.append(0x0C)
                case UInt8(ascii: "n"): result.append(0x0A)
                case UInt8(ascii: "r"): result.append(0x0D)
                case UInt8(ascii: "t"): result.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return nil }
                    result.append(contentsOf: String(Character(scalar)).utf8)
                default: return nil
                }
            case 0..<0x20:
                return nil  // control characters must be escaped
            default:
                result.append(byte)
            }
        }
        return nil
    }

    /// `\uXXXX`, or a surrogate pair `\uD83D\uDE00` (the `\u` of the first already read).
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let high = hex4() else { return nil }
        if (0xD800..<0xDC00).contains(high) {
            guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")), let low = hex4(), (0xDC00..<0xE000).contains(low) else {
                return nil
            }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        }
        return Unicode.Scalar(high)
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
            value = value * 16 + UInt32(digit)
        }
        index += 4
        return value
    }

    private mutating func number() -> JSONValue? {
        let start = index
        _ = consume(UInt8(ascii: "-"))
        guard digits(allowLeadingZero: false) else { return nil }
        var integral = true
        if consume(UInt8(ascii: ".")) {
            integral = false
            guard digits(allowLeadingZero: true) else { return nil }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            integral = false
            index += 1
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard digits(allowLeadingZero: true) else { return nil }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if integral, let integer = Int64(text) { return .integer(integer) }
        return Double(text).map(JSONValue.number)
    }

    /// One or more digits; a leading zero only alone (`0`, not `01`) unless allowed.
    private mutating func digits(allowLeadingZero: Bool) -> Bool {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        guard index > start else { return false }
        return allowLeadingZero || bytes[start] != UInt8(ascii: "0") || index - start == 1
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
        let length = word.utf8CodeUnitCount
        guard index + length <= bytes.count,
            bytes[index..<index + length].elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: length))
        else { return nil }
        index += length
        return value
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }
}
