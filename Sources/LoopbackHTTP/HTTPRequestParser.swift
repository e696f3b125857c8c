/// Size limits for one request. A loopback listener only ever expects a browser's GET with a
/// query string, so the defaults are small; the stand-in raises the body limit.
package struct HTTPLimits: Sendable {
    package var maxHeaderBytes: Int
    package var maxHeaderCount: Int
    package var maxBodyBytes: Int

    package init(maxHeaderBytes: Int = 8 * 1024, maxHeaderCount: Int = 64, maxBodyBytes: Int = 64 * 1024) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
    }
}

/// Why bytes are not an acceptable request, with the status to answer.
package enum HTTPParseFailure: Error, Sendable, Equatable {
    case malformedRequestLine
    case unsupportedVersion
    case malformedHeader
    case headersTooLarge
    case bodyTooLarge
    case invalidContentLength
    case unsupportedTransferEncoding

    package var status: Int {
        switch self {
        case .malformedRequestLine, .malformedHeader, .invalidContentLength: 400
        case .headersTooLarge: 431
        case .bodyTooLarge: 413
        case .unsupportedVersion: 505
        case .unsupportedTransferEncoding: 501
        }
    }
}

package enum HTTPParseOutcome: Sendable, Equatable {
    /// The bytes so far are a valid prefix of a request.
    case needMoreData
    /// A whole request; `consumed` bytes of the input belong to it.
    case complete(HTTPRequest, consumed: Int)
    case failed(HTTPParseFailure)
}

/// Parses an HTTP/1.x request from raw bytes (RFC 9112). A pure function over the bytes
/// received so far, so a slow client that sends one byte at a time is simply parsed again,
/// and the parser can be tested and fuzzed apart from sockets.
package enum HTTPRequestParser {
    package static func parse(_ bytes: [UInt8], limits: HTTPLimits = HTTPLimits()) -> HTTPParseOutcome {
        guard let headerEnd = endOfHeaders(in: bytes, searchLimit: limits.maxHeaderBytes) else {
            if bytes.count > limits.maxHeaderBytes { return .failed(.headersTooLarge) }
            // Reject a bad request line early rather than waiting for the rest of it.
            if let lineEnd = firstCRLF(in: bytes), parseRequestLine(bytes[..<lineEnd]) == nil {
                return .failed(.malformedRequestLine)
            }
            return .needMoreData
        }
        var lines = splitLines(bytes[..<headerEnd])
        guard let requestLine = lines.first, let (method, target, version) = parseRequestLine(requestLine) else {
            return .failed(.malformedRequestLine)
        }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else { return .failed(.unsupportedVersion) }
        lines.removeFirst()
        guard lines.count <= limits.maxHeaderCount else { return .failed(.headersTooLarge) }

        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let header = parseHeader(line) else { return .failed(.malformedHeader) }
            headers.append(header)
        }
        if headers.contains(where: { $0.name.caseInsensitiveEquals("Transfer-Encoding") }) {
            return .failed(.unsupportedTransferEncoding)
        }
        let lengths = headers.filter { $0.name.caseInsensitiveEquals("Content-Length") }.map(\.value)
        var bodyLength = 0
        if let first = lengths.first {
            guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.utf8.count <= 12,
                first.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let length = Int(first)
            else { return .failed(.invalidContentLength) }
            bodyLength = length
        }
        guard bodyLength <= limits.maxBodyBytes else { return .failed(.bodyTooLarge) }
        let bodyStart = headerEnd + 4
        guard bytes.count >= bodyStart + bodyLength else { return .needMoreData }
        let request = HTTPRequest(
            method: method, target: target, headers: headers,
            body: Array(bytes[bodyStart..<(bodyStart + bodyLength)]))
        return .complete(request, consumed: bodyStart + bodyLength)
    }

    // MARK: - Pieces

    /// Index of the blank line's first CR in `\r\n\r\n`.
    private static func endOfHeaders(in bytes: [UInt8], searchLimit: Int) -> Int? {
        let end = min(bytes.count, searchLimit + 4)
        guard end >= 4 else { return nil }
        var index = 0
        while index + 3 < end {
            if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 {
                return index
            }
            index += 1
        }
        return nil
    }

    private static func firstCRLF(in bytes: [UInt8]) -> Int? {
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == 13, bytes[index + 1] == 10 { return index }
            index += 1
        }
        return nil
    }

    private static func splitLines(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == 13, index + 1 < bytes.endIndex, bytes[index + 1] == 10 {
                lines.append(bytes[start..<index])
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        lines.append(bytes[start..<bytes.endIndex])
        return lines
    }

    /// `METHOD SP request-target SP HTTP-version`, each part free of controls and spaces.
    private static func parseRequestLine(_ line: ArraySlice<UInt8>) -> (String, String, String)? {
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        guard parts[0].allSatisfy(isTokenCharacter) else { return nil }
        guard parts[1].allSatisfy({ $0 > 32 && $0 < 127 }) else { return nil }
        guard parts[2].allSatisfy({ $0 > 32 && $0 < 127 }) else { return nil }
        let target = String(decoding: parts[1], as: UTF8.self)
        guard target.hasPrefix("/") || target.hasPrefix("http://") || target.hasPrefix("https://") else { return nil }
        return (String(decoding: parts[0], as: UTF8.self), target, String(decoding: parts[2], as: UTF8.self))
    }

    /// `name: value`; no space before the colon, no obsolete line folding, no control bytes.
    private static func parseHeader(_ line: ArraySlice<UInt8>) -> (name: String, value: String)? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else { return nil }
        let name = line[..<colon]
        guard name.allSatisfy(isTokenCharacter) else { return nil }
        let rawValue = line[(colon + 1)...]
        guard rawValue.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else { return nil }
        let value = rawValue.drop(while: isWhitespace).reversed().drop(while: isWhitespace).reversed()
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 }

    /// RFC 9110 `tchar`.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
