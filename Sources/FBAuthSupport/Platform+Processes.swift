// Programs fbauth starts, and signals (see Platform.swift).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

extension Platform {
    // MARK: - Processes

    /// Starts `arguments[0]` (looked up in PATH) directly, never through a shell. Its stdin is
    /// /dev/null and its stdout goes to our stderr, keeping our stdout for data only. Returns
    /// the process id, or the errno of a failed start.
    package static func spawn(_ arguments: [String], environment: [String: String]) -> Result<Int32, FileProblem> {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        // Nothing but the standard streams reaches the program, whatever a library left open.
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t?
        posix_spawnattr_init(&attributes)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
        posix_spawn_file_actions_addinherit_np(&actions, 0)
        posix_spawn_file_actions_addinherit_np(&actions, 1)
        posix_spawn_file_actions_addinherit_np(&actions, 2)
        defer { posix_spawnattr_destroy(&attributes) }
        #else
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        closeOnExecBeyondStandardStreams()
        #endif

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else { return .failure(.failed(operation: "cannot start", path: arguments[0], code: result)) }
        return .success(pid)
    }

    /// The absolute path of the running executable, symbolic links resolved.
    package static func executablePath() -> String? {
        #if os(macOS)
        var size: UInt32 = 0
        _ = _NSGetExecutablePath(nil, &size)
        var buffer = [CChar](repeating: 0, count: Int(size) + 1)
        guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
        return URL(fileURLWithPath: String(cString: buffer)).resolvingSymlinksInPath().path
        #else
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #endif
    }

    /// Replaces this process with `path`, keeping the environment and standard streams. Returns
    /// only on failure, with the errno.
    package static func replaceProcess(with path: String, arguments: [String]) -> Int32 {
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        let code = errno
        argv.forEach { free($0) }
        return code
    }

    /// The exit status of a child that has ended, or nil while it runs.
    package static func exitStatusIfEnded(_ pid: Int32) -> Int32? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Blocks until SIGINT or SIGTERM ends the process.
    package static func waitUntilTerminated() -> Never {
        while true { pause() }
    }

    /// Blocks until `descriptor` is readable (an interrupt's pipe).
    package static func waitUntilReadable(_ descriptor: Int32) {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while poll(&entry, 1, -1) < 0, errno == EINTR {}
    }

    /// Turns SIGINT and SIGTERM into a readable byte on a pipe while it is active, so a poll
    /// loop can stop cleanly (close the listener, leave the store alone) instead of dying.
    package final class SignalInterrupts: InterruptWatch, @unchecked Sendable {
        // Immutable after init; the handler only writes a byte to the pipe.
        private let pipe: WakePipe

        package init?() {
            guard let pipe = WakePipe() else { return nil }
            self.pipe = pipe
            interruptPipe = pipe.signalDescriptor
            signal(SIGINT, forwardInterrupt)
            signal(SIGTERM, forwardInterrupt)
            // A parent may have left these blocked (the mask is inherited); Ctrl-C must still work.
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGINT)
            sigaddset(&signals, SIGTERM)
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        }

        package var descriptor: Int32 { pipe.readDescriptor }

        package func end() {
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
            interruptPipe = -1
        }

        deinit { end() }
    }

    /// No core dump, for this process or those it starts: a crash while tokens are in memory
    /// must not leave them in a file (as ssh-agent and gpg-agent do). Soft and hard limit, so
    /// that nothing can raise it again.
    package static func disableCoreDumps() {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        #if canImport(Glibc)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
        #else
        _ = setrlimit(RLIMIT_CORE, &none)
        #endif
    }

    /// Ignores SIGPIPE, so writing to a closed pipe (`fbauth token | head -c1`) or socket is an
    /// error return, not a crash.
    package static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }
}

/// The pipe the signal handler writes to; only `write(2)`, which is async-signal-safe.
nonisolated(unsafe) private var interruptPipe: Int32 = -1

private func forwardInterrupt(_ signal: Int32) {
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(interruptPipe, &byte, 1)
}
