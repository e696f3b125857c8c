import Foundation

/// While anything listens to ID tokens (`addIDTokenDidChangeListener`, `idTokenChanges`), the
/// current user's token is refreshed five minutes before it expires, and the listeners told, as
/// firebase-js-sdk's proactive refresh does (`core/user/proactive_refresh.ts`): a network failure
/// is tried again after 30 s, doubling up to 16 min; any other failure stops it until the next
/// change of token or user. A program that keeps a listener therefore always holds a token with
/// minutes to run.
final class ProactiveRefresh: @unchecked Sendable {
    /// Starts `work` after `delay` seconds; the handle cancels it. Replaced by tests, which run
    /// the work when they choose rather than wait.
    typealias Timer = @Sendable (_ delay: TimeInterval, _ work: @escaping @Sendable () -> Void) -> Cancellation
    static let dispatchTimer: Timer = { delay, work in
        let item = UncheckedBox(DispatchWorkItem(block: work))
        DispatchQueue.global().asyncAfter(deadline: .now() + delay, execute: item.value)
        return Cancellation { item.value.cancel() }
    }

    static let offset: TimeInterval = 5 * 60
    static let firstRetry: TimeInterval = 30
    static let longestRetry: TimeInterval = 16 * 60

    /// What a refresh came to.
    enum RefreshAttempt {
        case refreshed
        case networkFailure
        case otherFailure
    }

    private let lock = NSLock()
    private var scheduled: Cancellation?
    private var retry = ProactiveRefresh.firstRetry
    private var timer: Timer = ProactiveRefresh.dispatchTimer

    /// Starts the scheduled work through `timer` from now on (a test's).
    func use(_ timer: @escaping Timer) {
        lock.withLock { self.timer = timer }
    }

    /// Schedules the next refresh for a token expiring at `expiration` (nil: no user, nothing to
    /// refresh), replacing the one scheduled.
    func schedule(expiration: Date?, now: Date = Date(), refresh: @escaping @Sendable () async -> RefreshAttempt) {
        lock.withLock {
            scheduled?.cancel()
            scheduled = nil
            retry = Self.firstRetry
            guard let expiration else { return }
            scheduled = start(after: max(0, expiration.timeIntervalSince(now) - Self.offset), refresh)
        }
    }

    /// Stops refreshing (the last listener went).
    func stop() {
        lock.withLock {
            scheduled?.cancel()
            scheduled = nil
        }
    }

    /// Called with the lock held.
    private func start(after delay: TimeInterval, _ refresh: @escaping @Sendable () async -> RefreshAttempt) -> Cancellation {
        timer(delay) { [weak self] in
            Task {
                // A success is told to the listeners, whose change schedules the next refresh.
                guard await refresh() == .networkFailure, let self else { return }
                self.lock.withLock {
                    let wait = self.retry
                    self.retry = min(self.retry * 2, Self.longestRetry)
                    self.scheduled = self.start(after: wait, refresh)
                }
            }
        }
    }
}

/// Cancels what was scheduled.
struct Cancellation: Sendable {
    let cancel: @Sendable () -> Void
}
