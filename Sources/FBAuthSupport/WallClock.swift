#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The time of day, for token expiry decisions. Tests pass a fixed clock.
package protocol WallClock: Sendable {
    func now() -> Date
}

package struct SystemClock: WallClock {
    package init() {}
    package func now() -> Date { Date() }
}

/// Elapsed time, for deadlines, hints and durations (not the time of day). A seam, so that tests
/// of timeouts and hints run on a clock they move themselves.
package protocol MonotonicClock: Sendable {
    var now: ContinuousClock.Instant { get }
}

package struct SystemMonotonicClock: MonotonicClock {
    package init() {}
    package var now: ContinuousClock.Instant { ContinuousClock.now }
}

/// Waiting, for the pause before a retry. Tests record the pause instead of taking it.
package protocol Sleeper: Sendable {
    func sleep(for duration: Duration)
}

package struct ThreadSleeper: Sleeper {
    package init() {}
    package func sleep(for duration: Duration) {
        Platform.sleep(for: duration)
    }
}
