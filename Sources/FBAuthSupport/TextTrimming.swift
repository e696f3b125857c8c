// FoundationEssentials, which fbauth links instead of Foundation on Linux (see docs/architecture.md),
// has no `CharacterSet` and no `trimmingCharacters(in:)`.
package extension StringProtocol {
    /// The text without leading and trailing characters for which `drop` is true (by default,
    /// white space and line breaks).
    func trimmed(where drop: (Character) -> Bool = { $0.isWhitespace }) -> String {
        guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else { return "" }
        return String(self[first...last])
    }

    /// The text without leading and trailing white space and line breaks. When both ends are
    /// printable ASCII (almost every option value), that is the text itself, known without
    /// Unicode's character tables, which a first use pages in (a tenth of a quick command).
    func trimmed() -> String {
        let text = String(self)
        if let first = text.utf8.first, let last = text.utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) { return text }
        return text.trimmed(where: { $0.isWhitespace })
    }
}
