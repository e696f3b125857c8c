@testable import FBAuth
@testable import FBAuthCLI
import Foundation
import FBAuthSupport

/// A monotonic clock that moves only when a test moves it.
final class TestClock: MonotonicClock, @unchecked Sendable {
    private let lock = NSLock()
    private let base = ContinuousClock.now
    private var offset: Duration = .zero

    var now: ContinuousClock.Instant { lock.withLock { base.advanced(by: offset) } }
    var elapsed: Duration { lock.withLock { offset } }

    /// Moves the clock to `instant` (never backwards).
    func advance(to instant: ContinuousClock.Instant) {
        lock.withLock { offset = max(offset, base.duration(to: instant)) }
    }
}

/// Records each pause instead of taking it.
final class RecordingSleeper: Sleeper, @unchecked Sendable {
    private let lock = NSLock()
    private var taken: [Duration] = []
    var pauses: [Duration] { lock.withLock { taken } }
    func sleep(for duration: Duration) { lock.withLock { taken.append(duration) } }
}

/// Answers requests from a script, in order, and fails loudly on a request it did not expect.
final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [Result<HTTPClientResponse, TransportError>]
    private(set) var requests: [HTTPClientRequest] = []

    init(_ answers: [Result<HTTPClientResponse, TransportError>]) { self.answers = answers }

    func send(_ request: HTTPClientRequest) throws(TransportError) -> HTTPClientResponse {
        let next = lock.withLock { () -> Result<HTTPClientResponse, TransportError>? in
            requests.append(request)
            return answers.isEmpty ? nil : answers.removeFirst()
        }
        guard let next else { throw TransportError(.other, "unexpected request \(request.url)") }
        return try next.get()
    }

    var count: Int { lock.withLock { requests.count } }

    static func json(_ status: Int, _ body: String) -> Result<HTTPClientResponse, TransportError> {
        .success(HTTPClientResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(body.utf8)))
    }
}
