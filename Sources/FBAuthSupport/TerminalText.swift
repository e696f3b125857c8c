/// Text from elsewhere (a server's error message, content type or body, an email) made safe to
/// print on a terminal: control characters — escape sequences that clear the screen or set
/// the window title among them — are dropped, line breaks become spaces, so a message stays
/// the one line it claims to be, and bidirectional formatting characters are shown as
/// `<U+202E>`, so that nothing reorders what the user reads (`TextChecks.isBidiControl`).
package enum TerminalText {
    package static func safe(_ text: String) -> String { cleaned(text, keepingLines: false) }

    /// The same for text of several lines: line breaks are kept, carriage returns dropped.
    package static func safeLines(_ text: String) -> String { cleaned(text, keepingLines: true) }

    private static func cleaned(_ text: String, keepingLines: Bool) -> String {
        // Most text has nothing to clean.
        guard text.unicodeScalars.contains(where: { TextChecks.isControl($0) && !(keepingLines && $0 == "\n") || TextChecks.isBidiControl($0) }) else {
            return text
        }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A where keepingLines: result.append(scalar)
            case 0x0D where keepingLines: continue
            case 0x0A, 0x0D, 0x09: result.append(" ")
            case _ where TextChecks.isControl(scalar): continue
            case _ where TextChecks.isBidiControl(scalar):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result.append(contentsOf: "<U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex)>".unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }
}
