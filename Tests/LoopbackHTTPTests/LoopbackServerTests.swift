import Foundation
import LoopbackHTTP
import TestSupport
import Testing

/// Collects values from client threads.
final class Collected<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [T] = []
    func append(_ item: T) { lock.withLock { items.append(item) } }
    var values: [T] { lock.withLock { items } }
}

/// Runs client code on another thread while the test thread drives the server.
func onClientThread(_ body: @escaping @Sendable () -> Void) {
    Thread.detachNewThread(body)
}

func request(_ port: UInt16, _ text: String, address: LoopbackAddress = .ipv4) -> ReceivedResponse? {
    guard let connection = try? LoopbackConnection(address: address, port: port, timeoutSeconds: 5) else { return nil }
    connection.send(text)
    return ReceivedResponse(parsing: connection.readToEnd())
}

@Suite struct LoopbackServerTests {
    let clock = ContinuousClock()
    let holdCallback: (HTTPRequest) -> Disposition = { request in
        request.path == "/cb" ? .hold : .respond(.text(404, "not here\n"))
    }

    @Test func strayRequestsAreAnsweredWhileTheCallbackIsHeld() throws {
        let server = try LoopbackServer(port: 0)
        let port = server.port
        let statuses = Collected<Int>()
        onClientThread {
            // A browser's spare connection that never sends anything.
            let idle = try? LoopbackConnection(port: port)
            statuses.append(request(port, "GET /favicon.ico HTTP/1.1\r\nHost: x\r\n\r\n")?.status ?? -1)
            statuses.append(request(port, "\u{16}\u{3}\u{1} garbage\r\n\r\n")?.status ?? -1)
            let oversized = "GET /cb HTTP/1.1\r\nX: " + String(repeating: "a", count: 10_000) + "\r\n\r\n"
            statuses.append(request(port, oversized)?.status ?? -1)
            let callback = request(port, "GET /cb?state=s HTTP/1.1\r\nHost: localhost\r\n\r\n")
            statuses.append(callback?.status ?? -1)
            #expect(callback?.bodyText == "done")
            idle?.close()
        }
        let event = server.next(until: clock.now + .seconds(10), handle: holdCallback)
        guard case .held(let held) = event else { Issue.record("got \(event)"); return }
        #expect(held.request.target == "/cb?state=s")
        #expect(statuses.values == [404, 400, 431])
        held.respond(.text(200, "done"))
        try waitUntil { statuses.values.count == 4 }
        #expect(statuses.values == [404, 400, 431, 200])
        server.close()
    }

    @Test func aSlowClientSendingOneByteAtATimeIsServed() throws {
        let server = try LoopbackServer(port: 0)
        let port = server.port
        onClientThread {
            guard let connection = try? LoopbackConnection(port: port) else { return }
            for byte in "GET /cb?x=1 HTTP/1.1\r\nHost: a\r\n\r\n".utf8 {
                connection.send([byte])
                pace(.milliseconds(2))
            }
            _ = connection.readToEnd()
        }
        guard case .held(let held) = server.next(until: clock.now + .seconds(10), handle: holdCallback) else {
            Issue.record("not held"); return
        }
        #expect(held.request.queryItems.first?.value == "1")
        held.close()
    }

    @Test func manyIdleConnectionsCannotCrowdOutTheCallback() throws {
        let server = try LoopbackServer(port: 0, options: .init(maxConnections: 4))
        let port = server.port
        let idleOpened = DispatchSemaphore(value: 0)
        let callbackMaySend = DispatchSemaphore(value: 0)
        onClientThread {
            let idle = (0..<20).compactMap { _ in try? LoopbackConnection(port: port) }
            idleOpened.signal()
            callbackMaySend.wait()
            _ = request(port, "GET /cb HTTP/1.1\r\n\r\n")
            idle.forEach { $0.close() }
        }
        // The idle connections fill the server first; only then does the callback arrive.
        idleOpened.wait()
        for _ in 0..<200 where server.openConnectionCount < 4 {
            if case .held = server.next(until: clock.now + .milliseconds(50), handle: holdCallback) {
                Issue.record("held before the callback was sent"); return
            }
        }
        #expect(server.openConnectionCount == 4)
        callbackMaySend.signal()
        guard case .held(let held) = server.next(until: clock.now + .seconds(10), handle: holdCallback) else {
            Issue.record("not held"); return
        }
        held.close()
        #expect(server.openConnectionCount <= 4)
    }

