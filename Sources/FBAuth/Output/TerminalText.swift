/// Text from elsewhere (a server's error message, content type or body, an email) made safe to
/// print on a terminal: control characters — escape sequences that clear the screen or set
/// the window title among them — are dropped, and line breaks become spaces, so a message
/// stays the one line it claims to be.
package enum TerminalText {
    package static func safe(_ text: String) -> String { cleaned(text, keepingLines: false) }

    /// The same for text of several lines: line breaks are kept, carriage returns dropped.
    package static func safeLines(_ text: String) -> String { cleaned(text, keepingLines: true) }

    private static func cleaned(_ text: String, keepingLines: Bool) -> String {
        // Most text has nothing to clean.
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 && !(keepingLines && $0 == "\n") || (0x7F...0x9F).contains($0.value) }) else {
            return text
        }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A where keepingLines: result.append(scalar)
            case 0x0D where keepingLines: continue
            case 0x0A, 0x0D, 0x09: result.append(" ")
            case 0x00...0x1F, 0x7F...0x9F: continue
            default: result.append(scalar)
            }
        }
        return String(result)
    }
}
