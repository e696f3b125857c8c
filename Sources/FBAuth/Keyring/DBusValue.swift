/// The D-Bus values the Secret Service API needs, in the D-Bus wire format (the D-Bus
/// specification, "Type System" and "Marshaling"): little-endian, each value aligned to its
/// size, strings NUL-terminated after a 32-bit length, arrays after their 32-bit byte length.
indirect enum DBusValue: Equatable, Sendable {
    case byte(UInt8)
    case boolean(Bool)
    case uint32(UInt32)
    /// `t`: the Secret Service's times (seconds since 1970).
    case uint64(UInt64)
    case string(String)
    case objectPath(String)
    case signature(String)
    case variant(DBusValue)
    /// `elementSignature` gives the type of an empty array.
    case array(elementSignature: String, [DBusValue])
    case dictEntry(DBusValue, DBusValue)
    case structure([DBusValue])

    var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .uint32: "u"
        case .uint64: "t"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .variant: "v"
        case .array(let element, _): "a" + element
        case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        }
    }

    /// `a{ss}`: string attributes, sorted by name (what the Secret Service searches by).
    static func attributes(_ values: [String: String]) -> DBusValue {
        .array(elementSignature: "{ss}", values.sorted { $0.key < $1.key }.map { .dictEntry(.string($0.key), .string($0.value)) })
    }

    /// `ay`.
    static func bytes(_ bytes: [UInt8]) -> DBusValue { .array(elementSignature: "y", bytes.map(DBusValue.byte)) }

    var stringValue: String? {
        switch self {
        case .string(let text), .objectPath(let text), .signature(let text): text
        case .variant(let inner): inner.stringValue
        default: nil
        }
    }

    var arrayValues: [DBusValue]? {
        if case .array(_, let values) = self { return values }
        if case .variant(let inner) = self { return inner.arrayValues }
        return nil
    }

    /// The bytes of an `ay`.
    var byteValues: [UInt8]? {
        arrayValues?.map { value -> UInt8? in if case .byte(let byte) = value { return byte } else { return nil } }
            .reduce([UInt8]()) { bytes, byte in byte.map { bytes + [$0] } ?? bytes }
    }
}

/// Writes values in the wire format, aligned from the start of the message.
struct DBusWriter {
    private(set) var bytes: [UInt8] = []

    mutating func align(_ boundary: Int) {
        while bytes.count % boundary != 0 { bytes.append(0) }
    }

    mutating func write(_ value: DBusValue) {
        switch value {
        case .byte(let byte): bytes.append(byte)
        case .boolean(let flag): writeUInt32(flag ? 1 : 0)
        case .uint32(let number): writeUInt32(number)
        case .uint64(let number):
            align(8)
            for index in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: number >> (8 * index))) }
        case .string(let text), .objectPath(let text):
            writeUInt32(UInt32(text.utf8.count))
            bytes += text.utf8
            bytes.append(0)
        case .signature(let text):
            bytes.append(UInt8(text.utf8.count))
            bytes += text.utf8
            bytes.append(0)
        case .variant(let inner):
            write(.signature(inner.signature))
            write(inner)
        case .array(let element, let values):
            writeUInt32(0)  // the length, patched below
            let lengthAt = bytes.count - 4
            align(DBusWriter.alignment(of: element))
            let start = bytes.count
            values.forEach { write($0) }
            let length = UInt32(bytes.count - start)
            for index in 0..<4 { bytes[lengthAt + index] = UInt8(truncatingIfNeeded: length >> (8 * index)) }
        case .dictEntry(let key, let value):
            align(8)
            write(key)
            write(value)
        case .structure(let fields):
            align(8)
            fields.forEach { write($0) }
        }
    }

    mutating func writeUInt32(_ number: UInt32) {
        align(4)
        for index in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: number >> (8 * index))) }
    }

    /// The alignment of the first type of `signature`.
    static func alignment(of signature: String) -> Int {
        switch signature.first {
        case "y", "g", "v": 1
        case "(", "{", "t", "x", "d": 8
        default: 4
        }
    }
}

/// Reads values of given signatures; nil for anything malformed or out of range.
struct DBusReader {
    let bytes: [UInt8]
    var offset: Int

