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
        // A peer that closed already (TIME_WAIT 06, FIN_WAIT2 05): the kernel lists it under
        // uid 0 with no inode, which names nobody.
        let closed = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0100007F:D433 0100007F:2311 06 00000000:00000000 03:00001770 00000000     0        0 0 3 0000000000000000
               1: 0100007F:D434 0100007F:2311 05 00000000:00000000 00:00000000 00000000     0        0 0 3 0000000000000000
               2: 0100007F:D435 0100007F:2311 01 00000000:00000000 00:00000000 00000000     0        0 0 1 0000000000000000 20 4 30 10 -1
            """
        for port in ["D433", "D434", "D435"] { #expect(PeerOwner.owner(local: "0100007F:\(port)", remote: "0100007F:2311", in: closed) == nil, "\(port)") }
    }

    /// A peer that connected and closed before it was checked is nobody's, not root's: as
    /// root, the kernel's uid 0 for a closed socket would have been this user.
    @Test func aPeerThatClosedAlreadyIsNobody() throws {
        let listener = try Socket.listen(on: .ipv4, port: 0)
        defer { close(listener.fd) }
        let client = try Socket.connect(to: .ipv4, port: listener.port, timeoutSeconds: 1)
        var accepted: Int32 = -1
        for _ in 0..<100 where accepted < 0 {
            if let fd = Socket.accept(listener.fd) { accepted = fd } else { _ = Socket.poll([(listener.fd, Socket.readable)], timeoutMilliseconds: 20) }
        }
        try #require(accepted >= 0)
        defer { close(accepted) }
        #expect(PeerOwner.uid(ofPeerOf: accepted) == geteuid(), "connected: this user")
        Socket.close(client)
        // The client's socket leaves ESTABLISHED once its FIN arrives here.
        _ = Socket.poll([(accepted, Socket.readable)], timeoutMilliseconds: 2000)
        #expect(PeerOwner.uid(ofPeerOf: accepted) == nil, "closed: nobody (netlink)")
        #expect(PeerOwner.uidFromTable(ofPeerOf: accepted) == nil, "closed: nobody (/proc/net/tcp)")
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
