import Foundation

/// Starts child processes one at a time. swift-corelibs-foundation's `Process.run()` on Linux
/// crashed (SIGSEGV in memcpy) twice in this suite when many tests launched processes at once;
/// the launches are serialized (the children still run in parallel).
public enum ProcessLaunch {
    private static let lock = NSLock()

    public static func run(_ process: Process) throws {
        lock.lock()
        defer { lock.unlock() }
        try process.run()
    }
}
