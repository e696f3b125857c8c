/// What to do with a complete request.
package enum Disposition: Sendable {
    /// Answer now, then close.
    case respond(HTTPResponse)
    /// Answer after a delay, then close (for simulating slow servers).
    case respondAfter(Duration, HTTPResponse)
    /// Close without answering (for simulating dropped connections).
    case drop
    /// Hand the request to the caller, who answers it later (`LoopbackEvent.held`).
    case hold
}

/// Why `LoopbackServer.next` returned.
package enum LoopbackEvent {
    /// A request the handler chose to `.hold`.
    case held(HeldRequest)
    /// The deadline passed with no held request.
    case deadlineReached
    /// One of the extra descriptors the caller asked to watch is readable.
    case readable(Int32)
}

package enum LoopbackListenError: Error, Sendable, Equatable {
    /// Another program listens on this port.
    case portInUse(UInt16)
    /// A required loopback address does not exist on this machine.
    case addressUnavailable(LoopbackAddress)
    case failed(SocketError)
}

/// An HTTP server bound to loopback addresses only — never a wildcard address — that serves
/// many connections at once from one thread with `poll`, so an idle or slow connection can
/// never block another. Each connection carries one request, bounded in size and time.
///
/// The caller drives it: `next(until:handle:)` runs until the handler holds a request, a
/// watched descriptor becomes readable, or the deadline passes.
package final class LoopbackServer {
    package struct Options: Sendable {
        package var limits: HTTPLimits
        /// How long a client may take to send its whole request.
        package var requestTimeout: Duration
        /// Connections served at once; beyond it the one that has made the least progress for
        /// the longest is closed.
        package var maxConnections: Int

        /// As many as `poll` and the descriptor limit allow, keeping room for everything else.
        package static var defaultMaxConnections: Int { max(32, min(4096, Socket.descriptorLimit() - 64)) }

        /// Decides, for each accepted connection and before a byte of it is read, whether it is
        /// served; a refused one is closed at once (fbauth's listener: only the user's own
        /// processes, `PeerOwner`). Nil: every connection is served.
        package var admits: (@Sendable (_ fd: Int32) -> Bool)?

        package init(limits: HTTPLimits = HTTPLimits(), requestTimeout: Duration = .seconds(10), maxConnections: Int = defaultMaxConnections,
                    admits: (@Sendable (_ fd: Int32) -> Bool)? = nil) {
            self.limits = limits
            self.requestTimeout = requestTimeout
            self.maxConnections = maxConnections
            self.admits = admits
        }
    }

    package let port: UInt16
    /// The addresses actually bound (IPv6 only where the machine has it).
    package let addresses: [LoopbackAddress]
    private let options: Options
    private var listeners: [Int32]
    private var connections: [Connection] = []
    private let clock = ContinuousClock()

    /// Binds `primary` on `port` (0: any free port) and the other loopback address on the same
    /// port where it exists, so `localhost` works whichever address a browser resolves it to.
    package init(port: UInt16, primary: LoopbackAddress = .ipv4, options: Options = Options()) throws(LoopbackListenError) {
        let secondary: LoopbackAddress = primary == .ipv4 ? .ipv6 : .ipv4
        let attempts = port == 0 ? 8 : 1
        for attempt in 1...attempts {
            let first: (fd: Int32, port: UInt16)
            do throws(SocketError) {
                first = try Socket.listen(on: primary, port: port)
            } catch {
                if error.isAddressInUse { throw .portInUse(port) }
                if error.isAddressUnavailable { throw .addressUnavailable(primary) }
                throw .failed(error)
            }
            do throws(SocketError) {
                let second = try Socket.listen(on: secondary, port: first.port)
                self.port = first.port
                self.listeners = [first.fd, second.fd]
                self.addresses = [primary, secondary]
                self.options = options
                return
            } catch {
                if error.isAddressUnavailable {
                    self.port = first.port
                    self.listeners = [first.fd]
                    self.addresses = [primary]
                    self.options = options
                    return
                }
                Socket.close(first.fd)
                // Port 0 gave a port free on one address only; pick another.
                if error.isAddressInUse && attempt < attempts { continue }
                throw error.isAddressInUse ? .portInUse(port) : .failed(error)
            }
        }
        throw .portInUse(port)
    }

    deinit { close() }

    /// Number of connections open right now (for tests and diagnostics).
    package var openConnectionCount: Int { connections.count }

    /// Connections closed unread because `Options.admits` refused them.
    package private(set) var refusedConnections = 0

    /// Runs the loop until something the caller must see happens. `handle` is called on this
    /// thread for each complete request.
    package func next(
        until deadline: ContinuousClock.Instant?,
        watching extraDescriptors: [Int32] = [],
        handle: (HTTPRequest) -> Disposition
    ) -> LoopbackEvent {
        while true {
            let now = clock.now
            expireConnections(now: now)
            if let deadline, now >= deadline { return .deadlineReached }

            var entries: [(fd: Int32, events: Int16)] = listeners.map { ($0, Socket.readable) }
            entries += connections.map { ($0.fd, $0.pollEvents) }
            entries += extraDescriptors.map { ($0, Socket.readable) }
            let ready = Socket.poll(entries, timeoutMilliseconds: pollTimeout(now: now, deadline: deadline))

            for (index, extra) in extraDescriptors.enumerated()
            where ready[listeners.count + connections.count + index] & (Socket.readable | Socket.failed) != 0 {
                return .readable(extra)
            }
            let connectionReady = Array(ready[listeners.count..<(listeners.count + connections.count)])
            if let held = serviceConnections(ready: connectionReady, handle: handle) { return .held(held) }
            for (index, listener) in listeners.enumerated() where ready[index] & Socket.readable != 0 {
                acceptAll(from: listener)
            }
        }
    }

    /// Closes every connection and the listening sockets, freeing the port.
    package func close() {
        for connection in connections { Socket.close(connection.fd) }
        connections.removeAll()
        for listener in listeners { Socket.close(listener) }
        listeners.removeAll()
    }

    // MARK: - Connections

    private struct Connection {
        enum Phase {
            case reading
            case delayed(until: ContinuousClock.Instant, bytes: [UInt8])
            case writing(bytes: [UInt8], offset: Int)
            case finished
        }

        let fd: Int32
        var received: [UInt8] = []
        var deadline: ContinuousClock.Instant
        var phase: Phase = .reading
        /// When the client last sent something (or connected).
        var lastProgress: ContinuousClock.Instant

        var pollEvents: Int16 {
            switch phase {
            case .reading: Socket.readable
            case .writing: Socket.writable
            case .delayed, .finished: 0
            }
        }

        var isReading: Bool {
            if case .reading = phase { return true }
            return false
        }
    }

    private func acceptAll(from listener: Int32) {
        while let fd = Socket.accept(listener) {
            if let admits = options.admits, !admits(fd) {
                Socket.close(fd)
                refusedConnections += 1
                continue
            }
            if connections.count >= options.maxConnections {
                // Browsers open spare connections they may never use, and a local program may
                // dribble bytes to hold places: make room by closing the one that has gone
                // longest without progress, rather than refusing the one that may carry the
                // callback (which arrives whole at once).
                let stalest = connections.indices.filter { connections[$0].isReading }
                    .min { connections[$0].lastProgress < connections[$1].lastProgress }
                guard let stalest else {
                    Socket.close(fd)
                    continue
                }
                Socket.close(connections[stalest].fd)
                connections.remove(at: stalest)
            }
            let now = clock.now
            connections.append(Connection(fd: fd, deadline: now.advanced(by: options.requestTimeout), lastProgress: now))
        }
    }

    /// Reads and writes whatever is ready; returns a request the handler chose to hold.
    private func serviceConnections(ready: [Int16], handle: (HTTPRequest) -> Disposition) -> HeldRequest? {
        var held: HeldRequest?
        for index in ready.indices where ready[index] != 0 && held == nil {
            var connection = connections[index]
            switch connection.phase {
            case .reading:
                held = read(&connection, handle: handle)
            case .writing:
                write(&connection)
            case .delayed, .finished:
                break
            }
            connections[index] = connection
        }
        for index in connections.indices {
            if case .delayed(let until, let bytes) = connections[index].phase, clock.now >= until {
                connections[index].phase = .writing(bytes: bytes, offset: 0)
                write(&connections[index])
            }
        }
        removeFinished()
        return held
    }

    private func read(_ connection: inout Connection, handle: (HTTPRequest) -> Disposition) -> HeldRequest? {
        switch Socket.read(connection.fd) {
        case .wouldBlock:
            return nil
        case .closed:
            connection.phase = .finished
            return nil
        case .bytes(let bytes):
            connection.received += bytes
            connection.lastProgress = clock.now
        }
        switch HTTPRequestParser.parse(connection.received, limits: options.limits) {
        case .needMoreData:
            return nil
        case .failed(let failure):
            startWriting(&connection, HTTPResponse.text(failure.status, "\(HTTPResponse.reasonPhrase(failure.status))\n"))
            return nil
        case .complete(let request, _):
            switch handle(request) {
            case .respond(let response):
                startWriting(&connection, response)
            case .respondAfter(let delay, let response):
                connection.phase = .delayed(until: clock.now.advanced(by: delay), bytes: response.serialized())
                connection.deadline = clock.now.advanced(by: delay + options.requestTimeout)
            case .drop:
                connection.phase = .finished
            case .hold:
                // The caller owns the socket from now on.
                let held = HeldRequest(request: request, fd: connection.fd)
                connection = Connection(fd: -1, deadline: connection.deadline, phase: .finished, lastProgress: connection.lastProgress)
                return held
            }
            return nil
        }
    }

    private func startWriting(_ connection: inout Connection, _ response: HTTPResponse) {
        connection.phase = .writing(bytes: response.serialized(), offset: 0)
        write(&connection)
    }

    private func write(_ connection: inout Connection) {
        guard case .writing(let bytes, let offset) = connection.phase else { return }
        guard let written = Socket.write(connection.fd, bytes[offset...]) else {
            connection.phase = .finished
            return
        }
        connection.phase = offset + written >= bytes.count ? .finished : .writing(bytes: bytes, offset: offset + written)
    }

    private func expireConnections(now: ContinuousClock.Instant) {
        for index in connections.indices where now >= connections[index].deadline {
            if case .reading = connections[index].phase, !connections[index].received.isEmpty {
                // Best effort: tell a slow client why it is cut off.
                _ = Socket.write(connections[index].fd, HTTPResponse.text(408, "Request Timeout\n").serialized()[...])
            }
            connections[index].phase = .finished
        }
        removeFinished()
    }

    private func removeFinished() {
        connections.removeAll { connection in
            guard case .finished = connection.phase else { return false }
            if connection.fd >= 0 { Socket.close(connection.fd) }
            return true
        }
    }

    private func pollTimeout(now: ContinuousClock.Instant, deadline: ContinuousClock.Instant?) -> Int32 {
        var wake = deadline
        for connection in connections {
            var due = connection.deadline
            if case .delayed(let until, _) = connection.phase { due = min(due, until) }
            wake = wake.map { min($0, due) } ?? due
        }
        guard let wake else { return -1 }
        let remaining = now.duration(to: wake)
        let milliseconds = remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, milliseconds + 1))
    }
}

/// A request taken out of the loop to be answered later, e.g. the OAuth callback, which is
/// answered only after the code exchange. The socket is closed when answered or released.
package final class HeldRequest {
    package let request: HTTPRequest
    private var fd: Int32

    init(request: HTTPRequest, fd: Int32) {
        self.request = request
        self.fd = fd
    }

    deinit { close() }

    /// Writes the response (waiting at most `timeout` for a slow reader) and closes the socket.
    package func respond(_ response: HTTPResponse, timeout: Duration = .seconds(5)) {
        guard fd >= 0 else { return }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        let bytes = response.serialized()
        var offset = 0
        while offset < bytes.count, clock.now < deadline {
            guard let written = Socket.write(fd, bytes[offset...]) else { break }
            offset += written
            if written == 0 { _ = Socket.poll([(fd, Socket.writable)], timeoutMilliseconds: 100) }
        }
        close()
    }

    package func close() {
        guard fd >= 0 else { return }
        Socket.close(fd)
        fd = -1
    }
}
