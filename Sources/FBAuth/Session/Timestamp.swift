#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// RFC 3339 timestamps in UTC, second precision: `2026-11-22T03:04:05Z`.
package enum Timestamp {
    package static func string(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }

    /// Parses exactly the form `string` writes, without Foundation's calendar machinery (whose
    /// set-up costs more than the rest of `fbauth token`). Nil for anything else.
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        let seconds = Platform.secondsSince1970(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
