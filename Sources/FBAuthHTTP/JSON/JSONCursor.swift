import FBAuthSupport

/// A position in JSON text (RFC 8259) and the steps that read it: one string, number or
/// literal, or a whole value skipped, or an object's members and an array's elements walked in
/// order. `JSONParser` builds `JSONValue`s with it; the session store's token reader walks the
/// file with it, keeping keys and values as the file's own bytes. Nothing here makes an Array
/// or a String unless a string has escapes (or a caller asks for one): on `fbauth token`'s
/// path, the first Array and the first long String freed each cost the Swift runtime more
/// one-time set-up than the rest of the command (docs/speed.md).
///
/// Valid only inside the `withUnsafeBytes` (or similar) call that lends it `bytes`.
package struct JSONCursor {
    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    private var depth = 0

    package init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// The first byte of the next value (white space skipped), nil at the end.
    package mutating func next() -> UInt8? {
        skipSpace()
        return index < bytes.count ? bytes[index] : nil
    }

    /// Whether only white space is left.
    package mutating func atEnd() -> Bool { next() == nil }

    /// A string value; nil for anything else, including invalid UTF-8 and bad escapes.
    package mutating func string() -> String? {
        switch scanString() {
        case .plain(let text): String(decoding: text, as: UTF8.self)
        case .escaped: escapedString()
        case .invalid: nil
        }
    }

    /// A string value without escapes, as its bytes between the quotes (checked as `string()`
    /// checks them); nil for anything else, a string with escapes included.
    package mutating func unescapedString() -> UnsafeRawBufferPointer? {
        guard case .plain(let text) = scanString() else { return nil }
        return text
    }

    /// Steps over a string value, checked as `string()` checks it, without making a String
    /// unless it has escapes: the values a reader skips are most of a file.
    package mutating func skipString() -> Bool {
        switch scanString() {
        case .plain: true
        case .escaped: escapedString() != nil
        case .invalid: false
        }
    }

    /// A member's key, read as `string()` reads a value.
    private mutating func key() -> JSONKey? {
        switch scanString() {
        case .plain(let text): .plain(text)
        case .escaped: escapedString().map(JSONKey.decoded)
        case .invalid: nil
        }
    }

    /// What a string value holds, found in one pass over its bytes.
    private enum ScannedString {
        /// No escapes, valid UTF-8: the bytes between the quotes (consumed).
        case plain(UnsafeRawBufferPointer)
        /// Escapes: the cursor is left just after the opening quote for `escapedString`.
        case escaped
        case invalid
    }

    private mutating func scanString() -> ScannedString {
        guard next() == UInt8(ascii: "\"") else { return .invalid }
        index += 1
        let start = index
        var highBits: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let text = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                index += 1
                // ASCII is valid UTF-8: only other text needs the check.
                return highBits < 0x80 || UTF8Check.isWellFormed(text) ? .plain(text) : .invalid
            case UInt8(ascii: "\\"):
                index = start
                return .escaped
            case 0..<0x20:
                return .invalid  // control characters must be escaped
            default:
                highBits |= byte
                index += 1
            }
        }
        return .invalid
    }

    /// The rest of a string that has escapes, decoded into a buffer.
    private mutating func escapedString() -> String? {
        var result: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return result.withUnsafeBytes { UTF8Check.isWellFormed($0) ? String(decoding: $0, as: UTF8.self) : nil }
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
    package mutating func number() -> (text: String, isWhole: Bool)? {
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

    /// A whole number that fits in 64 bits (no fraction, no exponent); nil for anything else.
    /// Read from the bytes: the standard library's parser from text is a String away.
    package mutating func integer() -> Int64? {
        _ = next()
        let start = index
        let negative = consume(UInt8(ascii: "-"))
        guard digits(allowLeadingZero: false) else { return nil }
        let end = index
        guard index == bytes.count || !(bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e")) else { return nil }
        var value: Int64 = 0
        for byte in UnsafeRawBufferPointer(rebasing: bytes[(negative ? start + 1 : start)..<end]) {
            let digit = Int64(byte - UInt8(ascii: "0"))
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowedAgain) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflowed, !overflowedAgain else { return nil }
            value = sum
        }
        return value
    }

    /// Consumes `true`, `false` or `null` when it is next.
    package mutating func literal(_ word: StaticString) -> Bool {
        _ = next()
        let length = word.utf8CodeUnitCount
        guard index + length <= bytes.count, UnsafeRawBufferPointer(rebasing: bytes[index..<index + length]).elementsEqual(word.bytes)
        else { return false }
        index += length
        return true
    }

    /// Walks an object, calling `member` with each key; `member` must read or skip the value
    /// (false stops the walk). False for anything but a well-formed object, or when stopped.
    package mutating func members(_ member: (JSONKey, inout JSONCursor) -> Bool) -> Bool {
        guard next() == UInt8(ascii: "{"), enter() else { return false }
        defer { depth -= 1 }
        index += 1
        if next() == UInt8(ascii: "}") {
            index += 1
            return true
        }
        repeat {
            guard let key = key(), next() == UInt8(ascii: ":") else { return false }
            index += 1
            guard member(key, &self) else { return false }
        } while nextIs(UInt8(ascii: ","))
        return nextIs(UInt8(ascii: "}"))
    }

    /// Walks an array, calling `element` for each element, which it must read or skip.
    package mutating func elements(_ element: (inout JSONCursor) -> Bool) -> Bool {
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
    package mutating func skipValue() -> Bool {
        switch next() {
        case UInt8(ascii: "{"): members { _, cursor in cursor.skipValue() }
        case UInt8(ascii: "["): elements { $0.skipValue() }
        case UInt8(ascii: "\""): skipString()
        case UInt8(ascii: "t"): literal("true")
        case UInt8(ascii: "f"): literal("false")
        case UInt8(ascii: "n"): literal("null")
        case nil: false
        default: number() != nil
        }
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

/// An object member's key.
package enum JSONKey {
    /// Without escapes: the bytes between the quotes.
    case plain(UnsafeRawBufferPointer)
    /// With escapes, decoded.
    case decoded(String)

    package var string: String {
        switch self {
        case .plain(let bytes): String(decoding: bytes, as: UTF8.self)
        case .decoded(let text): text
        }
    }

    /// Whether the key is `name` however it is spelled (`"\u0069d"` is `id`), for `switch`.
    package static func ~= (name: StaticString, key: JSONKey) -> Bool {
        switch key {
        case .plain(let bytes): return bytes.elementsEqual(name.bytes)
        case .decoded(let text): return text.utf8.elementsEqual(name.bytes)
        }
    }
}

/// Well-formed UTF-8 by the Unicode Standard's table 3-7: no overlong forms, no surrogates,
/// nothing past U+10FFFF. Checked in place rather than by decoding into a String and comparing.
package enum UTF8Check {
    package static func isWellFormed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            // The sequence's length, and the range its second byte must be in.
            let length: Int, second: ClosedRange<UInt8>
            switch lead {
            case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
            case 0xE0: (length, second) = (3, 0xA0...0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
            case 0xED: (length, second) = (3, 0x80...0x9F)
            case 0xF0: (length, second) = (4, 0x90...0xBF)
            case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
            case 0xF4: (length, second) = (4, 0x80...0x8F)
            default: return false
            }
            guard index + length <= bytes.count, second.contains(bytes[index + 1]) else { return false }
            for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) { return false }
            index += length
        }
        return true
    }
}
