import FBAuthSupport
import Testing

/// `trimmed()`'s ASCII shortcut must give what trimming by Character gives.
@Suite struct TextTrimmingTests {
    @Test(arguments: ["abc", " abc ", "\tabc\n", "a b", "\u{2003}abc\u{2003}", "abc\u{85}", "\u{3000}", "", " ", "é", "a\u{301}",
                      "\r\nabc\r\n", "x\u{200B}", "~!", "\u{7F}abc"])
    func theShortcutAgreesWithCharacters(text: String) {
        #expect(text.trimmed() == text.trimmed(where: { $0.isWhitespace }))
        #expect(text[...].trimmed() == text.trimmed(where: { $0.isWhitespace }))
    }
}