    @Test func aClientThatNeverFinishesIsCutOffAtTheRequestTimeout() throws {
        let server = try LoopbackServer(port: 0, options: .init(requestTimeout: .milliseconds(200)))
        let port = server.port
        let statuses = Collected<Int>()
        onClientThread {
            guard let connection = try? LoopbackConnection(port: port) else { return }
            connection.send("GET /cb HTTP/1.1\r\nHost")
            statuses.append(ReceivedResponse(parsing: connection.readToEnd())?.status ?? -1)
        }
        #expect(server.next(until: clock.now + .seconds(1), handle: holdCallback).isDeadline)
        #expect(statuses.values == [408])
        #expect(server.openConnectionCount == 0)
    }

    @Test func reportsWatchedDescriptorsAndDeadlines() throws {
        let server = try LoopbackServer(port: 0)
        let start = clock.now
        #expect(server.next(until: start + .milliseconds(50), handle: holdCallback).isDeadline)
        #expect(clock.now - start >= .milliseconds(50))
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        _ = write(fds[1], "x", 1)
        guard case .readable(let fd) = server.next(until: nil, watching: [fds[0]], handle: holdCallback) else {
            Issue.record("not readable"); return
        }
        #expect(fd == fds[0])
        close(fds[0]); close(fds[1])
    }

    @Test func delayedAndDroppedResponses() throws {
        let server = try LoopbackServer(port: 0)
        let port = server.port
        let results = Collected<Int>()
        onClientThread {
            results.append(request(port, "GET /slow HTTP/1.1\r\n\r\n")?.status ?? -1)
            results.append(request(port, "GET /drop HTTP/1.1\r\n\r\n")?.status ?? -1)
        }
        let start = clock.now
        _ = server.next(until: start + .seconds(1)) { request in
            request.path == "/slow" ? .respondAfter(.milliseconds(300), .text(200, "late")) : .drop
        }
        #expect(results.values == [200, -1])
    }

    @Test func bindsLoopbackOnlyAndFreesThePortOnClose() throws {
        let server = try LoopbackServer(port: 0)
        let port = server.port
        #expect(server.addresses.first == .ipv4)
        #expect(throws: LoopbackListenError.portInUse(port)) { try LoopbackServer(port: port) }
        server.close()
        let again = try LoopbackServer(port: port)
        #expect(again.port == port)
    }

    static let hasIPv6Loopback = (try? LoopbackServer(port: 0)).map { server in
        defer { server.close() }
        return server.addresses.contains(.ipv6)
    } ?? false

    @Test(.enabled(if: hasIPv6Loopback, "this machine has no IPv6 loopback (::1)"))
    func servesIPv6LoopbackWhenTheMachineHasIt() throws {
        let server = try LoopbackServer(port: 0)
        let port = server.port
        onClientThread { _ = request(port, "GET /cb HTTP/1.1\r\n\r\n", address: .ipv6) }
        guard case .held(let held) = server.next(until: clock.now + .seconds(5), handle: holdCallback) else {
            Issue.record("not held"); return
        }
        held.close()
    }

    private func waitUntil(_ condition: () -> Bool) throws {
        _ = eventually(within: 5, condition)
    }
}

extension LoopbackEvent {
    var isDeadline: Bool {
        if case .deadlineReached = self { return true }
        return false
    }
}
