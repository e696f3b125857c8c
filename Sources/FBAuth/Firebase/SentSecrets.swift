#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// The secrets one request carried — password, codes, tokens, the custom token, `oobCode`, the
/// API key — so that whatever a server answers to it can be shown without them. A server (or a
/// proxy in front of it) may quote the request in its error (`… you sent {"password":"hunter2"}`);
/// the structural `Redaction` cannot know where such an echo puts them, so every occurrence of
/// each value is removed, in the spellings an echo uses: as sent, JSON-escaped, percent-encoded.
internal struct SentSecrets: Sendable {
    /// Longest first, so that a secret containing another is removed whole.
    private let values: [String]

    /// A request that carried no secret.
    internal static let none = SentSecrets(values: [])

    private init(values: [String]) { self.values = values }

    internal init(_ request: HTTPClientRequest) {
        var found: [String] = []
        for item in request.url.query.map(FormEncoding.decode) ?? [] where Redaction.secretParameters.contains(item.name) {
            found.append(item.value)
        }
        if let body = request.body, !body.isEmpty {
            if let json = JSONValue.parse(body) {
                Self.collect(json, into: &found)
            } else {
                for item in FormEncoding.decode(String(decoding: body, as: UTF8.self)) where Redaction.secretParameters.contains(item.name) {
                    found.append(item.value)
                }
            }
        }
        values = Array(Set(found.filter { !$0.isEmpty })).sorted { $0.count > $1.count }
    }

    /// Every string under a secret key (`Redaction.isSecretKey`), and the secret parameters of
    /// a form-encoded `postBody`.
    private static func collect(_ value: JSONValue, into found: inout [String]) {
        switch value {
        case .object(let members):
            for (key, member) in members {
                if case .string(let text) = member {
                    if Redaction.isSecretKey(key) { found.append(text) }
                    if key == "postBody" {
                        for item in FormEncoding.decode(text) where Redaction.secretParameters.contains(item.name) { found.append(item.value) }
                    }
                } else {
                    collect(member, into: &found)
                }
            }
        case .array(let items):
            for item in items { collect(item, into: &found) }
        default:
            break
        }
    }

    /// `text` with every sent secret replaced by the marker. A secret shorter than eight
    /// characters is replaced where it stands as a word of its own, so that a short password
    /// such as `pw` does not eat the letters of every other word.
    internal func removed(from text: String) -> String {
        guard !values.isEmpty else { return text }
        var result = text
        for secret in values {
            for spelling in Self.spellings(of: secret) where result.contains(spelling) {
                result = spelling.count >= 8 ? result.replacing(spelling, with: Redaction.marker) : Self.replacingWords(spelling, in: result)
            }
        }
        return result
    }

    private static func spellings(of secret: String) -> [String] {
        var spellings = [secret]
        if let json = try? JSONEncoder().encode(secret) {
            spellings.append(String(decoding: json.dropFirst().dropLast(), as: UTF8.self))
        }
        spellings.append(FormEncoding.percentEncode(secret))
        return Array(Set(spellings))
    }

    /// Occurrences of `word` not inside a longer run of letters and digits.
    private static func replacingWords(_ word: String, in text: String) -> String {
        var result = ""
        var rest = text[...]
        while let range = rest.firstRange(of: word) {
            let before = range.lowerBound == rest.startIndex ? result.last : rest[rest.index(before: range.lowerBound)]
            let after = range.upperBound == rest.endIndex ? nil : rest[range.upperBound]
            let standsAlone = !(before?.isLetterOrDigit ?? false) && !(after?.isLetterOrDigit ?? false)
            result += rest[..<range.lowerBound]
            result += standsAlone ? Redaction.marker : String(rest[range])
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}

private extension Character {
    var isLetterOrDigit: Bool { isLetter || isNumber }
}
