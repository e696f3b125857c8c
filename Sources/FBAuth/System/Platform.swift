// The POSIX calls fbauth's core needs beyond sockets: terminals, file locks, atomic files and
// launching programs. All platform-specific code of FBAuth lives in this file (LoopbackHTTP has its own).
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

package enum Platform {
    /// macOS always has a graphical session for `open`.
    package static var isMacOS: Bool {
        #if os(macOS)
        true
        #else
        false
        #endif
    }

    /// Ends the process with `status`, flushing C's standard streams.
    package static func exit(_ status: Int32) -> Never {
        #if canImport(Glibc)
        Glibc.exit(status)
        #else
        Darwin.exit(status)
        #endif
    }

    /// Blocks the calling thread for `duration`.
    package static func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }

    /// `a/b/c` → `a/b`; `c` → `` (as NSString's `deletingLastPathComponent`).
    package static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `a/b/c` → `c`.
    package static func fileName(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The user's home directory from the password database (when `HOME` is unset).
    package static func homeDirectory() -> String { String(decoding: homeDirectoryBytes(), as: UTF8.self) }

    /// The same as bytes, valid until the next password-database call ("/" when not found).
    package static func homeDirectoryBytes() -> UnsafeRawBufferPointer {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else {
            return ("/" as StaticString).bytes
        }
        return UnsafeRawBufferPointer(start: directory, count: strlen(directory))
    }

    /// Whether `path` is a directory (following symbolic links).
    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// errno as a sentence.
    package static func describe(errno code: Int32) -> String { String(cString: strerror(code)) }

    package static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// One environment variable, read with `getenv`: no dictionary of all of them.
    package static func variable(_ name: String) -> String? {
        name.withCString(variableBytes).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The same as the bytes libc keeps, valid while the environment is not changed.
    package static func variableBytes(_ name: UnsafePointer<CChar>) -> UnsafeRawBufferPointer? {
        getenv(name).map { UnsafeRawBufferPointer(start: $0, count: strlen($0)) }
    }

    /// The process environment. Read from `environ` directly: Foundation's ProcessInfo costs
    /// a scan of the runtime's conformance tables, about half a millisecond at start-up.
    package static func environment() -> [String: String] {
        #if canImport(Darwin)
        return ProcessInfo.processInfo.environment  // dynamic linking there; no scan to avoid
        #else
        var count = 0
        while environ[count] != nil { count += 1 }
        var result: [String: String] = [:]
        result.reserveCapacity(count)
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

    /// Writes all of `text` to a descriptor (stdout, stderr), unbuffered. Returns the errno of
    /// a failed or short write (EIO when the descriptor takes no more), nil when all was written.
    @discardableResult
    package static func write(_ text: String, to fd: Int32) -> Int32? {
        var text = text
        return text.withUTF8 { write(UnsafeRawBufferPointer($0), to: fd) }
    }

    /// The same for bytes.
    @discardableResult
    package static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = posixWrite(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return written < 0 ? errno : EIO }
            offset += written
        }
        return nil
    }

    /// Everything a descriptor yields until its end (stdin for `-` arguments); `name` is for
    /// the error.
    package static func readAll(_ fd: Int32, name: String = "standard input") throws(FileProblem) -> Data {
        Data(try readAllBytes(fd, name: name))
    }

    /// The same as bytes (no `Data`, whose machinery `fbauth token`'s quick path does without),
    /// at most `limit` of them.
    private static func readAllBytes(_ fd: Int32, name: String, limit: Int = .max) throws(FileProblem) -> [UInt8] {
        var bytes: [UInt8] = []
        // Left uninitialized: zeroing 64 KiB would touch 16 pages that a small file never uses.
        var buffer = [UInt8](unsafeUninitializedCapacity: 64 * 1024) { _, count in count = 64 * 1024 }
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw .failed(operation: "cannot read", path: name, code: errno)
            }
            if count == 0 { return bytes }
            buffer.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<count])) }
            if bytes.count > limit { throw .tooLarge(path: name, limit: limit) }
        }
    }

    /// Opens /dev/null on any of descriptors 0, 1 and 2 that is closed (`fbauth <&- >&-`), so
    /// that no descriptor fbauth opens later — a socket, the store — becomes a standard stream.
    package static func ensureStandardStreams() {
        for fd in Int32(0)...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
            if opened >= 0, opened != fd {
                dup2(opened, fd)
                close(opened)
            }
        }
    }

    /// What a prompt got: a line, the end of input, or Ctrl-C.
    package enum PromptAnswer: Equatable {
        case line(String)
        case endOfInput
        case interrupted
    }

    /// Reads one line from the terminal on stdin with echo off, restoring the terminal whatever
    /// happens: Ctrl-C (or SIGTERM) ends the read instead of the process, so the terminal is
    /// never left silent.
    package static func readLineWithoutEcho() -> PromptAnswer {
        guard let interrupts = SignalInterrupts() else { return withTerminalEchoDisabled { Swift.readLine(strippingNewline: true) }.map { .line($0) } ?? .endOfInput }
        defer { interrupts.end() }
        return withTerminalEchoDisabled {
            var bytes: [UInt8] = []
            while true {
                var entries = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: interrupts.descriptor, events: Int16(POLLIN), revents: 0)]
                if poll(&entries, 2, -1) < 0 {
                    if errno == EINTR { continue }
                    return .endOfInput
                }
                if entries[1].revents != 0 { return .interrupted }
                var byte: UInt8 = 0
                let count = read(0, &byte, 1)
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                if count <= 0 { return bytes.isEmpty ? .endOfInput : .line(String(decoding: bytes, as: UTF8.self)) }
                if byte == UInt8(ascii: "\n") { return .line(String(decoding: bytes, as: UTF8.self)) }
                bytes.append(byte)
                if bytes.count > 64 * 1024 { return .line(String(decoding: bytes, as: UTF8.self)) }
            }
        }
    }

    /// Runs `body` with terminal echo off on stdin (for password prompts), restoring it after.
    package static func withTerminalEchoDisabled<T>(_ body: () -> T) -> T {
        var original = termios()
        guard tcgetattr(0, &original) == 0 else { return body() }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(0, TCSAFLUSH, &silent)
        defer { tcsetattr(0, TCSAFLUSH, &original) }
        return body()
    }

    // MARK: - Files

    package enum FileProblem: Error {
        case failed(operation: String, path: String, code: Int32)
        /// Another process held the lock for longer than we wait.
        case busy(path: String, seconds: Int)
        /// A FIFO, device, socket or directory where a file was expected.
        case notRegularFile(path: String)
        /// Larger than fbauth reads (`maximumFileBytes`).
        case tooLarge(path: String, limit: Int)

        /// `64 KiB`, `16 MiB`: a limit in the unit it is a whole number of.
        static func size(_ bytes: Int) -> String {
            bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : bytes >= 1024 && bytes % 1024 == 0 ? "\(bytes >> 10) KiB" : "\(bytes) bytes"
        }

        package var description: String {
            switch self {
            case .failed(let operation, let path, let code) where code == ELOOP:
                "\(operation) \(path): it is a symbolic link, which fbauth does not follow there"
            case .failed(let operation, let path, let code): "\(operation) \(path): \(Platform.describe(errno: code))"
            case .busy(let path, let seconds): "\(path) stayed locked by another process for \(seconds) s"
            case .notRegularFile(let path): "\(path) is not a regular file (a FIFO, device, socket or directory), so fbauth does not read it"
            case .tooLarge(let path, let limit): "\(path) is larger than \(Self.size(limit)), more than fbauth reads"
            }
        }
    }

    /// The most fbauth reads of a file: the store of hundreds of sessions takes a few hundred
    /// kilobytes; anything much larger is not fbauth's, and reading it whole would cost its
    /// size in memory.
    package static let maximumFileBytes = 16 << 20

    /// Opens `path` to read, without blocking (a FIFO would otherwise hang the open and every
    /// read) and, unless `followingLinks`, never through a symbolic link; refuses anything but
    /// a regular file of at most `maximumFileBytes`. nil when there is no file.
    private static func openRegularFile(_ path: UnsafePointer<CChar>, followingLinks: Bool = false) -> Result<Int32, FileProblem>? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW))
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            return .failure(.failed(operation: "cannot read", path: String(cString: path), code: errno))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            return .failure(.failed(operation: "cannot read", path: String(cString: path), code: code))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            return .failure(.notRegularFile(path: String(cString: path)))
        }
        guard Int(info.st_size) <= maximumFileBytes else {
            close(fd)
            return .failure(.tooLarge(path: String(cString: path), limit: maximumFileBytes))
        }
        return .success(fd)
    }

    /// Why a directory may not hold secrets: another user owns it, or may write in it (and so
    /// replace or link its files). Nil when it is private to us, or does not exist yet.
    package static func untrustedDirectoryReason(_ path: String) -> String? {
        path.withCString(untrustedDirectory)?.reason
    }

    /// The same, as a value (the reason and its remedy).
    package static func untrustedDirectory(_ path: String) -> UntrustedDirectory? {
        path.withCString(untrustedDirectory)
    }

    package enum UntrustedDirectory: Equatable {
        case ownedByAnotherUser(uid_t)
        case writableByOthers(mode: mode_t)

        var reason: String {
            switch self {
            case .ownedByAnotherUser(let uid): "is owned by another user (uid \(uid))"
            case .writableByOthers(let mode): "can be written by other users (mode \(Platform.octal(mode)))"
            }
        }

        /// What to do about it: `chmod 700` fixes only a directory of the user's own that is
        /// not meant to be shared; a sticky folder (`/tmp`, mode 1777) or another user's is
        /// never to be made private, so another directory is the remedy there.
        package var chmodFixes: Bool {
            if case .writableByOthers(let mode) = self { return mode & 0o1000 == 0 }
            return false
        }
    }

    /// `0755`, `1777`: every bit of a mode, as `chmod` reads it.
    package static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The same for a C path, without a message.
    package static func untrustedDirectory(_ path: UnsafePointer<CChar>) -> UntrustedDirectory? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        if info.st_uid != geteuid() { return .ownedByAnotherUser(info.st_uid) }
        let mode = info.st_mode & 0o7777
        return mode & 0o022 != 0 ? .writableByOthers(mode: mode) : nil
    }

    /// The whole file, never through a symbolic link; nil when there is no file.
    package static func readFile(_ path: String) throws(FileProblem) -> Data? {
        try readFileBytes(path).map { Data($0) }
    }

    /// Lends the whole file to `body` from memory of its own, without Array or Data (`fbauth
    /// token`'s quick path, where a first Array costs more than the read); never through a
    /// symbolic link. Nil when there is no file or it cannot be read.
    package static func withFileBytes<T>(_ path: String, _ body: (UnsafeRawBufferPointer) -> T) -> T? {
        path.withCString { withFileBytes($0, body) }
    }

    /// The same for a C path.
    package static func withFileBytes<T>(_ path: UnsafePointer<CChar>, _ body: (UnsafeRawBufferPointer) -> T) -> T? {
        guard case .success(let fd)? = openRegularFile(path) else { return nil }
        defer { close(fd) }
        var capacity = 64 * 1024, count = 0
        guard var buffer = malloc(capacity) else { return nil }
        defer { free(buffer) }
        while true {
            let read = posixRead(fd, buffer + count, capacity - count)
            if read < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if read == 0 { return body(UnsafeRawBufferPointer(start: buffer, count: count)) }
            count += read
            if count > maximumFileBytes { return nil }  // it grew while being read
            if count == capacity {
                capacity *= 2
                guard let larger = realloc(buffer, capacity) else { return nil }
                buffer = larger
            }
        }
    }

    /// The permission bits of the regular file at `path` (links followed) when group or
    /// others may read it; nil for a file only its owner reads, a pipe or FIFO (process
    /// substitution), or no file.
    package static func modeReadableByOthers(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_mode & 0o044 != 0 else { return nil }
        return info.st_mode & 0o7777
    }

    /// A small input the user names (`--token-file`, `--mfa-code-file`): any file they can read,
    /// a FIFO or process substitution (`<(…)`) included, at most `limit` bytes.
    package static func readInput(_ path: String, limit: Int = 64 * 1024) throws(FileProblem) -> Data {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .failed(operation: "cannot read", path: path, code: errno) }
        defer { close(fd) }
        return Data(try readAllBytes(fd, name: path, limit: limit))
    }

    /// A file fbauth reads but does not own (an app config), symbolic links followed, with
    /// the same limits: a regular file of at most `maximumFileBytes`. nil when there is none.
    package static func readUserFile(_ path: String) throws(FileProblem) -> Data? {
        try readFileBytes(path, followingLinks: true).map { Data($0) }
    }

    /// The same as bytes.
    private static func readFileBytes(_ path: String, followingLinks: Bool = false) throws(FileProblem) -> [UInt8]? {
        let opened = path.withCString { openRegularFile($0, followingLinks: followingLinks) }
        guard let opened else { return nil }
        let fd = try opened.get()
        defer { close(fd) }
        let bytes = try readAllBytes(fd, name: path, limit: maximumFileBytes)
        return bytes
    }

    /// Creates and removes a file in `directory`, as saving the store will.
    package static func probeWritable(_ directory: String) throws(FileProblem) {
        let probe = "\(directory)/.fbauth-write-test-\(getpid())"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .failed(operation: "cannot create files in", path: directory, code: errno) }
        close(fd)
        unlink(probe)
    }

    /// Removes `PATH.tmp-PID` files left by fbauth processes that died while writing (they hold
    /// every refresh token of the store).
    package static func removeStaleTemporaryFiles(of path: String) {
        removeFilesOfDeadProcesses(in: parentDirectory(of: path), prefix: fileName(of: path) + ".tmp-")
    }

    /// Removes the files of `directory` named `PREFIX` + the id of a process that no longer runs
    /// (+ anything after the digits).
    package static func removeFilesOfDeadProcesses(in directory: String, prefix: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count).prefix(while: \.isNumber)), pid != getpid(),
                kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            unlink(directory + "/" + name)
        }
    }

    /// Creates a new file that only this user can read (mode 0600), never through a symbolic
    /// link and never over an existing file, holding `bytes`.
    package static func createPrivateFile(_ path: String, _ bytes: [UInt8]) throws(FileProblem) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .failed(operation: "cannot create", path: path, code: errno) }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { posixWrite(fd, $0.baseAddress!, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let code = errno
                unlink(path)
                throw .failed(operation: "cannot write", path: path, code: code)
            }
            offset += written
        }
    }

    package static func removeFile(_ path: String) { unlink(path) }

    package static var processID: Int32 { getpid() }

    /// `path` from the working directory when it is relative (`./fbauth-demo` →
    /// `/home/ada/fbauth-demo`): a path that is handed on — to a browser as a `file://` URL, to
    /// a saved setting, to a message the user copies — must not depend on where it is read.
    package static func absolutePath(_ path: String) -> String {
        guard !path.hasPrefix("/"), !path.isEmpty else { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let directory = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var parts = directory.split(separator: "/").map(String.init)
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(String(part))
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    package static func removeDirectory(_ path: String) { rmdir(path) }

    /// Creates a directory and any missing parents with mode 0700 (never changing an existing one).
    package static func makeDirectory(_ path: String) throws(FileProblem) {
        if isDirectory(path) { return }
        let parent = parentDirectory(of: path)
        if !parent.isEmpty, parent != path { try makeDirectory(parent) }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw .failed(operation: "cannot create directory", path: path, code: errno)
        }
    }

    /// Replaces the file at `path` with `data` so that no reader ever sees half a file: a new
    /// file created with `mode` in the same directory, flushed to disk, renamed over the old one.
    package static func writeAtomically(_ data: Data, to path: String, mode: mode_t = 0o600) throws(FileProblem) {
        let temporary = "\(path).tmp-\(getpid())"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
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
        let directory = open(parentDirectory(of: path), O_RDONLY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    /// An exclusive advisory lock on a lock file, shared by every fbauth process. Released by
    /// `unlock()` or, if the process dies, by the kernel. Waits at most `timeout`, calling
    /// `waiting` once if the lock is not free at once.
    package final class FileLock {
        private var fd: Int32

        package init(path: String, timeout: Duration = .seconds(20), waiting: () -> Void = {}) throws(FileProblem) {
            fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw .failed(operation: "cannot open lock file", path: path, code: errno) }
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: timeout)
            var told = false
            while flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                guard code == EWOULDBLOCK || code == EINTR else {
                    close(fd)
                    throw .failed(operation: "cannot lock", path: path, code: code)
                }
                guard clock.now < deadline else {
                    close(fd)
                    throw .busy(path: path, seconds: Int(timeout.components.seconds))
                }
                if !told, code == EWOULDBLOCK {
                    waiting()
                    told = true
                }
                usleep(20_000)
            }
        }

        deinit { unlock() }

        package func unlock() {
            guard fd >= 0 else { return }
            flock(fd, LOCK_UN)
            close(fd)
            fd = -1
        }
    }

    /// Creates a new private (0700) directory under the temporary directory.
    package static func makeTemporaryDirectory(prefix: String) throws(FileProblem) -> String {
        let base = (ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp")
        var template = Array((base + "/" + prefix + "XXXXXX").utf8CString)
        guard let result = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw .failed(operation: "cannot create a directory in", path: base, code: errno)
        }
        return String(cString: result)
    }

    package static func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    package static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

    /// Whether an executable with this name is on `PATH` (or at this path).
    package static func findExecutable(_ name: String, path: String?) -> String? {
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
        // fbauth's own descriptors are close-on-exec; a library's (libcurl's) may not be.
        if let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            for fd in names.compactMap({ Int32($0) }) where fd > 2 {
                let flags = fcntl(fd, F_GETFD)
                if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
            }
        }
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

private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
