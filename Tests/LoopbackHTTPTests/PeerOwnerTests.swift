import Foundation
@testable import LoopbackHTTP
import TestSupport
import Testing

/// Who owns the other end of a loopback connection (Linux), and the listener that refuses
/// connections before reading them.
@Suite(.enabled(if: PeerOwner.worksHere(), "the kernel does not say who owns a loopback connection here (not Linux, or no /proc)"))
struct PeerOwnerTests {
    /// A connection of this process to a listener of its own: the accepted end's peer is us.
    private func ownerOfConnection(_ address: LoopbackAddress, lookup: @escaping @Sendable (Int32) -> UInt32?) throws -> UInt32? {
        let owners = Collected<UInt32?>()
        let options = LoopbackServer.Options(admits: { fd in
            owners.append(lookup(fd))
            return true
        })
        let watched = try LoopbackServer(port: 0, primary: address, options: options)
        let port = watched.port
        onClientThread { _ = request(port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n", address: address) }
        if case .held(let held) = watched.next(until: ContinuousClock().now.advanced(by: .seconds(5)), handle: { _ in .hold }) {
            held.respond(.text(200, "ok\n"))
        }
        return owners.values.first ?? nil
    }

    @Test(arguments: [LoopbackAddress.ipv4, .ipv6])
    func theKernelNamesThisUserAsThePeer(address: LoopbackAddress) throws {
        guard address == .ipv4 || (try? LoopbackServer(port: 0, primary: .ipv6)) != nil else { return }
        #expect(try ownerOfConnection(address, lookup: PeerOwner.uid(ofPeerOf:)) == geteuid())
        #expect(try ownerOfConnection(address, lookup: PeerOwner.uidFromTable(ofPeerOf:)) == geteuid(), "the /proc/net table says the same")
    }

    @Test func theTableIsReadAsTheKernelPrintsIt() {
        // /proc/net/tcp as proc(5) shows it: a listener of uid 1000 on 127.0.0.1:8977, and two
        // connections to it, one of uid 1001.
        let table = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0100007F:2311 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 81 1 0000000000000000 100 0 0 10 0
               1: 0100007F:D431 0100007F:2311 01 00000000:00000000 00:00000000 00000000  1001        0 82 1 0000000000000000 20 4 30 10 -1
               2: 0100007F:2311 0100007F:D431 01 00000000:00000000 00:00000000 00000000  1000        0 83 1 0000000000000000 20 4 30 10 -1
            """
        #expect(PeerOwner.owner(local: "0100007F:D431", remote: "0100007F:2311", in: table) == 1001)
        #expect(PeerOwner.owner(local: "0100007F:D432", remote: "0100007F:2311", in: table) == nil)
    }

    @Test func addressesAreWrittenAsTheKernelWritesThem() {
        var v4 = sockaddr_in()
        v4.sin_family = sa_family_t(AF_INET)
        v4.sin_port = UInt16(8977).bigEndian
        v4.sin_addr.s_addr = inet_addr("127.0.0.1")
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { raw in withUnsafeBytes(of: v4) { raw.copyMemory(from: $0) } }
        #expect(PeerOwner.text(storage) == (Int(littleEndian: 1) == 1 ? "0100007F:2311" : "7F000001:2311"))
    }

    @Test func aRefusedConnectionIsClosedBeforeItIsRead() throws {
        let server = try LoopbackServer(port: 0, options: LoopbackServer.Options(admits: { _ in false }))
        let port = server.port
        let answers = Collected<Int>()
        onClientThread {
            let connection = try? LoopbackConnection(port: port, timeoutSeconds: 5)
            connection?.send("GET /start?n=secret HTTP/1.1\r\nHost: x\r\n\r\n")
            answers.append(connection?.readToEnd().count ?? -1)
        }
        let event = server.next(until: ContinuousClock().now.advanced(by: .milliseconds(500))) { _ in
            Issue.record("a refused connection must not be read")
            return .respond(.text(200, "no\n"))
        }
        guard case .deadlineReached = event else { Issue.record("\(event)"); return }
        #expect(eventually(within: 5) { !answers.values.isEmpty })
        #expect(answers.values == [0], "closed without an answer")
        #expect(server.refusedConnections == 1)
    }
}
