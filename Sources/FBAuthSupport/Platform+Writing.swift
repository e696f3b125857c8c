// Writing files, directories and locks (see Platform.swift).
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

    /// Whether `path` is a regular file (not a link) owned by this user.
    package static func isOwnRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && info.st_uid == geteuid()
    }

    /// Removes a lock file nobody holds: taken first, so a process that holds it (a refresh
    /// under way) keeps it, and none can take the old file while a new one is made.
    package static func removeUnheldLockFile(_ path: String) {
        let fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return }
        unlink(path)
    }

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
}
