@testable import FBAuth
import Foundation
import Testing

/// Issue 30: the D-Bus wire format, against messages recorded on a real bus (`dbus-monitor
/// --binary` around `dbus-send … GetNameOwner` in `dbus-run-session`).
@Suite struct DBusMessageTests {
    static let recorded = [
        // dbus-send's Hello
        "6c01000100000000010000007d00000001016f00150000002f6f72672f667265656465736b746f702f4442757300000006017300140000006f72672e667265656465736b746f702e444275730000000002017300140000006f72672e667265656465736b746f702e4442757300000000030173000500000048656c6c6f00000007017300040000003a312e3100000000",
        // the bus's reply: the unique name
        "6c02010109000000010000003d00000006017300040000003a312e31000000000501750001000000080167000173000007017300140000006f72672e667265656465736b746f702e4442757300000000040000003a312e3100",
        // GetNameOwner("org.freedesktop.DBus")
        "6c01000119000000020000008d00000001016f00150000002f6f72672f667265656465736b746f702f4442757300000002017300140000006f72672e667265656465736b746f702e4442757300000000030173000c0000004765744e616d654f776e65720000000006017300140000006f72672e667265656465736b746f702e4442757300000000080167000173000007017300040000003a312e3100000000140000006f72672e667265656465736b746f702e4442757300",
        // its reply
        "6c02010119000000030000003d00000006017300040000003a312e31000000000501750002000000080167000173000007017300140000006f72672e667265656465736b746f702e4442757300000000140000006f72672e667265656465736b746f702e4442757300",
    ].map(Self.bytes)

    static func bytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    @Test func recordedMessagesAreRead() throws {
        let hello = try #require(DBusMessage.decode(Self.recorded[0]) ?? nil)
        #expect(hello.length == Self.recorded[0].count)
        #expect(hello.message.kind == .methodCall && hello.message.member == "Hello" && hello.message.serial == 1 && hello.message.body.isEmpty)
        #expect(hello.message.destination == "org.freedesktop.DBus" && hello.message.sender == ":1.1")

        let name = try #require(DBusMessage.decode(Self.recorded[1]) ?? nil)
        #expect(name.message.kind == .methodReturn && name.message.replySerial == 1 && name.message.body == [.string(":1.1")])

        let call = try #require(DBusMessage.decode(Self.recorded[2]) ?? nil)
        #expect(call.message.member == "GetNameOwner" && call.message.body == [.string("org.freedesktop.DBus")])
        let reply = try #require(DBusMessage.decode(Self.recorded[3]) ?? nil)
        #expect(reply.message.replySerial == 2 && reply.message.body.first?.stringValue == "org.freedesktop.DBus")
    }

    /// What fbauth writes reads back the same, and lays out its body byte for byte as the
    /// recorded call does (header fields may come in any order).
    @Test func writtenMessagesReadBack() throws {
        var call = DBusMessage.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                    member: "GetNameOwner", [.string("org.freedesktop.DBus")])
        call.serial = 2
        let bytes = call.encoded()
        let read = try #require(DBusMessage.decode(bytes) ?? nil)
        #expect(read.message == call && read.length == bytes.count)
        #expect(bytes.count % 8 == Self.recorded[2].count % 8)
        #expect(Array(bytes.suffix(25)) == Array(Self.recorded[2].suffix(25)), "the body")
        #expect(call.flags & DBusMessage.noAutoStart != 0, "fbauth never has the bus start a service")
    }

    /// The Secret Service's types: a{sv} properties, the (oayays) secret, a{o(oayays)}.
    @Test func nestedValuesRoundTrip() throws {
        let secret = DBusValue.structure([.objectPath("/org/freedesktop/secrets/session/s1"), .bytes([]), .bytes(Array("refresh-token".utf8)),
                                          .string("text/plain")])
        let properties = DBusValue.array(elementSignature: "{sv}", [
            .dictEntry(.string("org.freedesktop.Secret.Item.Label"), .variant(.string("fbauth refresh token for ada@example.com (p)"))),
            .dictEntry(.string("org.freedesktop.Secret.Item.Attributes"), .variant(.attributes(["service": "fbauth", "username": "1000"]))),
        ])
        let values: [DBusValue] = [properties, secret, .boolean(true), .array(elementSignature: "{o(oayays)}", [.dictEntry(.objectPath("/i/1"), secret)])]
        var writer = DBusWriter()
        values.forEach { writer.write($0) }
        var reader = DBusReader(writer.bytes)
        #expect(reader.read(signature: values.map(\.signature).joined()) == values)
        #expect(values.map(\.signature).joined() == "a{sv}(oayays)ba{o(oayays)}")
    }

    @Test func malformedMessagesAreRefused() {
        var truncated = Self.recorded[1]
        truncated.removeLast()
        #expect(DBusMessage.decode(truncated) != nil && (DBusMessage.decode(truncated) ?? nil) == nil, "more bytes are needed")
        var badSignature = Self.recorded[1]
        badSignature[badSignature.count - 6] = 0xff  // the body's string no longer ends where its length says
        #expect((DBusMessage.decode(badSignature) ?? nil) == nil)
        var hostile = Self.recorded[1]
        hostile[4] = 0xff; hostile[5] = 0xff; hostile[6] = 0xff; hostile[7] = 0x7f  // a 2 GB body
        #expect(DBusMessage.decode(hostile) == nil)
        var wrongType = Self.recorded[1]
        wrongType[0] = UInt8(ascii: "x")
        #expect(DBusMessage.decode(wrongType) == nil)
    }
}
