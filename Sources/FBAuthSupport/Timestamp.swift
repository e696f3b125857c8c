#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// RFC 3339 timestamps in UTC, second precision: `2026-11-22T03:04:05Z`, between 1970 and 2200
/// (what fbauth saves; a server's value outside that is refused before it is saved).
package enum Timestamp {
    package static let years = 1970...2200

    package static func string(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }

    /// Parses exactly the form `string` writes, without Foundation's calendar machinery (whose
    /// set-up costs more than the rest of `fbauth token`). Nil for anything else.
    package static func parse(_ text: String) -> Date? {
        secondsSince1970(text).map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    /// The same as whole seconds since 1970, read from the string's bytes in place.
    package static func secondsSince1970(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { secondsSince1970(UnsafeRawBufferPointer($0)) }
    }

    /// The same from the text's UTF-8 bytes.
    package static func secondsSince1970(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in UnsafeRawBufferPointer(rebasing: bytes[range]) {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            years.contains(year), (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }
        return daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
    }

    /// A timestamp read back from `sessions.json`: the form `string` writes, or — for a date of
    /// that form with a year outside 1970–2200, which an earlier fbauth saved from a server's
    /// odd answer (years -1142 and 506713 were seen) — 1970: a token that has expired, so it is
    /// refreshed on next use, rather than a file no command can read. Nil for anything else.
    package static func stored(_ text: String) -> Date? {
        if let seconds = secondsSince1970(text) { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
        return hasTimestampShape(text) ? Date(timeIntervalSince1970: 0) : nil
    }

    /// `[-]YYYY…-MM-DDTHH:MM:SS[.fff]Z` with a year of any length.
    package static func hasTimestampShape(_ text: String) -> Bool {
        var rest = Substring(text)
        if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
        let year = rest.prefix { $0.isASCII && $0.isNumber }
        guard year.count >= 4 else { return false }
        rest = rest.dropFirst(year.count)
        for expected in ["-", "d", "d", "-", "d", "d", "T", "d", "d", ":", "d", "d", ":", "d", "d"] as [Character] {
            guard let next = rest.first, expected == "d" ? (next.isASCII && next.isNumber) : next == expected else { return false }
            rest = rest.dropFirst()
        }
        if rest.first == "." {
            rest = rest.dropFirst()
            let fraction = rest.prefix { $0.isASCII && $0.isNumber }
            guard !fraction.isEmpty else { return false }
            rest = rest.dropFirst(fraction.count)
        }
        return rest == "Z"
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar, by arithmetic (libc's
    /// `timegm` reads the time zone files first). Counts from 1 March, so that the leap day ends
    /// the year: a 400-year era has 146 097 days, and the day of the year follows from the month
    /// by the formula (153 × month + 2) / 5.
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let marchYear = month > 2 ? year : year - 1
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
