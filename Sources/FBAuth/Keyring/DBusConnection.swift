import FBAuthSupport

/// A connection to the session bus, spoken directly on its Unix socket (the D-Bus
/// specification: "Server Addresses", "Authentication Protocol" with EXTERNAL, "Message Bus
/// Specification" for `Hello`). Every step has the connection's deadline: a bus that never
/// answers costs seconds, never a hang. No daemon is ever started: fbauth does not run
/// `dbus-launch`, and its calls carry NO_AUTO_START.
final class DBusConnection {
    private let socket: Platform.UnixSocket
    private var received: [UInt8] = []
    private var nextSerial: UInt32 = 1

    /// Why the bus cannot be used, in words for the user.
    struct Failure: Error, Equatable {
        let reason: String
        /// The D-Bus error name, when the bus or a service answered with one.
        var errorName: String?
        /// The bus, or the service on it, belongs to another user: nothing secret may go there.
        var refusedOwner = false
    }

    /// Connects to the first usable address of `DBUS_SESSION_BUS_ADDRESS` and authenticates,
    /// once the bus is known to be the user's own (`checkingOwner` false only for tests that
    /// watch another user's bus).
    init(address: String?, timeout: Duration, checkingOwner: Bool = true) throws(Failure) {
        guard let address, !address.isEmpty else { throw Failure(reason: "no D-Bus session: DBUS_SESSION_BUS_ADDRESS is not set") }
        guard let socketAddress = Self.unixSocket(in: address) else {
            throw Failure(reason: "the D-Bus session address names no Unix socket")
        }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        do {
            socket = try Platform.UnixSocket(path: socketAddress.path, abstract: socketAddress.abstract, deadline: deadline)
        } catch {
            throw Failure(reason: "the D-Bus session bus cannot be reached: \(error.reason)")
        }
        // Before a byte is sent: the address may have outlived its bus (tmux, screen, an old
        // dbus-launch) and been taken by another user's daemon.
        let fileOwner = socketAddress.abstract ? nil : Platform.ownerOfFile(socketAddress.path)
        if checkingOwner, let distrust = BusOwnership.distrust(peer: socket.peerUserID, socketFile: socketAddress.abstract ? nil : .some(fileOwner),
                                                user: Platform.effectiveUserID) {
            throw Failure(reason: distrust.reason(address: TerminalText.safe(socketAddress.abstract ? "@" + socketAddress.path : socketAddress.path)),
                          refusedOwner: true)
        }
        do {
            try authenticate()
        } catch {
            throw Failure(reason: "the D-Bus session bus cannot be reached: \(error.reason)")
        }
        _ = try call(.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "Hello"))
    }

    /// Sends `message` and returns the body of its reply; an error reply throws with its name.
    func call(_ message: DBusMessage) throws(Failure) -> [DBusValue] {
        var message = message
        message.serial = nextSerial
        nextSerial += 1
        do {
            try socket.write(message.encoded())
            while true {
                let reply = try readMessage()
                guard reply.replySerial == message.serial, reply.kind != .methodCall, reply.kind != .signal else { continue }
                if reply.kind == .error {
                    throw Failure(reason: "\(message.member ?? "the call") failed: \(reply.body.first?.stringValue ?? reply.errorName ?? "error")",
                                  errorName: reply.errorName)
                }
                return reply.body
            }
        } catch let failure as Failure {
            throw failure
        } catch let failure as Platform.SocketFailure {
            throw Failure(reason: "the D-Bus session bus \(failure.reason)")
        } catch {
            throw Failure(reason: "the D-Bus session bus failed")
        }
    }

    private func readMessage() throws -> DBusMessage {
        while true {
            switch DBusMessage.decode(received) {
            case .some(.some(let decoded)):
                received.removeFirst(decoded.length)
                return decoded.message
            case .some(.none):
                let more = try socket.read()
                guard !more.isEmpty else { throw Failure(reason: "the D-Bus session bus closed the connection") }
                received += more
            case .none:
                throw Failure(reason: "the D-Bus session bus sent something that is not a D-Bus message")
            }
        }
    }

    /// SASL EXTERNAL: the kernel tells the bus who is connecting; fbauth names its own uid.
    private func authenticate() throws(Platform.SocketFailure) {
        let uid = Array(String(Platform.userID).utf8).map { String($0, radix: 16) }.joined()
        try socket.write([0] + Array("AUTH EXTERNAL \(uid)\r\n".utf8))
        var line: [UInt8] = []
        while !line.ends(with: [13, 10]) {
            let more = try socket.read(limit: 512)
            guard !more.isEmpty, line.count < 4096 else { throw Platform.SocketFailure("refused to authenticate") }
            line += more
        }
        guard line.starts(with: Array("OK ".utf8)) else { throw Platform.SocketFailure("refused to authenticate this user") }
        try socket.write(Array("BEGIN\r\n".utf8))
    }

    /// The path of the first `unix:path=` or `unix:abstract=` address (values %-escaped).
    static func unixSocket(in address: String) -> (path: String, abstract: Bool)? {
        for entry in address.split(separator: ";") {
            guard entry.hasPrefix("unix:") else { continue }
            for pair in entry.dropFirst(5).split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, let value = unescape(parts[1]) else { continue }
                if parts[0] == "path" { return (value, false) }
                if parts[0] == "abstract" { return (value, true) }
            }
        }
        return nil
    }

    private static func unescape(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == "%" {
                let end = text.index(index, offsetBy: 3, limitedBy: text.endIndex) ?? text.endIndex
                guard text.distance(from: index, to: end) == 3, let byte = UInt8(text[text.index(after: index)..<end], radix: 16) else { return nil }
                bytes.append(byte)
                index = end
            } else {
                bytes += text[index].utf8
                index = text.index(after: index)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
