#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthSupport

/// Numbers from options and environment variables, checked against the range they may take
/// (a number such as 1e308 would otherwise trap when turned into a whole number of
/// milliseconds).
enum NumberSetting {
    static func seconds(_ text: String, in range: ClosedRange<Double>) -> Double? {
        guard let seconds = Double(text), seconds.isFinite, range.contains(seconds) else { return nil }
        return seconds
    }

    /// `0.001`, `30`, `604800`: without a needless fraction.
    static func text(_ value: Double) -> String {
        value.rounded() == value ? String(Int64(value)) : String(value)
    }
}

/// Typed, validated option values. Each failure is a usage error that says which value is
/// wrong and why.
extension ParsedArguments {
    func nonEmpty(_ name: String) throws(FBAuthError) -> String? {
        guard let value = value(name) else { return nil }
        guard !value.trimmed().isEmpty else { throw .usage("--\(name) must not be empty") }
        return value
    }

    func required(_ name: String, hint: String) throws(FBAuthError) -> String {
        guard let value = try nonEmpty(name) else { throw .usage("missing --\(name) \(hint)") }
        return value
    }

    func port(_ name: String) throws(FBAuthError) -> UInt16? {
        guard let text = value(name) else { return nil }
        guard let port = Int(text), (0...65535).contains(port) else {
            throw .usage("--\(name) '\(text)' is not a port number (0-65535; 0 picks a free port)")
        }
        return UInt16(port)
    }

    /// A number of seconds within `range` (fractions allowed); the error names the range.
    func seconds(_ name: String, in range: ClosedRange<Double> = 0.001...604_800) throws(FBAuthError) -> Duration? {
        guard let text = value(name) else { return nil }
        guard let seconds = NumberSetting.seconds(text, in: range) else {
            throw .usage("--\(name) '\(text)' is not a number of seconds from \(NumberSetting.text(range.lowerBound)) to \(NumberSetting.text(range.upperBound))")
        }
        return .milliseconds(Int64(seconds * 1000))
    }

    /// A whole number of seconds within `range`; the error names the range.
    func wholeSeconds(_ name: String, in range: ClosedRange<Int>) throws(FBAuthError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let seconds = Int(text), range.contains(seconds) else {
            throw .usage("--\(name) '\(text)' is not a whole number of seconds from \(range.lowerBound) to \(range.upperBound)")
        }
        return seconds
    }

    /// A value that becomes an HTTP header line (`--referer`, `--ios-bundle-id`, …): printable
    /// ASCII only, so that nothing in it starts a header of its own.
    func headerValue(_ name: String) throws(FBAuthError) -> String? {
        guard let value = try nonEmpty(name) else { return nil }
        guard HeaderValue.isSafe(value) else {
            throw .usage("--\(name) holds a line break, control or non-ASCII character; it is sent as an HTTP header, which must not carry one")
        }
        return value
    }

    /// Repeated `KEY=VALUE` values.
    func keyValues(_ name: String) throws(FBAuthError) -> [OptionKeyValue] {
        try all(name).map { (text: String) throws(FBAuthError) -> OptionKeyValue in
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw .usage("--\(name) '\(text)' is not KEY=VALUE")
            }
            let key = String(text[..<equals])
            guard key.allSatisfy({ $0.isLetter || $0.isNumber || "_-.".contains($0) }) else {
                throw .usage("--\(name) key '\(key)' may contain only letters, digits, '_', '-' and '.'")
            }
            return OptionKeyValue(key: key, value: String(text[text.index(after: equals)...]))
        }
    }

    func choice<T: RawRepresentable & CaseIterable>(_ name: String, as type: T.Type) throws(FBAuthError) -> T? where T.RawValue == String {
        guard let text = value(name) else { return nil }
        guard let value = T(rawValue: text) else {
            let choices = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw .usage("--\(name) '\(text)' is not one of: \(choices)")
        }
        return value
    }
}
