// Linux's socket-diagnostics netlink interface (sock_diag(7)), for `PeerOwner`.
#if os(Linux)
import Glibc

/// Asks the kernel for the owner of one TCP socket, named by its four-tuple: a
/// `SOCK_DIAG_BY_FAMILY` request with an exact `inet_diag_sockid` (no dump), answered by one
/// `inet_diag_msg` whose `idiag_uid` is the owner (`linux/inet_diag.h`, sock_diag(7)). The
/// structures are built as bytes: the Glibc module does not import the kernel's headers.
enum SocketDiagnostics {
    private static let netlinkSockDiag: Int32 = 4     // NETLINK_SOCK_DIAG
    private static let sockDiagByFamily: UInt16 = 20  // SOCK_DIAG_BY_FAMILY
    private static let netlinkError: UInt16 = 2       // NLMSG_ERROR
    private static let request: UInt16 = 1            // NLM_F_REQUEST
    private static let established: UInt8 = 1         // TCP_ESTABLISHED

    /// The uid owning the socket at the other end of connected socket `fd`; nil when the kernel
    /// does not say (another namespace, a socket gone, netlink refused).
    static func uid(ofPeerOf fd: Int32) -> UInt32? {
        var local = sockaddr_storage(), peer = sockaddr_storage()
        var localLength = socklen_t(MemoryLayout<sockaddr_storage>.size), peerLength = localLength
        let gotLocal = withUnsafeMutablePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &localLength) } }
        let gotPeer = withUnsafeMutablePointer(to: &peer) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &peerLength) } }
        guard gotLocal == 0, gotPeer == 0, let source = endpoint(peer), let destination = endpoint(local),
            source.family == destination.family
        else { return nil }
        // The peer's socket: its source is our peer, its destination us.
        return query(family: source.family, source: source, destination: destination)
    }

    private struct Endpoint {
        var family: Int32
        /// Network byte order, as the kernel keeps them.
        var address: [UInt8]
        var port: [UInt8]
    }

    private static func endpoint(_ storage: sockaddr_storage) -> Endpoint? {
        let family = Int32(storage.ss_family)
        return withUnsafeBytes(of: storage) { raw -> Endpoint? in
            switch family {
            case AF_INET:
                let address = MemoryLayout<sockaddr_in>.offset(of: \.sin_addr)!, port = MemoryLayout<sockaddr_in>.offset(of: \.sin_port)!
                return Endpoint(family: family, address: Array(raw[address..<address + 4]), port: Array(raw[port..<port + 2]))
            case AF_INET6:
                let address = MemoryLayout<sockaddr_in6>.offset(of: \.sin6_addr)!, port = MemoryLayout<sockaddr_in6>.offset(of: \.sin6_port)!
                return Endpoint(family: family, address: Array(raw[address..<address + 16]), port: Array(raw[port..<port + 2]))
            default:
                return nil
            }
        }
    }

    private static func query(family: Int32, source: Endpoint, destination: Endpoint) -> UInt32? {
        let fd = socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), netlinkSockDiag)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        // inet_diag_req_v2: family, protocol, ext, pad, states; then inet_diag_sockid: sport,
        // dport, src[16], dst[16], if, cookie[2] (INET_DIAG_NOCOOKIE: all ones).
        var body: [UInt8] = [UInt8(family), UInt8(IPPROTO_TCP), 0, 0]
        body += hostOrder(UInt32.max)
        body += source.port + destination.port
        body += source.address + [UInt8](repeating: 0, count: 16 - source.address.count)
        body += destination.address + [UInt8](repeating: 0, count: 16 - destination.address.count)
        body += hostOrder(0) + hostOrder(UInt32.max) + hostOrder(UInt32.max)
        let sequence = UInt32(truncatingIfNeeded: Int(bitPattern: UInt(getpid())))
        var message = hostOrder(UInt32(16 + body.count)) + hostOrder16(sockDiagByFamily) + hostOrder16(request) + hostOrder(sequence) + hostOrder(0)
        message += body

        // sockaddr_nl of the kernel: family, pad, pid 0, groups 0 (12 bytes).
        let kernel = hostOrder16(UInt16(AF_NETLINK)) + [0, 0] + hostOrder(0) + hostOrder(0)
        let sent = message.withUnsafeBytes { bytes in
            kernel.withUnsafeBytes { address in
                sendto(fd, bytes.baseAddress, bytes.count, 0, address.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(address.count))
            }
        }
        guard sent == message.count else { return nil }
        var answer = [UInt8](repeating: 0, count: 8192)
        let received = answer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        // nlmsghdr (16 bytes), then inet_diag_msg: family, state, timer, retrans, sockid (48),
        // expires, rqueue, wqueue, uid (at 64), inode (at 68).
        guard received >= 16 + 72 else { return nil }
        let type = answer.withUnsafeBytes { $0.load(fromByteOffset: 4, as: UInt16.self) }
        guard type == sockDiagByFamily else { return nil }
        // Only a connected socket that a process still holds names its owner: one closed
        // already (FIN_WAIT, TIME_WAIT) has no inode, and the kernel lists it under uid 0.
        let inode = answer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 16 + 68, as: UInt32.self) }
        guard answer[16 + 1] == established, inode != 0 else { return nil }
        return answer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 16 + 64, as: UInt32.self) }
    }

    /// A value in host byte order, as netlink's headers are.
    private static func hostOrder(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }
    private static func hostOrder16(_ value: UInt16) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }
}
#endif
