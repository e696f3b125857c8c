/// Which characters of text from elsewhere (a server, a file, an option) fbauth refuses to
/// keep or show as they are.
package enum TextChecks {
    /// Visible ASCII without spaces, 1 to 16384 bytes: a code or token pasted from elsewhere.
    package static func isVisibleASCII(_ text: String) -> Bool {
        (1...16384).contains(text.utf8.count) && text.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// C0 controls, DEL and C1 controls: escape sequences and line breaks among them.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Unicode's bidirectional formatting characters (Unicode Standard Annex #9, §2): LRE, RLE,
    /// PDF, LRO, RLO (U+202A–202E), the isolates LRI, RLI, FSI, PDI (U+2066–2069), the marks
    /// LRM, RLM (U+200E, U+200F) and ALM (U+061C). On a terminal they reorder what follows, so
    /// `ada@example.com` can be made to read as someone else's address (CVE-2021-42574,
    /// "Trojan Source").
    package static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }

    /// A Google Cloud project id: lower-case letters, digits and hyphens (6 to 30 of them;
    /// older projects may also hold `.` and `:`, as `example.com:project`). Anything else in an
    /// `aud` claim or an app config is not saved or shown.
    package static func isProjectID(_ text: String) -> Bool {
        (1...100).contains(text.utf8.count) && text.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
        }
    }
}
