/// A position in JSON text (RFC 8259) and the steps that read it: one string, number or
/// literal, or a whole value skipped, or an object's members and an array's elements walked in
/// order. `JSONParser` builds `JSONValue`s with it; the session store's token reader walks the
/// file with it and builds nothing, which keeps Dictionary (and the Swift runtime's one-time
/// work for it) off `fbauth token`'s path. It reads the bytes in place and makes no Array
/// unless a string has escapes: a Swift program's first Array costs the runtime about 0.15 ms of
/// one-time set-up, as much as the rest of that command.
///
/// Valid only inside the `withUnsafeBytes` (or similar) call that lends it `bytes`.
struct JSONCursor {
    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    private var depth = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// The first byte of the next value (white space skipped), nil at the end.
    mutating func next() -> UInt8? {
        skipSpace()
        return index < bytes.count ? bytes[index] : nil
    }

    /// Whether only white space is left.
    mutating func atEnd() -> Bool { next() == nil }

    /// A string value; nil for anything else, including invalid UTF-8 and bad escapes.
    mutating func string() -> String? {
        guard next() == UInt8(ascii: "\"") else { return nil }
        index += 1
        let start = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                let text = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return decodedUTF8(text)
            case UInt8(ascii: "\\"):
                index = start
                return escapedString()
            case 0..<0x20:
                return nil  // control characters must be escaped
            default:
                index += 1
            }
        }
        return nil
    }

    /// The rest of a string that has escapes, decoded into a buffer.
    private mutating func escapedString() -> String? {
        var result: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return result.withUnsafeBytes(decodedUTF8)
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

    /// A number's text and whether it is a whole number (no fraction, no exponent).
    mutating func number() -> (text: String, isWhole: Bool)? {
        _ = next()
        let start = index
        _ = consume(UInt8(ascii: "-"))
        guard digits(allowLeadingZero: false) else { return nil }
        var isWhole = true
        if consume(UInt8(ascii: ".")) {
            isWhole = false
            guard digits(allowLeadingZero: true) else { return nil }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isWhole = false
            index += 1
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard digits(allowLeadingZero: true) else { return nil }
        }
        return (String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self), isWhole)
    }

    /// A whole number that fits in 64 bits; nil for anything else.
    mutating func integer() -> Int64? {
        guard let number = number(), number.isWhole else { return nil }
        return Int64(number.text)
    }

    /// Consumes `true`, `false` or `null` when it is next.
    mutating func literal(_ word: StaticString) -> Bool {
        _ = next()
        let length = word.utf8CodeUnitCount
        guard index + length <= bytes.count,
            UnsafeRawBufferPointer(rebasing: bytes[index..<index + length]).elementsEqual(UnsafeRawBufferPointer(start: word.utf8Start, count: length))
        else { return false }
        index += length
        return true
    }

    /// Walks an object, calling `member` with each key; `member` must read or skip the value
    /// (false stops the walk). False for anything but a well-formed object, or when stopped.
    mutating func members(_ member: (String, inout JSONCursor) -> Bool) -> Bool {
        guard next() == UInt8(ascii: "{"), enter() else { return false }
        defer { depth -= 1 }
        index += 1
        if next() == UInt8(ascii: "}") {
            index += 1
            return true
        }
        repeat {
            guard let key = string(), next() == UInt8(ascii: ":") else { return false }
            index += 1
            guard member(key, &self) else { return false }
        } while nextIs(UInt8(ascii: ","))
        return nextIs(UInt8(ascii: "}"))
    }

    /// Walks an array, calling `element` for each element, which it must read or skip.
    mutating func elements(_ element: (inout JSONCursor) -> Bool) -> Bool {
        guard next() == UInt8(ascii: "["), enter() else { return false }
        defer { depth -= 1 }
        index += 1
        if next() == UInt8(ascii: "]") {
            index += 1
            return true
        }
        repeat {
            guard element(&self) else { return false }
        } while nextIs(UInt8(ascii: ","))
        return nextIs(UInt8(ascii: "]"))
    }

    /// Steps over one well-formed value of any kind.
    mutating func skipValue() -> Bool {
        switch next() {
        case UInt8(ascii: "{"): members { _, cursor in cursor.skipValue() }
        case UInt8(ascii: "["): elements { $0.skipValue() }
        case UInt8(ascii: "\""): string() != nil
        case UInt8(ascii: "t"): literal("true")
        case UInt8(ascii: "f"): literal("false")
        case UInt8(ascii: "n"): literal("null")
        case nil: false
        default: number() != nil
        }
    }

    /// Nil for invalid UTF-8, which `String(decoding:)` would silently repair.
    private func decodedUTF8(_ bytes: UnsafeRawBufferPointer) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    /// A bound on nesting, so hostile input cannot exhaust the stack.
    private mutating func enter() -> Bool {
        depth += 1
        return depth <= 256
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
        for byte in UnsafeRawBufferPointer(rebasing: bytes[index..<index + 4]) {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
            value = value * 16 + UInt32(digit)
        }
        index += 4
        return value
    }

    /// One or more digits; a leading zero only alone (`0`, not `01`) unless allowed.
    private mutating func digits(allowLeadingZero: Bool) -> Bool {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        guard index > start else { return false }
        return allowLeadingZero || bytes[start] != UInt8(ascii: "0") || index - start == 1
    }

    /// Consumes `byte` when it is next, white space first skipped.
    private mutating func nextIs(_ byte: UInt8) -> Bool {
        guard next() == byte else { return false }
        index += 1
        return true
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }
}
