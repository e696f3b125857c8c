/// Ctrl-C (SIGINT, SIGTERM) as a readable descriptor while a wait is in progress.
package protocol InterruptSource: Sendable {
    func begin() -> InterruptWatch?
}

package protocol InterruptWatch: AnyObject {
    /// Becomes readable when an interrupt arrives.
    var descriptor: Int32 { get }
    /// Restores the default behaviour.
    func end()
}

/// The live source: signal handlers that write to a pipe.
package struct SignalInterruptSource: InterruptSource {
    package init() {}
    package func begin() -> InterruptWatch? { Platform.SignalInterrupts() }
}

/// For contexts that never wait (and tests that do not interrupt).
package struct NoInterrupts: InterruptSource {
    package init() {}
    package func begin() -> InterruptWatch? { nil }
}
