// A directory of the user's own, opened once, whose files are read, written, locked and removed
// through its descriptor (issue 47; see Platform+Trust.swift for how it is opened).
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

/// Why a directory, or a directory above it, is not to be trusted with the user's files.
package struct UntrustedPath: Error, Equatable, Sendable {
    /// The directory asked for.
    package let target: String
    /// The one that failed the check: `target` itself or a directory above it.
    package let directory: String
    package let problem: Platform.UntrustedDirectory

    package var isAncestor: Bool { directory != target }

    /// `/x/shared can be written by other users (mode 0777)`, naming the directory above when
    /// it is one: `/x/shared, above /x/shared/me/fbauth, is owned by another user (uid 1001)`.
    package var description: String {
        isAncestor ? "\(directory), above \(target), \(problem.reason)" : "\(directory) \(problem.reason)"
    }

    /// The one line a refusal says: `subject` (`the config directory D`) and what another user
    /// could do (`another user could replace or read your sessions`), with the remedy.
    package func refusal(_ subject: String, risk: String) -> String {
        let why = isAncestor ? "\(subject) is inside \(directory), which \(problem.reason)" : "\(subject) \(problem.reason)"
        return "\(why), so \(risk); \(remedy)"
    }

    /// What the user can do: make their own directory private, or use another one.
    package var remedy: String {
        guard problem.chmodFixes else { return "use a directory of your own" }
        return isAncestor ? "run: chmod go-w '\(directory)'" : "run: chmod 700 '\(directory)'"
    }
}

package final class TrustedDirectory: @unchecked Sendable {
    /// As it was given (for messages).
    package let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    package enum OpenProblem: Error {
        case untrusted(UntrustedPath)
        case file(Platform.FileProblem)
    }

    /// Opens `path` through its ancestors (`Platform.walkToDirectory`); nil when it does not
    /// exist and is not to be made.
    package static func open(_ path: String, creating: Bool = false) throws(OpenProblem) -> TrustedDirectory? {
        switch path.withCString({ Platform.walkToDirectory($0, creating: creating) }) {
        case .opened(let fd): return TrustedDirectory(path: path, descriptor: fd)
        case .missing: return nil
        case .untrusted(let directory, let problem, let isTarget):
            throw .untrusted(UntrustedPath(target: isTarget ? directory : path, directory: directory, problem: problem))
        case .tooManyLinks: throw .file(.tooManyLinks(path: path))
        case .failed(let operation, let at, let code): throw .file(.failed(operation: operation, path: at, code: code))
        }
    }

    /// For `fbauth token`'s quick path: `body` with the descriptor of the directory at the C
    /// path `path` when it can be trusted; nil otherwise (the full path then says why).
    package static func withDescriptor<T>(_ path: UnsafePointer<CChar>, _ body: (Int32) -> T) -> T? {
        guard case .opened(let fd) = Platform.walkToDirectory(path, creating: false) else { return nil }
        defer { close(fd) }
        return body(fd)
    }

    private func pathOf(_ name: String) -> String { path + "/" + name }

    // MARK: - Reading

    /// The whole file `name` when it is a regular file (not a link) that the user or root owns
    /// and others cannot write; nil when there is none.
    package func read(_ name: String, limit: Int = Platform.maximumFileBytes) throws(Platform.FileProblem) -> Data? {
        guard let fd = try openOwnFile(name, limit: limit) else { return nil }
        defer { close(fd) }
        return Data(try Platform.readAllBytes(fd, name: pathOf(name), limit: limit))
    }

    private func openOwnFile(_ name: String, limit: Int) throws(Platform.FileProblem) -> Int32? {
        let result = name.withCString { Platform.openOwnFile(in: descriptor, $0, limit: limit) }
        switch result {
        case .success(let fd): return fd
        case .failure(.missing): return nil
        case .failure(.failed(let code)): throw .failed(operation: "cannot read", path: pathOf(name), code: code)
        case .failure(.notRegular): throw .notRegularFile(path: pathOf(name))
        case .failure(.tooLarge): throw .tooLarge(path: pathOf(name), limit: limit)
        case .failure(.untrusted(let reason)): throw .untrustedFile(path: pathOf(name), reason: reason)
        }
    }

    /// Whether the directory holds anything named `name` (a link included).
    package func holdsFile(_ name: String) -> Bool {
        var info = stat()
        return fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0
    }

    // MARK: - Writing

    /// Replaces `name` with `data` so that no reader ever sees half a file: a new file created
    /// with `mode` beside it, flushed to disk, renamed over the old one, all through this
    /// directory's descriptor.
    package func writeAtomically(_ data: Data, to name: String, mode: mode_t = 0o600) throws(Platform.FileProblem) {
        let temporary = "\(name).tmp-\(getpid())"
        unlinkat(descriptor, temporary, 0)
        let fd = openat(descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw .failed(operation: "cannot create", path: pathOf(temporary), code: errno) }
        var failure = data.withUnsafeBytes { Platform.writeAll(fd, $0, name: pathOf(temporary)) }
        if failure == nil, fsync(fd) != 0 { failure = .failed(operation: "cannot flush", path: pathOf(temporary), code: errno) }
        close(fd)
        if failure == nil, renameat(descriptor, temporary, descriptor, name) != 0 { failure = .failed(operation: "cannot replace", path: pathOf(name), code: errno) }
        if let failure {
            unlinkat(descriptor, temporary, 0)
            throw failure
        }
        fsync(descriptor)  // the rename itself, durable
    }

    /// Creates the new file `name` (mode 0600), never over an existing one or through a link.
    package func createPrivateFile(_ name: String, _ bytes: [UInt8]) throws(Platform.FileProblem) {
        let fd = openat(descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .failed(operation: "cannot create", path: pathOf(name), code: errno) }
        defer { close(fd) }
        if let failure = bytes.withUnsafeBytes({ Platform.writeAll(fd, $0, name: pathOf(name)) }) {
            unlinkat(descriptor, name, 0)
            throw failure
        }
    }

    /// Creates and removes a file, as saving will.
    package func probeWritable() throws(Platform.FileProblem) {
        let probe = ".fbauth-write-test-\(getpid())"
        let fd = openat(descriptor, probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .failed(operation: "cannot create files in", path: path, code: errno) }
        close(fd)
        unlinkat(descriptor, probe, 0)
    }

    package func remove(_ name: String) { unlinkat(descriptor, name, 0) }

    /// Removes the files named `PREFIX` + the id of a process that no longer runs (+ anything
    /// after the digits): what fbauth processes that died left behind.
    package func removeFilesOfDeadProcesses(prefix: String) {
        for name in names() where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count).prefix(while: \.isNumber)), pid != getpid(),
                  kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            unlinkat(descriptor, name, 0)
        }
    }

    private func names() -> [String] { Platform.entryNames(ofDirectory: descriptor) ?? [] }

    // MARK: - Locks

    /// An exclusive lock on the lock file `name` (see `Platform.FileLock`).
    package func lock(_ name: String, timeout: Duration = .seconds(20), waiting: () -> Void = {}) throws(Platform.FileProblem) -> Platform.FileLock {
        let fd = openat(descriptor, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .failed(operation: "cannot open lock file", path: pathOf(name), code: errno) }
        return try Platform.FileLock(descriptor: fd, path: pathOf(name), timeout: timeout, waiting: waiting)
    }

    /// Removes a lock file nobody holds: taken first, so a process that holds it keeps it.
    package func removeUnheldLock(_ name: String) {
        let fd = openat(descriptor, name, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return }
        unlinkat(descriptor, name, 0)
    }
}

