// The POSIX socket calls the loopback server needs. All platform-specific socket code lives
// here so the rest of the module reads the same on Linux and macOS.
#if canImport(Glibc)
import Glibc
private let streamType = Int32(SOCK_STREAM.rawValue)
private let sendFlags = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
import Darwin
private let streamType = SOCK_STREAM
private let sendFlags: Int32 = 0  // Darwin uses SO_NOSIGPIPE, set on each socket.
#endif

/// Which loopback address a socket is bound to.
package enum LoopbackAddress: String, Sendable, CaseIterable {
    case ipv4 = "127.0.0.1"
    case ipv6 = "::1"
}

/// A failed socket call, with the errno it left.
package struct SocketError: Error, Sendable, Equatable {
    package let operation: String
    package let code: Int32

    package init(operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    package var isAddressInUse: Bool { code == EADDRINUSE }
    /// The address family or address does not exist here (e.g. a host without IPv6).
    package var isAddressUnavailable: Bool { code == EADDRNOTAVAIL || code == EAFNOSUPPORT }
    package var description: String { "\(operation): \(String(cString: strerror(code)))" }
}

/// Thin wrappers over file-descriptor calls; every descriptor is non-blocking and close-on-exec,
/// so a launched browser never inherits the listener.
enum Socket {
    static func listen(on address: LoopbackAddress, port: UInt16, backlog: Int32 = 64) throws(SocketError) -> (fd: Int32, port: UInt16) {
        let family = address == .ipv4 ? AF_INET : AF_INET6
        let fd = socket(family, streamType, 0)
        guard fd >= 0 else { throw SocketError(operation: "socket", code: errno) }
        do throws(SocketError) {
            try prepare(fd)
            var one: Int32 = 1
            // Lets a fixed port be reused at once after an earlier run (TIME_WAIT). On Linux this
            // does not allow two live listeners on one port.
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            if address == .ipv6 {
                setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            try bind(fd, address: address, port: port)
            guard posixListen(fd, backlog) == 0 else { throw SocketError(operation: "listen", code: errno) }
            return (fd, try boundPort(fd, address: address))
        } catch {
            close(fd)
            throw error
        }
    }

    /// Accepts one pending connection; nil when none is waiting.
    static func accept(_ listener: Int32) -> Int32? {
        while true {
            let fd = posixAccept(listener, nil, nil)
            if fd >= 0 {
                do { try prepare(fd) } catch { close(fd); return nil }
                return fd
            }
            if errno == EINTR { continue }
            return nil
        }
    }

    enum ReadResult { case bytes([UInt8]), wouldBlock, closed }

    static func read(_ fd: Int32, max: Int = 4096) -> ReadResult {
        var buffer = [UInt8](repeating: 0, count: max)
        while true {
            let count = buffer.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress, max) }
            if count > 0 { return .bytes(Array(buffer[0..<count])) }
            if count == 0 { return .closed }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .closed
        }
    }

    /// Writes as much as the socket takes now; nil when the peer is gone.
    static func write(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Int? {
        while true {
            let count = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, sendFlags) }
            if count >= 0 { return count }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : nil
        }
    }

    static func close(_ fd: Int32) {
        _ = posixClose(fd)
    }

    /// Connects to a loopback port (used by the stand-in's headless browser). Blocking, with
    /// send and receive timeouts.
    static func connect(to address: LoopbackAddress, port: UInt16, timeoutSeconds: Int) throws(SocketError) -> Int32 {
        let fd = socket(address == .ipv4 ? AF_INET : AF_INET6, streamType, 0)
        guard fd >= 0 else { throw SocketError(operation: "socket", code: errno) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = withSocketAddress(address, port: port) { posixConnect(fd, $0, $1) }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw SocketError(operation: "connect", code: code)
        }
        return fd
    }

    /// Blocking write of everything (for the connected client sockets of `connect`).
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            guard let written = write(fd, bytes[offset...]), written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Blocking read until the peer closes (or `limit` bytes / the receive timeout).
    static func readToEnd(_ fd: Int32, limit: Int = 1 << 20) -> [UInt8] {
        var result: [UInt8] = []
        while result.count < limit, case .bytes(let bytes) = read(fd) { result += bytes }
        return result
    }

    /// Waits for any of `fds` to become ready, at most `timeoutMilliseconds` (-1: forever).
    /// Returns the `revents` for each descriptor, in order.
    static func poll(_ fds: [(fd: Int32, events: Int16)], timeoutMilliseconds: Int32) -> [Int16] {
        var entries = fds.map { pollfd(fd: $0.fd, events: $0.events, revents: 0) }
        let count = entries.withUnsafeMutableBufferPointer {
            posixPoll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds)
        }
        if count <= 0 { return Array(repeating: 0, count: fds.count) }
        return entries.map(\.revents)
    }

    /// The soft limit on open descriptors of this process.
    static func descriptorLimit() -> Int {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return 256 }
        // "Unlimited" is the largest value; poll's cost bounds us long before that.
        return Int(clamping: min(limit.rlim_cur, 65536))
    }

    static let readable = Int16(POLLIN)
    static let writable = Int16(POLLOUT)
    static let failed = Int16(POLLERR | POLLHUP | POLLNVAL)

    /// A pipe whose read end a poll loop can watch; writing a byte wakes the loop.
    static func makeWakePipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        return (fds[0], fds[1])
    }

    static func writeByte(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = posixWrite(fd, &byte, 1)
    }

    // MARK: - Private

    private static func prepare(_ fd: Int32) throws(SocketError) {
        guard fcntl(fd, F_SETFD, FD_CLOEXEC) == 0,
            fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0
        else { throw SocketError(operation: "fcntl", code: errno) }
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    private static func bind(_ fd: Int32, address: LoopbackAddress, port: UInt16) throws(SocketError) {
        let result = withSocketAddress(address, port: port) { posixBind(fd, $0, $1) }
        guard result == 0 else { throw SocketError(operation: "bind", code: errno) }
    }

    private static func boundPort(_ fd: Int32, address: LoopbackAddress) throws(SocketError) -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { throw SocketError(operation: "getsockname", code: errno) }
        return withUnsafePointer(to: &storage) { pointer in
            switch address {
            case .ipv4:
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            case .ipv6:
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
        }
    }

    private static func withSocketAddress<T>(_ address: LoopbackAddress, port: UInt16, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        switch address {
        case .ipv4:
            var inet = sockaddr_in()
            inet.sin_family = sa_family_t(AF_INET)
            inet.sin_port = port.bigEndian
            inet.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            return withUnsafePointer(to: &inet) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        case .ipv6:
            var inet6 = sockaddr_in6()
            inet6.sin6_family = sa_family_t(AF_INET6)
            inet6.sin6_port = port.bigEndian
            inet6.sin6_addr = in6addr_loopback
            return withUnsafePointer(to: &inet6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
    }
}

// The libc names collide with methods of `Socket`; these aliases make each call unambiguous.
private func posixListen(_ fd: Int32, _ backlog: Int32) -> Int32 { listen(fd, backlog) }
private func posixAccept(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: UnsafeMutablePointer<socklen_t>?) -> Int32 { accept(fd, address, length) }
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }
private func posixClose(_ fd: Int32) -> Int32 { close(fd) }
private func posixBind(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { bind(fd, address, length) }
private func posixConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { connect(fd, address, length) }
private func posixPoll(_ fds: UnsafeMutablePointer<pollfd>?, _ count: nfds_t, _ timeout: Int32) -> Int32 { poll(fds, count, timeout) }
