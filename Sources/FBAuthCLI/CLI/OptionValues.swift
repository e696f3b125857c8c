#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import LoopbackHTTP

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

    /// A positive number of seconds (fractions allowed).
    func seconds(_ name: String) throws(FBAuthError) -> Duration? {
        guard let text = value(name) else { return nil }
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 86_400 * 7 else {
            throw .usage("--\(name) '\(text)' is not a positive number of seconds")
        }
        return .milliseconds(Int64(seconds * 1000))
    }

    /// A non-negative whole number of seconds.
    func wholeSeconds(_ name: String) throws(FBAuthError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let seconds = Int(text), seconds >= 0 else {
            throw .usage("--\(name) '\(text)' is not a whole number of seconds (0 or more)")
        }
        return seconds
    }

    /// Repeated `KEY=VALUE` values.
    func keyValues(_ name: String) throws(FBAuthError) -> [KeyValue] {
        try all(name).map { (text: String) throws(FBAuthError) -> KeyValue in
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw .usage("--\(name) '\(text)' is not KEY=VALUE")
            }
            let key = String(text[..<equals])
            guard key.allSatisfy({ $0.isLetter || $0.isNumber || "_-.".contains($0) }) else {
                throw .usage("--\(name) key '\(key)' may contain only letters, digits, '_', '-' and '.'")
            }
            return KeyValue(key: key, value: String(text[text.index(after: equals)...]))
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
