/// Reads JSON (RFC 8259) into the stand-in's free-form values: `[String: Any]`, `[Any]`,
/// `String`, `Int` (a whole number that fits), `Double`, `Bool` and `JSONNull`. One pass over
/// the bytes, where JSONDecoder's generic containers had cost a 1,000-user import a third of its
/// time. Strict: no trailing commas (JSONDecoder took them; JSONSerialization, Node's
/// `JSON.parse` and Google's front end do not), comments, leading zeros, raw control characters
/// or lone surrogates; of a name given twice the last value counts, as in `JSON.parse` (Google's
/// emulator); nesting deeper than 512 is refused rather than recursed into.
struct JSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    static let deepest = 512

    private struct Malformed: Error {}

    /// The value `bytes` hold, or nil when they are not one whole JSON value.
    static func value(_ bytes: [UInt8]) -> Any? {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(bytes: buffer)
            // A byte-order mark before the value, as JSONDecoder takes it.
            if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { reader.index = 3 }
            guard let value = try? reader.readValue() else { return nil }
            reader.skipWhitespace()
            return reader.index == buffer.count ? value : nil
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func expect(_ word: StaticString) throws(Malformed) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw Malformed() }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { throw Malformed() }
        index += count
    }

    private mutating func readValue() throws(Malformed) -> Any {
        skipWhitespace()
        switch current {
        case UInt8(ascii: "{"): return try readObject()
        case UInt8(ascii: "["): return try readArray()
        case UInt8(ascii: "\""): return try readString()
        case UInt8(ascii: "t"): try expect("true"); return true
        case UInt8(ascii: "f"): try expect("false"); return false
        case UInt8(ascii: "n"): try expect("null"); return JSONNull()
        case .some: return try readNumber()
        case nil: throw Malformed()
        }
    }

    private mutating func enter() throws(Malformed) {
        depth += 1
        guard depth <= Self.deepest else { throw Malformed() }
        index += 1
    }

    private mutating func readObject() throws(Malformed) -> [String: Any] {
        try enter()
        defer { depth -= 1 }
        var object: [String: Any] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") { index += 1; return object }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw Malformed() }
            let key = try readString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw Malformed() }
            index += 1
            object[key] = try readValue()
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return object
            default: throw Malformed()
            }
        }
    }

    private mutating func readArray() throws(Malformed) -> [Any] {
        try enter()
        defer { depth -= 1 }
        var array: [Any] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { index += 1; return array }
        while true {
            array.append(try readValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return array
            default: throw Malformed()
            }
        }
    }

    private mutating func readString() throws(Malformed) -> String {
        index += 1  // the opening quote
        let start = index
        // The common case: no escape, so the bytes are the string (checked as UTF-8).
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { throw Malformed() }
            index += 1
        }
        guard let stop = current else { throw Malformed() }
        var text = try Self.decoded(bytes[start..<index])
        if stop == UInt8(ascii: "\"") {
            index += 1
            return text
        }
        while true {
            guard let byte = current else { throw Malformed() }
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return text
            case UInt8(ascii: "\\"):
                guard let escaped = current else { throw Malformed() }
                index += 1
                switch escaped {
                case UInt8(ascii: "\""): text.append("\"")
                case UInt8(ascii: "\\"): text.append("\\")
                case UInt8(ascii: "/"): text.append("/")
                case UInt8(ascii: "b"): text.append("\u{8}")
                case UInt8(ascii: "f"): text.append("\u{C}")
                case UInt8(ascii: "n"): text.append("\n")
                case UInt8(ascii: "r"): text.append("\r")
                case UInt8(ascii: "t"): text.append("\t")
                case UInt8(ascii: "u"): text.unicodeScalars.append(try readEscapedScalar())
                default: throw Malformed()
                }
            default:
                guard byte >= 0x20 else { throw Malformed() }
                let run = index - 1
                while let next = current, next != UInt8(ascii: "\""), next != UInt8(ascii: "\\"), next >= 0x20 { index += 1 }
                text += try Self.decoded(bytes[run..<index])
            }
        }
    }

    /// `\uXXXX`, or a surrogate pair of two.
    private mutating func readEscapedScalar() throws(Malformed) -> Unicode.Scalar {
        let first = try readHex4()
        if (0xD800...0xDBFF).contains(first) {
            try expect("\\u")
            let second = try readHex4()
            guard (0xDC00...0xDFFF).contains(second) else { throw Malformed() }
            let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            guard let scalar = Unicode.Scalar(value) else { throw Malformed() }
            return scalar
        }
        guard let scalar = Unicode.Scalar(first) else { throw Malformed() }  // a lone low surrogate
        return scalar
    }

    private mutating func readHex4() throws(Malformed) -> UInt32 {
        guard bytes.count - index >= 4 else { throw Malformed() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Malformed()
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private static func decoded(_ slice: Slice<UnsafeBufferPointer<UInt8>>) throws(Malformed) -> String {
        guard let text = String(validating: slice, as: UTF8.self) else { throw Malformed() }
        return text
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`: an Int when it is a whole number that
    /// fits (2e3 too, as JSONDecoder reads it), else a Double.
    private mutating func readNumber() throws(Malformed) -> Any {
        let start = index
        func digits() -> Int {
            let from = index
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
            return index - from
        }
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() > 0 else { throw Malformed() }
        }
        var whole = true
        if current == UInt8(ascii: ".") {
            index += 1
            whole = false
            guard digits() > 0 else { throw Malformed() }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            whole = false
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw Malformed() }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if whole, let number = Int(text) { return number }
        guard let number = Double(text), number.isFinite else { throw Malformed() }
        if number == number.rounded(), let exact = Int(exactly: number) { return exact }
        return number
    }
}
