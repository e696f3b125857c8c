#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback port the kernel chose, held (bound, not listening) for as long as the test keeps
/// this: no other test or program is given it meanwhile. For a port number that only has to
/// appear in a redirect URI, and is never connected to.
public final class HeldPort: @unchecked Sendable {
    public let number: UInt16
    private let descriptor: Int32

    public init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        guard bound == 0, named == 0 else {
            close(descriptor)
            throw PrivateBus.Failure(description: "no loopback port to hold")
        }
        number = UInt16(bigEndian: address.sin_port)
    }

    public var text: String { String(number) }

    deinit { close(descriptor) }
}
