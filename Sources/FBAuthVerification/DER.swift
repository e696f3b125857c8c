/// Just enough DER (ITU-T X.690) to read an X.509 certificate's RSA public key and a PKCS #8
/// private key: definite
/// lengths only, each element checked to fit inside its parent. Anything else is refused.
struct DERReader {
    private let bytes: [UInt8]
    private var offset: Int
    private let end: Int

    init(_ bytes: [UInt8]) {
        self.init(bytes, from: 0, to: bytes.count)
    }

    private init(_ bytes: [UInt8], from start: Int, to end: Int) {
        self.bytes = bytes
        offset = start
        self.end = end
    }

    var isAtEnd: Bool { offset == end }

    /// The next element's tag without taking it.
    var nextTag: UInt8? { offset < end ? bytes[offset] : nil }

    /// Takes the next element, which must have `tag`; its contents.
    mutating func read(_ tag: UInt8) throws(DERProblem) -> DERReader {
        let (start, length) = try header(expecting: tag)
        offset = start + length
        return DERReader(bytes, from: start, to: start + length)
    }

    /// The contents as bytes.
    var contents: [UInt8] { Array(bytes[offset..<end]) }

    /// Skips the next element, whatever it is.
    mutating func skip() throws(DERProblem) {
        guard let tag = nextTag else { throw .truncated }
        _ = try read(tag)
    }

    private mutating func header(expecting tag: UInt8) throws(DERProblem) -> (start: Int, length: Int) {
        guard offset + 2 <= end else { throw .truncated }
        guard bytes[offset] == tag else { throw .unexpected(tag: bytes[offset], wanted: tag) }
        var position = offset + 1
        let first = Int(bytes[position])
        position += 1
        var length = first
        if first & 0x80 != 0 {
            let count = first & 0x7F
            // Definite and minimal: 1 to 4 length bytes, no leading zero, long form only past 127.
            guard (1...4).contains(count), position + count <= end, bytes[position] != 0 else { throw .badLength }
            length = 0
            for _ in 0..<count {
                length = length << 8 | Int(bytes[position])
                position += 1
            }
            guard length > 127 else { throw .badLength }
        }
        guard length <= end - position else { throw .truncated }
        return (position, length)
    }

    /// An INTEGER's value as unsigned big-endian bytes; a negative one is refused.
    mutating func readUnsignedInteger() throws(DERProblem) -> [UInt8] {
        var value = try read(0x02).contents
        guard let first = value.first, first & 0x80 == 0 else { throw .negative }
        // DER drops redundant leading zeros; one stays only before a high bit, or alone for 0.
        if first == 0, value.count > 1 {
            guard value[1] & 0x80 != 0 else { throw .badLength }
            value.removeFirst()
        }
        return value
    }
}

enum DERProblem: Error, Equatable {
    case truncated
    case badLength
    case negative
    case unexpected(tag: UInt8, wanted: UInt8)
}
