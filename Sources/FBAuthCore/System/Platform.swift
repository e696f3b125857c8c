// The POSIX calls fbauth's core needs beyond sockets: terminals, file locks, atomic files and
// launching programs. All platform-specific code of FBAuthCore lives in this file.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import LoopbackHTTP

public enum Platform {
    /// errno as a sentence.
    public static func describe(errno code: Int32) -> String { String(cString: strerror(code)) }

    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// The process environment. Read from `environ` directly: Foundation's ProcessInfo costs
    /// a scan of the runtime's conformance tables, about half a millisecond at start-up.
    public static func environment() -> [String: String] {
        #if canImport(Darwin)
        return ProcessInfo.processInfo.environment  // dynamic linking there; no scan to avoid
        #else
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            if let equals = strchr(pointer, Int32(UInt8(ascii: "="))) {
                let name = String(decoding: UnsafeRawBufferPointer(start: pointer, count: equals - pointer), as: UTF8.self)
                result[name] = String(cString: equals + 1)
            }
            entry += 1
        }
        return result
        #endif
    }

    /// Seconds since 1970 for a UTC calendar date and time.
    public static func secondsSince1970(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int {
        var time = tm()
        time.tm_year = Int32(year - 1900)
        time.tm_mon = Int32(month - 1)
        time.tm_mday = Int32(day)
        time.tm_hour = Int32(hour)
        time.tm_min = Int32(minute)
        time.tm_sec = Int32(second)
        return timegm(&time)
    }

    /// Writes all of `text` to a descriptor (stdout, stderr), unbuffered.
    public static func write(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = posixWrite(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    /// Runs `body` with terminal echo off on stdin (for password prompts), restoring it after.
    public static func withTerminalEchoDisabled<T>(_ body: () -> T) -> T {
        var original = termios()
        guard tcgetattr(0, &original) == 0 else { return body() }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(0, TCSAFLUSH, &silent)
        defer { tcsetattr(0, TCSAFLUSH, &original) }
        return body()
    }

    // MARK: - Files

    public enum FileProblem: Error {
        case failed(operation: String, path: String, code: Int32)

        public var description: String {
            switch self {
            case .failed(let operation, let path, let code): "\(operation) \(path): \(Platform.describe(errno: code))"
            }
        }
    }

    /// Creates a directory and any missing parents with mode 0700 (never changing an existing one).
    public static func makeDirectory(_ path: String) throws(FileProblem) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeDirectory(parent) }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw .failed(operation: "cannot create directory", path: path, code: errno)
        }
    }

    /// Replaces the file at `path` with `data` so that no reader ever sees half a file: a new
    /// file created with `mode` in the same directory, flushed to disk, renamed over the old one.
    public static func writeAtomically(_ data: Data, to path: String, mode: mode_t = 0o600) throws(FileProblem) {
        let temporary = "\(path).tmp-\(getpid())"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw .failed(operation: "cannot create", path: temporary, code: errno) }
        var failure: FileProblem?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = posixWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = .failed(operation: "cannot write", path: temporary, code: errno)
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = .failed(operation: "cannot flush", path: temporary, code: errno) }
        close(fd)
        if failure == nil, rename(temporary, path) != 0 { failure = .failed(operation: "cannot replace", path: path, code: errno) }
        if let failure {
            unlink(temporary)
            throw failure
        }
        // Make the rename itself durable.
        let directory = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    /// An exclusive advisory lock on a lock file, shared by every fbauth process. Released by
    /// `unlock()` or, if the process dies, by the kernel.
    public final class FileLock {
        private var fd: Int32

        public init(path: String) throws(FileProblem) {
            fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw .failed(operation: "cannot open lock file", path: path, code: errno) }
            while flock(fd, LOCK_EX) != 0 {
                if errno == EINTR { continue }
                let code = errno
                close(fd)
                throw .failed(operation: "cannot lock", path: path, code: code)
            }
        }

        deinit { unlock() }

        public func unlock() {
            guard fd >= 0 else { return }
            flock(fd, LOCK_UN)
            close(fd)
            fd = -1
        }
    }

    /// Creates a new private (0700) directory under the temporary directory.
    public static func makeTemporaryDirectory(prefix: String) throws(FileProblem) -> String {
        let base = (ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp")
        var template = Array((base + "/" + prefix + "XXXXXX").utf8CString)
        guard let result = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw .failed(operation: "cannot create a directory in", path: base, code: errno)
        }
        return String(cString: result)
    }

    public static func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    public static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

    /// Whether an executable with this name is on `PATH` (or at this path).
    public static func findExecutable(_ name: String, path: String?) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        for directory in (path ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    // MARK: - Processes

    /// Starts `arguments[0]` (looked up in PATH) directly, never through a shell. Its stdin is
    /// /dev/null and its stdout goes to our stderr, keeping our stdout for data only. Returns
    /// the process id, or the errno of a failed start.
    public static func spawn(_ arguments: [String], environment: [String: String]) -> Result<Int32, FileProblem> {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp)
        guard result == 0 else { return .failure(.failed(operation: "cannot start", path: arguments[0], code: result)) }
        return .success(pid)
    }

    /// The absolute path of the running executable, symbolic links resolved.
    public static func executablePath() -> String? {
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
    public static func replaceProcess(with path: String, arguments: [String]) -> Int32 {
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        let code = errno
        argv.forEach { free($0) }
        return code
    }

    /// The exit status of a child that has ended, or nil while it runs.
    public static func exitStatusIfEnded(_ pid: Int32) -> Int32? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Blocks until SIGINT or SIGTERM ends the process.
    public static func waitUntilTerminated() -> Never {
        while true { pause() }
    }

    /// Turns SIGINT and SIGTERM into a readable byte on a pipe while it is active, so a poll
    /// loop can stop cleanly (close the listener, leave the store alone) instead of dying.
    public final class SignalInterrupts: InterruptWatch, @unchecked Sendable {
        // Immutable after init; the handler only writes a byte to the pipe.
        private let pipe: WakePipe

        public init?() {
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

        public var descriptor: Int32 { pipe.readDescriptor }

        public func end() {
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
            interruptPipe = -1
        }

        deinit { end() }
    }

    /// Ignores SIGPIPE, so writing to a closed pipe (`fbauth token | head -c1`) or socket is an
    /// error return, not a crash.
    public static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }
}

/// The pipe the signal handler writes to; only `write(2)`, which is async-signal-safe.
nonisolated(unsafe) private var interruptPipe: Int32 = -1

private func forwardInterrupt(_ signal: Int32) {
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(interruptPipe, &byte, 1)
}

private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
