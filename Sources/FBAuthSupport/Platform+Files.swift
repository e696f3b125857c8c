// Reading files: the store, small inputs the user names, app configs (see Platform.swift).
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
    // MARK: - Files

    package enum FileProblem: Error {
        case failed(operation: String, path: String, code: Int32)
        /// Another process held the lock for longer than we wait.
        case busy(path: String, seconds: Int)
        /// A FIFO, device, socket or directory where a file was expected.
        case notRegularFile(path: String)
        /// Larger than fbauth reads (`maximumFileBytes`).
        case tooLarge(path: String, limit: Int)
        /// A FIFO that nothing wrote to (and closed) in time.
        case noWriter(path: String, seconds: Int)
        /// Another user's file, or one others may write: not to be trusted (`reason`).
        case untrustedFile(path: String, reason: String)
        /// A loop of symbolic links on the way to `path` (as it was given), or more than 40.
        case tooManyLinks(path: String)

        /// `64 KiB`, `16 MiB`: a limit in the unit it is a whole number of.
        static func size(_ bytes: Int) -> String {
            bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : bytes >= 1024 && bytes % 1024 == 0 ? "\(bytes >> 10) KiB" : "\(bytes) bytes"
        }

        package var description: String {
            switch self {
            case .failed(let operation, let path, let code) where code == ELOOP:
                "\(operation) \(path): it is a symbolic link, which is not followed there"
            case .failed(let operation, let path, let code): "\(operation) \(path): \(Platform.describe(errno: code))"
            case .busy(let path, let seconds): "\(path) stayed locked by another process for \(seconds) s"
            case .notRegularFile(let path): "\(path) is not a regular file (a FIFO, device, socket or directory), so it is not read"
            case .tooLarge(let path, let limit): "\(path) is larger than \(Self.size(limit)), more than is read"
            case .noWriter(let path, let seconds): "\(path) is a FIFO that no program wrote to and closed within \(seconds) s"
            case .untrustedFile(let path, let reason): "\(path) \(reason), so it is not trusted"
            case .tooManyLinks(let path): "cannot open \(path): its symbolic links make a loop, or a chain of more than 40"
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
    static func openRegularFile(_ path: UnsafePointer<CChar>, followingLinks: Bool = false) -> Result<Int32, FileProblem>? {
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

    /// Lends all of `fd` to `body` from memory of its own, without Array or Data (`fbauth
    /// token`'s quick path, where a first Array costs more than the read). Nil when it cannot be
    /// read, or grows past `maximumFileBytes` while being read.
    static func withDescriptorBytes<T>(_ fd: Int32, _ body: (UnsafeRawBufferPointer) -> T) -> T? {
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
            if count > maximumFileBytes { return nil }
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
    /// a FIFO or process substitution (`<(…)`) included, at most `limit` bytes. A FIFO that no
    /// program writes to is given up after `fifoWait` (`.noWriter`), never waited on for ever.
    ///
    /// What is read is decided on what was opened (issue 47): another user's file or FIFO (root's
    /// is fine), or one others may write, could hand fbauth a credential of theirs, and is
    /// refused (`.untrustedFile`).
    package static func readInput(_ path: String, limit: Int = 64 * 1024, fifoWait: Duration = fifoWriterWait) throws(FileProblem) -> Data {
        // Opened without blocking: the open of a FIFO with no writer would wait for one.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .failed(operation: "cannot read", path: path, code: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .failed(operation: "cannot read", path: path, code: errno) }
        let kind = info.st_mode & S_IFMT
        if kind == S_IFREG || kind == S_IFIFO, let reason = untrustedFileReason(info) { throw .untrustedFile(path: path, reason: reason) }
        if (info.st_mode & S_IFMT) == S_IFIFO {
            return Data(try readPipe(fd, name: path, limit: limit, wait: fifoWait))
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return Data(try readAllBytes(fd, name: path, limit: limit))
    }

    /// How long a FIFO given as an input may go without a writer (or without its end).
    package static let fifoWriterWait: Duration = .seconds(30)

    /// All of a FIFO opened without blocking, until its writer closes it, within `wait`.
    private static func readPipe(_ fd: Int32, name: String, limit: Int, wait: Duration) throws(FileProblem) -> [UInt8] {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: wait)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let left = deadline - clock.now
            guard left > .zero else { throw .noWriter(path: name, seconds: Int(wait.components.seconds)) }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1, 60_000))
            let ready = poll(&entry, 1, milliseconds)
            if ready < 0, errno != EINTR { throw .failed(operation: "cannot read", path: name, code: errno) }
            guard ready > 0 else { continue }
            // Linux reports the end (POLLHUP) only once a writer came and went; a FIFO that
            // never had one stays silent until the deadline.
            let count = read(fd, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .failed(operation: "cannot read", path: name, code: errno)
            }
            if count == 0 { return bytes }
            bytes += buffer[0..<count]
            if bytes.count > limit { throw .tooLarge(path: name, limit: limit) }
        }
    }

    /// A file fbauth reads but does not own (an app config), symbolic links followed, with
    /// the same limits: a regular file of at most `maximumFileBytes`. nil when there is none.
    package static func readUserFile(_ path: String, limit: Int = maximumFileBytes) throws(FileProblem) -> Data? {
        try readFileBytes(path, followingLinks: true, limit: limit).map { Data($0) }
    }

    /// The same as bytes.
    private static func readFileBytes(_ path: String, followingLinks: Bool = false, limit: Int = maximumFileBytes) throws(FileProblem) -> [UInt8]? {
        let opened = path.withCString { openRegularFile($0, followingLinks: followingLinks) }
        guard let opened else { return nil }
        let fd = try opened.get()
        defer { close(fd) }
        let bytes = try readAllBytes(fd, name: path, limit: limit)
        return bytes
    }
}
