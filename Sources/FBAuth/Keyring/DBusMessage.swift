/// One D-Bus message (the D-Bus specification, "Message Format"): a method call fbauth sends,
/// or the return, error or signal it reads. Little-endian on the way out; either order read.
struct DBusMessage: Equatable, Sendable {
    enum Kind: UInt8, Sendable { case methodCall = 1, methodReturn = 2, error = 3, signal = 4 }

    var kind: Kind
    /// 0x2 NO_AUTO_START: the bus must not start a service to answer (fbauth never starts a
    /// keyring daemon behind the user's back).
    var flags: UInt8 = 0
    var serial: UInt32 = 0
    var path: String?
    var interface: String?
    var member: String?
    var errorName: String?
    var replySerial: UInt32?
    var destination: String?
    var sender: String?
    var body: [DBusValue] = []

    static let noAutoStart: UInt8 = 0x2

    static func call(destination: String, path: String, interface: String, member: String, _ body: [DBusValue] = []) -> DBusMessage {
        DBusMessage(kind: .methodCall, flags: noAutoStart, path: path, interface: interface, member: member, destination: destination, body: body)
    }

    var signature: String { body.map(\.signature).joined() }

    func encoded() -> [UInt8] {
        var fields: [DBusValue] = []
        func field(_ code: UInt8, _ value: DBusValue?) {
            if let value { fields.append(.structure([.byte(code), .variant(value)])) }
        }
        field(1, path.map(DBusValue.objectPath))
        field(2, interface.map(DBusValue.string))
        field(3, member.map(DBusValue.string))
        field(4, errorName.map(DBusValue.string))
        field(5, replySerial.map(DBusValue.uint32))
        field(6, destination.map(DBusValue.string))
        field(7, sender.map(DBusValue.string))
        field(8, body.isEmpty ? nil : .signature(signature))
        var bodyWriter = DBusWriter()
        body.forEach { bodyWriter.write($0) }
        var writer = DBusWriter()
        [DBusValue.byte(UInt8(ascii: "l")), .byte(kind.rawValue), .byte(flags), .byte(1)].forEach { writer.write($0) }
        writer.writeUInt32(UInt32(bodyWriter.bytes.count))
        writer.writeUInt32(serial)
        writer.write(.array(elementSignature: "(yv)", fields))
        writer.align(8)
        return writer.bytes + bodyWriter.bytes
    }

    /// The whole message at the start of `bytes` and its length; nil while more bytes are needed
    /// (`complete` false) or when they are not a message (`complete` true).
    static func decode(_ bytes: [UInt8]) -> (message: DBusMessage, length: Int)?? {
        guard bytes.count >= 16 else { return .some(nil) }
        let bigEndian: Bool
        switch bytes[0] {
        case UInt8(ascii: "l"): bigEndian = false
        case UInt8(ascii: "B"): bigEndian = true
        default: return nil
        }
        func uint32(at index: Int) -> Int {
            let word = bytes[index..<(index + 4)]
            return (bigEndian ? Array(word.reversed()) : Array(word)).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        }
        guard let kind = Kind(rawValue: bytes[1]), bytes[3] == 1 else { return nil }
        let bodyLength = uint32(at: 4), fieldsLength = uint32(at: 12)
        guard bodyLength <= 64 * 1024 * 1024, fieldsLength <= 64 * 1024 * 1024 else { return nil }
        let headerEnd = (16 + fieldsLength + 7) / 8 * 8
        let total = headerEnd + bodyLength
        guard bytes.count >= total else { return .some(nil) }
        // Read in little-endian form: a big-endian message is rare on a local bus; refuse it.
        guard !bigEndian else { return nil }
        var reader = DBusReader(Array(bytes[0..<headerEnd]), offset: 12)
        guard let fields = reader.read(signature: "a(yv)")?.first?.arrayValues else { return nil }
        var message = DBusMessage(kind: kind, flags: bytes[2], serial: UInt32(uint32(at: 8)))
        var signature = ""
        for case .structure(let pair) in fields {
            guard pair.count == 2, case .byte(let code) = pair[0], case .variant(let value) = pair[1] else { return nil }
            switch (code, value) {
            case (1, .objectPath(let text)): message.path = text
            case (2, .string(let text)): message.interface = text
            case (3, .string(let text)): message.member = text
            case (4, .string(let text)): message.errorName = text
            case (5, .uint32(let number)): message.replySerial = number
            case (6, .string(let text)): message.destination = text
            case (7, .string(let text)): message.sender = text
            case (8, .signature(let text)): signature = text
            default: break  // unknown fields are ignored, as the specification says
            }
        }
        var bodyReader = DBusReader(Array(bytes[headerEnd..<total]))
        guard let body = bodyReader.read(signature: signature), bodyReader.offset == bodyLength else { return nil }
        message.body = body
        return .some((message, total))
    }
}
