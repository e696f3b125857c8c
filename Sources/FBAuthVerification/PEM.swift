#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// RFC 7468 text encoding: `-----BEGIN LABEL-----`, base64, `-----END LABEL-----`.
enum PEM {
    /// The DER bytes of the one block with `label`; nil for anything else around or inside it.
    /// Read on the text's bytes (lines trimmed of the spaces and the \r of CRLF around them):
    /// Character-level splitting and trimming were most of `verify-token`'s start.
    static func contents(of text: String, label: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        var lines: [ArraySlice<UInt8>] = []
        for raw in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            var line = raw
            while let first = line.first, isSpace(first) { line = line.dropFirst() }
            while let last = line.last, isSpace(last) { line = line.dropLast() }
            if !line.isEmpty { lines.append(line) }
        }
        guard lines.count >= 3, lines.first!.elementsEqual("-----BEGIN \(label)-----".utf8),
              lines.last!.elementsEqual("-----END \(label)-----".utf8)
        else { return nil }
        var encoded = [UInt8]()
        encoded.reserveCapacity(bytes.count)
        for line in lines.dropFirst().dropLast() { encoded.append(contentsOf: line) }
        return Data(base64Encoded: Data(encoded)).map { [UInt8]($0) }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == 0x0B || byte == 0x0C
    }
}
