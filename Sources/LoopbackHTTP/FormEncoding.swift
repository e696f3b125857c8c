/// `application/x-www-form-urlencoded`, as used by query strings and form bodies.
/// Pure functions: no Foundation, so the same code runs in the fuzzer.
package enum FormEncoding {
    /// Splits `a=1&b=x+y` into decoded pairs. A `%` not followed by two hex digits is kept as is,
    /// and invalid UTF-8 is replaced, so any input decodes.
    package static func decode(_ string: String) -> [(name: String, value: String)] {
        string.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            if let equals = pair.firstIndex(of: "=") {
                return (percentDecode(pair[..<equals]), percentDecode(pair[pair.index(after: equals)...]))
            }
            return (percentDecode(pair), "")
        }
    }

    /// Encodes pairs as `a=1&b=x%20y` (RFC 3986 unreserved characters are kept).
    package static func encode(_ items: [(name: String, value: String)]) -> String {
        items.map { percentEncode($0.name) + "=" + percentEncode($0.value) }.joined(separator: "&")
    }

    package static func percentEncode(_ string: String) -> String {
        var result = ""
        for byte in string.utf8 {
            if isUnreserved(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + hexDigit(byte >> 4) + hexDigit(byte & 0xF)
            }
        }
        return result
    }

    package static func percentDecode<S: StringProtocol>(_ string: S) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count)
        var iterator = Array(string.utf8)[...]
        while let byte = iterator.popFirst() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                if iterator.count >= 2, let high = hexValue(iterator[iterator.startIndex]),
                    let low = hexValue(iterator[iterator.startIndex + 1])
                {
                    bytes.append(high << 4 | low)
                    iterator = iterator.dropFirst(2)
                } else {
                    bytes.append(byte)
                }
            default:
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func hexDigit(_ value: UInt8) -> String {
        String(UnicodeScalar(value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10))
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
