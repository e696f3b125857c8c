#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// RFC 7468 text encoding: `-----BEGIN LABEL-----`, base64, `-----END LABEL-----`.
enum PEM {
    /// The DER bytes of the one block with `label`; nil for anything else around or inside it.
    static func contents(of text: String, label: String) -> [UInt8]? {
        // Lines trimmed of the spaces (and the \r of CRLF) around them.
        let lines = text.split(whereSeparator: \.isNewline).map { line in
            String(line.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        }.filter { !$0.isEmpty }
        guard lines.count >= 3, lines.first == "-----BEGIN \(label)-----", lines.last == "-----END \(label)-----",
              let der = Data(base64Encoded: lines.dropFirst().dropLast().joined())
        else { return nil }
        return [UInt8](der)
    }
}
