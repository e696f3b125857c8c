/// Ctrl-C (SIGINT, SIGTERM) as a readable descriptor while a wait is in progress.
public protocol InterruptSource: Sendable {
    func begin() -> InterruptWatch?
}

public protocol InterruptWatch: AnyObject {
    /// Becomes readable when an interrupt arrives.
    var descriptor: Int32 { get }
    /// Restores the default behaviour.
    func end()
}

/// The live source: signal handlers that write to a pipe.
public struct SignalInterruptSource: InterruptSource {
    public init() {}
    public func begin() -> InterruptWatch? { Platform.SignalInterrupts() }
}

/// For contexts that never wait (and tests that do not interrupt).
public struct NoInterrupts: InterruptSource {
    public init() {}
    public func begin() -> InterruptWatch? { nil }
}
