import Foundation

/// The time of day, for token expiry decisions. Tests pass a fixed clock.
public protocol WallClock: Sendable {
    func now() -> Date
}

public struct SystemClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}
