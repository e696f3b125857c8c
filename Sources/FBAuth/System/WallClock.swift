#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The time of day, for token expiry decisions. Tests pass a fixed clock.
public protocol WallClock: Sendable {
    func now() -> Date
}

public struct SystemClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// Elapsed time, for deadlines, hints and durations (not the time of day). A seam, so that tests
/// of timeouts and hints run on a clock they move themselves.
public protocol MonotonicClock: Sendable {
    var now: ContinuousClock.Instant { get }
}

public struct SystemMonotonicClock: MonotonicClock {
    public init() {}
    public var now: ContinuousClock.Instant { ContinuousClock.now }
}

/// Waiting, for the pause before a retry. Tests record the pause instead of taking it.
public protocol Sleeper: Sendable {
    func sleep(for duration: Duration)
}

public struct ThreadSleeper: Sleeper {
    public init() {}
    public func sleep(for duration: Duration) {
        Platform.sleep(for: duration)
    }
}
