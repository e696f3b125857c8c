// A Unix-domain stream socket with a deadline on every step, for the session bus (D-Bus): the
// one place the keyring's transport touches POSIX. A bus that never answers costs at most the
// deadline, never a hang.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Platform {
    package final class UnixSocket: @unchecked Sendable {
        /// -1 once closed: an initializer that fails closes it itself, and the deinit, which
        /// Swift runs for a failed initializer that had set every property, must not close
        /// that number again (by then it may be another thread's descriptor).
        private var descriptor: Int32
        /// When every call on this socket gives up.
        private let deadline: ContinuousClock.Instant

        /// Connects to `path` (an abstract address when `abstract`: Linux only). The reason as
        /// text when it cannot.
        package init(path: String, abstract: Bool, deadline: ContinuousClock.Instant) throws(SocketFailure) {
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            let capacity = MemoryLayout.size(ofValue: address.sun_path)
            let offset = abstract ? 1 : 0
            guard bytes.count + offset < capacity, !bytes.contains(0) else { throw SocketFailure("the bus address is too long") }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw.copyBytes(from: Array(repeating: 0, count: offset) + bytes)
            }
            #if canImport(Darwin)
            let type = SOCK_STREAM
            #else
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            #endif
            descriptor = socket(AF_UNIX, type, 0)
            guard descriptor >= 0 else { throw SocketFailure("socket: \(String(cString: strerror(errno)))") }
            self.deadline = deadline
            let length = socklen_t(MemoryLayout<sa_family_t>.size + offset + bytes.count + (abstract ? 0 : 1))
            let flags = fcntl(descriptor, F_GETFL)
            _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, length) }
            }
            if connected != 0 {
                guard errno == EINPROGRESS || errno == EAGAIN else {
                    throw abandoned(String(cString: strerror(errno)))
                }
                guard wait(for: Int16(POLLOUT)) else {
                    throw abandoned("the bus did not accept the connection in time")
                }
                var error: Int32 = 0
                var size = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &size)
                guard error == 0 else { throw abandoned(String(cString: strerror(error))) }
            }
        }

        deinit {
            if descriptor >= 0 { close(descriptor) }
        }

        /// Closes the socket of a connection that failed; the failure to throw.
        private func abandoned(_ reason: String) -> SocketFailure {
            close(descriptor)
            descriptor = -1
            return SocketFailure(reason)
        }

        /// The uid of the process that accepted this connection, as the kernel recorded it when
        /// the listening socket was made (`SO_PEERCRED`; `getpeereid` on macOS): who is really
        /// at the other end, whatever the address's name or file says. Nil when the kernel does
        /// not say.
        package var peerUserID: UInt32? {
            #if canImport(Darwin)
            var uid: uid_t = 0, gid: gid_t = 0
            return getpeereid(descriptor, &uid, &gid) == 0 ? uid : nil
            #else
            var credentials = PeerCredentials()
            var size = socklen_t(MemoryLayout<PeerCredentials>.size)
            guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0,
                  size == socklen_t(MemoryLayout<PeerCredentials>.size) else { return nil }
            return credentials.uid
            #endif
        }

        /// No SIGPIPE from a bus that went away (macOS has no MSG_NOSIGNAL; fbauth ignores
        /// SIGPIPE there anyway).
        #if canImport(Darwin)
        private static let sendFlags: Int32 = 0
        #else
        private static let sendFlags = Int32(MSG_NOSIGNAL)
        #endif

        /// Writes all of `bytes` before the deadline.
        package func write(_ bytes: [UInt8]) throws(SocketFailure) {
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Self.sendFlags) }
                if count > 0 { sent += count; continue }
                guard count < 0, errno == EAGAIN || errno == EINTR else { throw SocketFailure("the bus closed the connection") }
                guard wait(for: Int16(POLLOUT)) else { throw SocketFailure("the bus did not read in time") }
            }
        }

        /// What has arrived (at most `limit` bytes), waiting for some until the deadline; empty
        /// at the end of the stream.
        package func read(limit: Int = 64 * 1024) throws(SocketFailure) -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: limit)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count >= 0 { return Array(buffer[0..<count]) }
                guard errno == EAGAIN || errno == EINTR else { throw SocketFailure(String(cString: strerror(errno))) }
                guard wait(for: Int16(POLLIN)) else { throw SocketFailure("the bus did not answer in time") }
            }
        }

        private func wait(for events: Int16) -> Bool {
            while true {
                let left = deadline - ContinuousClock.now
                guard left > .zero else { return false }
                let milliseconds = Int32(min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000, 60_000))
                var entry = pollfd(fd: descriptor, events: events, revents: 0)
                let ready = poll(&entry, 1, max(1, milliseconds))
                if ready > 0 { return true }
                if ready < 0, errno != EINTR { return false }
            }
        }
    }

    #if !canImport(Darwin)
    /// `struct ucred` (socket(7)), which Glibc declares only under `_GNU_SOURCE`.
    private struct PeerCredentials {
        var pid: Int32 = 0
        var uid: UInt32 = .max
        var gid: UInt32 = .max
    }
    #endif

    /// The owner of the file at `path` (following links, as `connect` does); nil when there is
    /// none.
    package static func ownerOfFile(_ path: String) -> UInt32? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_uid : nil
    }

    package struct SocketFailure: Error, Sendable {
        package let reason: String
        package init(_ reason: String) { self.reason = reason }
    }

    /// The user's numeric id, for D-Bus's EXTERNAL authentication.
    package static var userID: UInt32 { getuid() }

    /// The uid whose files and processes this one trusts as its own (the effective uid).
    package static var effectiveUserID: UInt32 { geteuid() }
}
