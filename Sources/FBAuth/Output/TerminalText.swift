/// Text from elsewhere (a server's error message, content type or body, an email) made safe to
/// print on a terminal: control characters — escape sequences that clear the screen or set
/// the window title among them — are dropped, and line breaks become spaces, so a message
/// stays the one line it claims to be.
package enum TerminalText {
    package static func safe(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A, 0x0D, 0x09: result.append(" ")
            case 0x00...0x1F, 0x7F...0x9F: continue
            default: result.append(scalar)
            }
        }
        return String(result)
    }
}
