// A command fbauth runs for the user (`fbauth emulator exec -- CMD`): in the foreground, with
// fbauth's standard streams, the signals fbauth is sent passed on, its status returned.
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

extension Platform {
    /// Runs `arguments[0]` (looked up in `PATH`) with this process's standard streams and
    /// `environment`, and waits for it. Each signal the byte-per-signal pipe `interrupts` reports
    /// (`SignalInterrupts`: Ctrl-C, SIGTERM) is sent on to it, so that it can stop cleanly. It
    /// starts with every signal at its default and none blocked, whatever fbauth ignores
    /// (SIGPIPE), and with no descriptor of fbauth's but the standard streams. Its status: the
    /// exit code, or 128 + N for signal N, as a shell reports it.
    package static func runInForeground(_ arguments: [String], environment: [String: String], interrupts: Int32?) -> Result<Int32, FileProblem> {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        #if canImport(Darwin)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_CLOEXEC_DEFAULT))
        for fd in Int32(0)...2 { posix_spawn_file_actions_addinherit_np(&actions, fd) }
        #else
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        closeOnExecBeyondStandardStreams()
        #endif
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let started = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard started == 0 else { return .failure(.failed(operation: "cannot run", path: arguments[0], code: started)) }
        return .success(waitPassingSignals(pid, interrupts: interrupts))
    }

    /// Waits for `pid`, sending it each signal read from `interrupts` meanwhile.
    private static func waitPassingSignals(_ pid: pid_t, interrupts: Int32?) -> Int32 {
        var status: Int32 = 0
        while true {
            if let interrupts {
                var entry = pollfd(fd: interrupts, events: Int16(POLLIN), revents: 0)
                if poll(&entry, 1, 100) > 0 {
                    var signal: UInt8 = 0
                    if read(interrupts, &signal, 1) == 1 { kill(pid, Int32(signal)) }
                }
            }
            let waited = waitpid(pid, &status, interrupts == nil ? 0 : WNOHANG)
            if waited == pid { break }
            if waited < 0, errno != EINTR { return 127 }
        }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    #if !canImport(Darwin)
    /// fbauth's own descriptors are close-on-exec; a library's (libcurl's) may not be.
    static func closeOnExecBeyondStandardStreams() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return }
        for fd in names.compactMap({ Int32($0) }) where fd > 2 {
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
    }
    #endif
}
