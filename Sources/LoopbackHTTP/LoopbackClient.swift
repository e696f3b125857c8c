/// A plain TCP connection to a loopback port, written and read byte by byte as the caller
/// chooses. Used by the stand-in's headless browser and by tests that play hostile clients
/// (idle connections, one byte at a time, garbage).
package final class LoopbackConnection {
    private var fd: Int32

    package init(address: LoopbackAddress = .ipv4, port: UInt16, timeoutSeconds: Int = 10) throws(SocketError) {
        fd = try Socket.connect(to: address, port: port, timeoutSeconds: timeoutSeconds)
    }

    deinit { close() }

    /// Sends bytes; false when the peer has gone.
    @discardableResult
    package func send(_ bytes: [UInt8]) -> Bool {
        fd >= 0 && Socket.writeAll(fd, bytes)
    }

    @discardableResult
    package func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads until the peer closes or the receive timeout passes.
    package func readToEnd() -> [UInt8] {
        fd >= 0 ? Socket.readToEnd(fd) : []
    }

    package func close() {
        guard fd >= 0 else { return }
        Socket.close(fd)
        fd = -1
    }
}

/// A response as a client sees it.
package struct ReceivedResponse: Sendable {
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]

    package var bodyText: String { String(decoding: body, as: UTF8.self) }

    package func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// Parses a whole `Connection: close` response; nil when it is not HTTP.
    package init?(parsing bytes: [UInt8]) {
        guard let end = bytes.indices.first(where: { index in
            index + 3 < bytes.count && bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10
        }) else { return nil }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else { return nil }
        self.status = status
        self.headers = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), String(line[line.index(after: colon)...].drop(while: { $0 == " " })))
        }
        var body = Array(bytes[(end + 4)...])
        if let lengthText = headers.first(where: { $0.name.caseInsensitiveEquals("Content-Length") })?.value,
            let length = Int(lengthText), length < body.count
        {
            body = Array(body[..<length])
        }
        self.body = body
    }
}

extension String {
    /// Splits on a separator string (no Foundation in this module).
    func components(separatedBy separator: String) -> [String] {
        var parts: [String] = []
        var rest = Substring(self)
        while let range = rest.firstRange(of: separator) {
            parts.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        parts.append(String(rest))
        return parts
    }
}