    init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// Values are nested at most this deep (the specification allows 64; the Secret Service needs 4).
    static let maximumDepth = 16

    mutating func align(_ boundary: Int) -> Bool {
        let aligned = (offset + boundary - 1) / boundary * boundary
        guard aligned <= bytes.count else { return false }
        offset = aligned
        return true
    }

    mutating func readUInt32() -> UInt32? {
        guard align(4), offset + 4 <= bytes.count else { return nil }
        defer { offset += 4 }
        return (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    /// Every value of `signature` (a sequence of complete types).
    mutating func read(signature: String) -> [DBusValue]? {
        var types = Substring(signature)
        var values: [DBusValue] = []
        while !types.isEmpty {
            guard let type = DBusReader.firstType(of: types), let value = read(type: type, depth: 0) else { return nil }
            values.append(value)
            types = types.dropFirst(type.count)
        }
        return values
    }

    private mutating func read(type: Substring, depth: Int) -> DBusValue? {
        guard depth < Self.maximumDepth, let code = type.first else { return nil }
        switch code {
        case "y":
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return .byte(bytes[offset])
        case "b":
            guard let number = readUInt32(), number <= 1 else { return nil }
            return .boolean(number == 1)
        case "u":
            return readUInt32().map(DBusValue.uint32)
        case "t":
            guard align(8), offset + 8 <= bytes.count else { return nil }
            defer { offset += 8 }
            return .uint64((0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) })
        case "s", "o":
            guard let length = readUInt32().map(Int.init), let text = readText(length: length) else { return nil }
            return code == "s" ? .string(text) : .objectPath(text)
        case "g":
            guard offset < bytes.count else { return nil }
            let length = Int(bytes[offset])
            offset += 1
            return readText(length: length).map(DBusValue.signature)
        case "v":
            guard case .signature(let inner)? = read(type: "g", depth: depth), DBusReader.firstType(of: Substring(inner))?.count == inner.count,
                let value = read(type: Substring(inner), depth: depth + 1)
            else { return nil }
            return .variant(value)
        case "a":
            let element = type.dropFirst()
            guard let length = readUInt32().map(Int.init), length <= 64 * 1024 * 1024, align(DBusWriter.alignment(of: String(element))) else { return nil }
            let end = offset + length
            guard end <= bytes.count else { return nil }
            var values: [DBusValue] = []
            while offset < end {
                guard let value = read(type: element, depth: depth + 1) else { return nil }
                values.append(value)
            }
            return offset == end ? .array(elementSignature: String(element), values) : nil
        case "(", "{":
            guard align(8) else { return nil }
            var inner = type.dropFirst().dropLast()
            var fields: [DBusValue] = []
            while !inner.isEmpty {
                guard let field = DBusReader.firstType(of: inner), let value = read(type: field, depth: depth + 1) else { return nil }
                fields.append(value)
                inner = inner.dropFirst(field.count)
            }
            if code == "{" { return fields.count == 2 ? .dictEntry(fields[0], fields[1]) : nil }
            return .structure(fields)
        default:
            return nil
        }
    }

    private mutating func readText(length: Int) -> String? {
        guard length >= 0, offset + length < bytes.count, bytes[offset + length] == 0 else { return nil }
        let text = String(validating: bytes[offset..<(offset + length)], as: UTF8.self)
        offset += length + 1
        return text
    }

    /// The first complete type of a signature: `s`, `a{sv}`, `(oayays)`.
    static func firstType(of signature: Substring) -> Substring? {
        guard let first = signature.first else { return nil }
        switch first {
        case "a":
            guard let element = firstType(of: signature.dropFirst()) else { return nil }
            return signature.prefix(1 + element.count)
        case "(", "{":
            let close: Character = first == "(" ? ")" : "}"
            var depth = 0
            for (index, character) in signature.enumerated() {
                if character == "(" || character == "{" { depth += 1 }
                if character == ")" || character == "}" { depth -= 1 }
                if depth == 0 { return character == close ? signature.prefix(index + 1) : nil }
            }
            return nil
        case "y", "b", "u", "s", "o", "g", "v", "i", "n", "q", "x", "t", "d", "h":
            return signature.prefix(1)
        default:
            return nil
        }
    }
}