extension Platform {
    enum OwnFileProblem: Error {
        case missing, notRegular, tooLarge
        case failed(Int32)
        case untrusted(String)
    }

    /// Opens `name` in the directory `directory` to read, without blocking or following a link,
    /// and checks what was opened: a regular file of at most `limit` bytes, the user's or root's,
    /// that others cannot write.
    static func openOwnFile(in directory: Int32, _ name: UnsafePointer<CChar>, limit: Int) -> Result<Int32, OwnFileProblem> {
        let fd = openat(directory, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return .failure(errno == ENOENT ? .missing : .failed(errno)) }
        var info = stat()
        let problem: OwnFileProblem?
        if fstat(fd, &info) != 0 {
            problem = .failed(errno)
        } else if (info.st_mode & S_IFMT) != S_IFREG {
            problem = .notRegular
        } else if let reason = untrustedFileReason(info) {
            problem = .untrusted(reason)
        } else if Int(info.st_size) > limit {
            problem = .tooLarge
        } else {
            problem = nil
        }
        if let problem {
            close(fd)
            return .failure(problem)
        }
        return .success(fd)
    }

    /// Lends the file `name` of the directory opened as `directory` to `body`, from memory of
    /// its own (no Array or Data: `fbauth token`'s quick path); nil when there is no such file
    /// of the user's, or it cannot be read.
    package static func withOwnFileBytes<T>(in directory: Int32, _ name: UnsafePointer<CChar>, _ body: (UnsafeRawBufferPointer) -> T) -> T? {
        guard case .success(let fd) = openOwnFile(in: directory, name, limit: maximumFileBytes) else { return nil }
        defer { close(fd) }
        return withDescriptorBytes(fd, body)
    }

    /// The names in the directory opened as `fd`, without `.` and `..`, read through a copy of
    /// the descriptor; nil when it cannot be read.
    package static func entryNames(ofDirectory fd: Int32) -> [String]? {
        let copy = dup(fd)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return nil
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Writes all of `buffer` to `fd`; what went wrong, if anything.
    static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, name: String) -> FileProblem? {
        var offset = 0
        while offset < buffer.count {
            let written = posixWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return .failed(operation: "cannot write", path: name, code: errno)
            }
            offset += written
        }
        return nil
    }
}
