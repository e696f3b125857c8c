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
    /// Removes the file at `path` when it is a regular file of the user's own (not a link) whose
    /// contents `matches` accepts, deciding on what was opened: the name is removed only while
    /// it still names the file that was read.
    package static func removeOwnFile(_ path: String, ifContents matches: (Data) -> Bool) {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var opened = stat(), named = stat()
        guard fstat(fd, &opened) == 0, (opened.st_mode & S_IFMT) == S_IFREG, opened.st_uid == geteuid(),
              Int(opened.st_size) <= maximumFileBytes, let bytes = try? readAllBytes(fd, name: path, limit: maximumFileBytes),
              matches(Data(bytes)), lstat(path, &named) == 0, named.st_dev == opened.st_dev, named.st_ino == opened.st_ino
        else { return }
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

    /// Replaces the file at `path` with `data` so that no reader ever sees half a file: a new
    /// file created with `mode` in the same directory, flushed to disk, renamed over the old one.
    package static func writeAtomically(_ data: Data, to path: String, mode: mode_t = 0o600) throws(FileProblem) {
        let file = try AtomicFile(path, mode: mode)
        try file.write(data)
        try file.commit()
    }

    /// An exclusive advisory lock on a lock file, shared by every fbauth process. Released by
    /// `unlock()` or, if the process dies, by the kernel. Waits at most `timeout`, calling
    /// `waiting` once if the lock is not free at once.
    package final class FileLock {
        private var fd: Int32

        /// Takes the lock on `descriptor` (a lock file opened for it; closed on failure).
        package init(descriptor: Int32, path: String, timeout: Duration = .seconds(20), waiting: () -> Void = {}) throws(FileProblem) {
            fd = descriptor
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: timeout)
            var told = false
            while flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                // `unlock()` closes the file and forgets its number, so that the deinit, which
                // runs for this failed initializer too, cannot close it a second time.
                guard code == EWOULDBLOCK || code == EINTR else {
                    unlock()
                    throw .failed(operation: "cannot lock", path: path, code: code)
                }
                guard clock.now < deadline else {
                    unlock()
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
