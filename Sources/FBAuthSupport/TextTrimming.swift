// FoundationEssentials, which fbauth links instead of Foundation on Linux (see docs/architecture.md),
// has no `CharacterSet` and no `trimmingCharacters(in:)`.
package extension StringProtocol {
    /// The text without leading and trailing characters for which `drop` is true (by default,
    /// white space and line breaks).
    func trimmed(where drop: (Character) -> Bool = { $0.isWhitespace }) -> String {
        guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else { return "" }
        return String(self[first...last])
    }
}
