import Foundation

/// The library's Linux seams (`LinuxSeams`) are process-wide, and every test target runs in one
/// process: a test that sets them and makes an `Auth` holds this lock meanwhile, so that another
/// test's settings never reach its `Auth`.
public let linuxSeamsLock = NSLock()

/// Lines a seam hands out (a log, a progress line), collected from any thread.
public final class CollectedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    public init() {}

    public func add(_ line: String) { lock.withLock { lines.append(line) } }
    public var all: [String] { lock.withLock { lines } }
}
