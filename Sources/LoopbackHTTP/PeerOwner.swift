// Who is at the other end of a loopback TCP connection. Platform-specific: Linux only.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The user id that owns the other end of an accepted loopback connection.
///
/// On Linux the kernel lists every TCP socket of the network namespace in `/proc/net/tcp` and
/// `/proc/net/tcp6`, each with its local and remote address and the uid of its owner (`proc(5)`,
/// "/proc/net/tcp"). The peer of a connection accepted on loopback is a socket in the same
/// namespace whose local address is our remote address and whose remote address is our local
/// address: its line gives the peer's uid, before a byte of the request is read. macOS has no
/// such table for TCP (`LOCAL_PEERCRED` works on Unix sockets only): nil there.
package enum PeerOwner {
    /// The uid of the peer of connected socket `fd`; nil when it cannot be told (no `/proc`,
    /// a peer in another namespace, a connection that closed already, not Linux).
    package static func uid(ofPeerOf fd: Int32) -> UInt32? {
        #if os(Linux)
        // The socket-diagnostics netlink interface looks the one socket up (what `ss` uses);
        // the text table, where netlink is not allowed, lists every socket of the machine.
        if let uid = SocketDiagnostics.uid(ofPeerOf: fd) { return uid }
        guard let ends = endpoints(of: fd) else { return nil }
        return owner(local: ends.peer, remote: ends.local, table: ends.isIPv6 ? "/proc/net/tcp6" : "/proc/net/tcp")
        #else
        return nil
        #endif
    }

    /// The same through `/proc/net/tcp` alone (for tests of that path).
    static func uidFromTable(ofPeerOf fd: Int32) -> UInt32? {
        #if os(Linux)
        guard let ends = endpoints(of: fd) else { return nil }
        return owner(local: ends.peer, remote: ends.local, table: ends.isIPv6 ? "/proc/net/tcp6" : "/proc/net/tcp")
        #else
        return nil
        #endif
    }

    /// Whether the peer of `fd` runs as this process's user (effective uid); false when it
    /// cannot be told.
    package static func isThisUser(peerOf fd: Int32) -> Bool {
        uid(ofPeerOf: fd) == geteuid()
    }

    /// Whether the check works here: a connection of this process to itself is found, with
    /// this process's uid. Where it does not, callers keep their other protections.
    package static func worksHere() -> Bool {
        #if os(Linux)
        guard let listener = try? Socket.listen(on: .ipv4, port: 0) else { return false }
        defer { close(listener.fd) }
        guard let client = try? Socket.connect(to: .ipv4, port: listener.port, timeoutSeconds: 1) else { return false }
        defer { Socket.close(client) }
        var accepted: Int32 = -1
        for _ in 0..<50 {
            if let fd = Socket.accept(listener.fd) { accepted = fd; break }
            _ = Socket.poll([(listener.fd, Socket.readable)], timeoutMilliseconds: 20)
        }
        guard accepted >= 0 else { return false }
        defer { close(accepted) }
        return uid(ofPeerOf: accepted) == geteuid()
        #else
        return false
        #endif
    }

    #if os(Linux)
    /// Both ends of `fd` as `/proc/net/tcp` prints them: `0100007F:1F90`.
    private static func endpoints(of fd: Int32) -> (local: String, peer: String, isIPv6: Bool)? {
        var local = sockaddr_storage(), peer = sockaddr_storage()
        var localLength = socklen_t(MemoryLayout<sockaddr_storage>.size), peerLength = localLength
        let gotLocal = withUnsafeMutablePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &localLength) } }
        let gotPeer = withUnsafeMutablePointer(to: &peer) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &peerLength) } }
        guard gotLocal == 0, gotPeer == 0, let localText = text(local), let peerText = text(peer) else { return nil }
        return (localText, peerText, Int32(local.ss_family) == AF_INET6)
    }

    /// An address as the kernel prints it there: each 32-bit word of the address as it lies in
    /// memory, read in host order, in hexadecimal; then the port.
    static func text(_ storage: sockaddr_storage) -> String? {
        let family = Int32(storage.ss_family)
        return withUnsafeBytes(of: storage) { raw -> String? in
            switch family {
            case AF_INET:
                let address = raw.load(fromByteOffset: MemoryLayout<sockaddr_in>.offset(of: \.sin_addr)!, as: UInt32.self)
                let port = UInt16(bigEndian: raw.load(fromByteOffset: MemoryLayout<sockaddr_in>.offset(of: \.sin_port)!, as: UInt16.self))
                return hex(address, digits: 8) + ":" + hex(UInt32(port), digits: 4)
            case AF_INET6:
                let offset = MemoryLayout<sockaddr_in6>.offset(of: \.sin6_addr)!
                let words = (0..<4).map { raw.load(fromByteOffset: offset + 4 * $0, as: UInt32.self) }
                let port = UInt16(bigEndian: raw.load(fromByteOffset: MemoryLayout<sockaddr_in6>.offset(of: \.sin6_port)!, as: UInt16.self))
                return words.map { hex($0, digits: 8) }.joined() + ":" + hex(UInt32(port), digits: 4)
            default:
                return nil
            }
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// The uid on the line of `table` whose local and remote addresses are these.
    static func owner(local: String, remote: String, table: String) -> UInt32? {
        guard let contents = readSmallFile(table) else { return nil }
        return owner(local: local, remote: remote, in: contents)
    }

    /// The same on the table's text (`sl local_address rem_address st … uid timeout inode`).
    /// Only an ESTABLISHED socket (`01`) that a process still holds (an inode) names its
    /// owner: one closed already is listed under uid 0, which would make any user root.
    static func owner(local: String, remote: String, in contents: String) -> UInt32? {
        for line in contents.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 9, fields[1] == local, fields[2] == remote else { continue }
            guard fields[3] == "01", fields[9] != "0" else { return nil }
            return UInt32(fields[7])
        }
        return nil
    }

    /// A `/proc` file, read whole (its size is not known in advance).
    private static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count < 64 << 20 {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
    #endif
}
