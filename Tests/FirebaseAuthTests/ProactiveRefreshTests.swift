@testable import FirebaseAuth
import FBAuthStandIn
import Foundation
import Testing

/// Issue 58: while an ID-token listener is attached, the current user's token is refreshed five
/// minutes before it expires and the listener told, as firebase-js-sdk's proactive refresh does.
/// The timer is the test's: it records each delay and runs the work when the test says.
@Suite struct ProactiveRefreshTests {
    @Test func aListenedTokenIsRefreshedFiveMinutesBeforeItExpires() async throws {
        let setup = try StandInApp()
        let timer = ManualTimer()
        setup.auth.proactiveRefresh.use(timer.schedule)
        let user = try await setup.auth.signInAnonymously().user
        let first = try await user.getIDToken()
        #expect(timer.delays.isEmpty, "nothing listens yet: nothing is scheduled")

        let expiration = try await user.getIDTokenResult().expirationDate
        let told = Counter()
        let before = Date()
        let handle = setup.auth.addIDTokenDidChangeListener { _, _ in told.add() }
        let after = Date()
        let delay = try #require(timer.delays.last)
        // Five minutes before the token expires, reckoned from when the listener came.
        let soonest = expiration.timeIntervalSince(after) - 300, latest = expiration.timeIntervalSince(before) - 300
        #expect(soonest - 1 <= delay && delay <= latest + 1, "refreshed after \(delay) s, not in \(soonest)...\(latest)")

        let toldBefore = told.value
        try await timer.fireLast()
        let refreshed = try await user.getIDToken()
        #expect(refreshed != first, "the token was refreshed")
        for _ in 0..<500 where told.value == toldBefore { try await Task.sleep(for: .milliseconds(10)) }
        #expect(told.value > toldBefore, "the listener was told")
        #expect(timer.delays.count >= 2, "the next refresh was scheduled from the new token")

        setup.auth.removeIDTokenDidChangeListener(handle)
        #expect(timer.cancelled > 0, "the last listener's going stops it")
    }
}

/// A timer that runs nothing by itself.
private final class ManualTimer: @unchecked Sendable {
    private let lock = NSLock()
    private var scheduled: [(delay: TimeInterval, work: @Sendable () -> Void)] = []
    private var cancels = 0

    var delays: [TimeInterval] { lock.withLock { scheduled.map(\.delay) } }
    var cancelled: Int { lock.withLock { cancels } }

    func schedule(_ delay: TimeInterval, _ work: @escaping @Sendable () -> Void) -> Cancellation {
        lock.withLock { scheduled.append((delay, work)) }
        return Cancellation { [self] in lock.withLock { cancels += 1 } }
    }

    /// Runs the last scheduled work and waits until its refresh is done (a new schedule).
    func fireLast() async throws {
        let (count, work) = try lock.withLock { () throws -> (Int, @Sendable () -> Void) in
            guard let last = scheduled.last else { throw Nothing() }
            return (scheduled.count, last.work)
        }
        work()
        for _ in 0..<500 where delays.count == count { try await Task.sleep(for: .milliseconds(10)) }
    }

    private struct Nothing: Error {}
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}
