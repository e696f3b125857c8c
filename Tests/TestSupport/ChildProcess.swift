#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A child process started with `posix_spawn`, for tests. Not Foundation's `Process`: its
/// `run()` on Linux reads past a buffer while it lists `/proc/self/fd` and crashed this suite
/// now and then (swift-corelibs-foundation pull request 5472, "Process.run() on Linux crashes
/// intermittently"). The child gets the given descriptors as stdin, stdout and stderr and no
/// other descriptor of the test process.
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    private let exited = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var rawStatus: Int32?

    public struct SpawnFailure: Error, CustomStringConvertible {
        public var description: String
    }

    /// `stdin` nil: /dev/null. `stdout`/`stderr` nil: /dev/null.
    public init(_ executable: String, _ arguments: [String], environment: [String: String], directory: String? = nil,
                stdin: Int32? = nil, stdout: Int32? = nil, stderr: Int32? = nil) throws {
        #if os(Linux)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (source, target) in [(stdin, Int32(0)), (stdout, Int32(1)), (stderr, Int32(2))] {
            if let source {
                posix_spawn_file_actions_adddup2(&actions, source, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            }
        }
        #if os(Linux)
        // glibc's _np additions (2.29, 2.34), which its Swift module does not declare.
        if let directory { _ = Spawn.addChdir(&actions, directory) }
        _ = Spawn.addClosefrom(&actions, 3)
        var attributes = posix_spawnattr_t()
        #else
        if let directory { posix_spawn_file_actions_addchdir_np(&actions, directory) }
        var attributes: posix_spawnattr_t?
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Signals the test process ignores or blocks stay as the child expects them.
        var defaults = sigset_t()
        sigfillset(&defaults)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        #if canImport(Darwin)
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw SpawnFailure(description: "cannot start \(executable): \(String(cString: strerror(result)))") }
        pid = child
        let spawned = child
        Thread.detachNewThread { [self] in
            var status: Int32 = 0
            while waitpid(spawned, &status, 0) == -1 && errno == EINTR {}
            lock.withLock { rawStatus = status }
            exited.signal()
        }
    }

    public var isRunning: Bool { lock.withLock { rawStatus == nil } }

    /// Waits for the exit (at most `timeout` seconds); true when it exited.
    @discardableResult
    public func wait(timeout: Double? = nil) -> Bool {
        guard let timeout else {
            exited.wait()
            exited.signal()
            return true
        }
        guard exited.wait(timeout: .now() + timeout) == .success else { return false }
        exited.signal()
        return true
    }

    /// The exit code, or the number of the signal that ended it (as Foundation's
    /// `terminationStatus`); -1 while it runs.
    public var terminationStatus: Int32 {
        lock.withLock {
            guard let status = rawStatus else { return -1 }
            return status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
        }
    }

    public func signal(_ number: Int32) { kill(pid, number) }
}


#if os(Linux)
/// `posix_spawn_file_actions_addchdir_np` and `_addclosefrom_np`, looked up in the C library.
private enum Spawn {
    typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    typealias AddClosefrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    nonisolated(unsafe) private static let library = dlopen(nil, RTLD_NOW)
    static let addChdir = unsafeBitCast(dlsym(library, "posix_spawn_file_actions_addchdir_np"), to: AddChdir.self)
    static let addClosefrom = unsafeBitCast(dlsym(library, "posix_spawn_file_actions_addclosefrom_np"), to: AddClosefrom.self)
}
#endif
