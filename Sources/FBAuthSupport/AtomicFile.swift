// A file written whole or not at all (see Platform.swift).
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
    /// A file that replaces `path` only once it is whole: written to a new file beside it
    /// (created with `mode`, no link followed), then flushed and renamed over `path` by
    /// `commit()`. Until then, and if the process dies, `path` is as it was; a file not
    /// committed is removed when this goes.
    package final class AtomicFile {
        package let path: String
        private let temporary: String
        private var fd: Int32

        package init(_ path: String, mode: mode_t = 0o600) throws(FileProblem) {
            self.path = path
            temporary = "\(path).tmp-\(getpid())"
            unlink(temporary)
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            guard fd >= 0 else { throw .failed(operation: "cannot create", path: temporary, code: errno) }
        }

        deinit {
            guard fd >= 0 else { return }
            close(fd)
            unlink(temporary)
        }

        package func write(_ data: Data) throws(FileProblem) {
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
            if let failure { throw failure }
        }

        package func write(_ text: String) throws(FileProblem) { try write(Data(text.utf8)) }

        /// Flushes the file to disk and renames it over `path`, the rename made durable too.
        package func commit() throws(FileProblem) {
            if fsync(fd) != 0 { throw .failed(operation: "cannot flush", path: temporary, code: errno) }
            close(fd)
            fd = -1
            guard rename(temporary, path) == 0 else {
                let code = errno
                unlink(temporary)
                throw .failed(operation: "cannot replace", path: path, code: code)
            }
            let directory = open(parentDirectory(of: path), O_RDONLY | O_CLOEXEC)
            if directory >= 0 {
                fsync(directory)
                close(directory)
            }
        }
    }

    /// Refuses a `path` a file of the user's is not to replace: a link (the file would replace
    /// the link, not what it points to, which is not what was asked), anything but a regular
    /// file, or another user's file. Nothing there is fine.
    package static func refuseToReplace(_ path: String) throws(FileProblem) {
        var named = stat()
        guard lstat(path, &named) == 0 else { return }
        switch named.st_mode & S_IFMT {
        case S_IFLNK: throw .untrustedFile(path: path, reason: "is a symbolic link, which is not written through")
        case S_IFREG: break
        default: throw .notRegularFile(path: path)
        }
        guard named.st_uid == geteuid() else {
            throw .untrustedFile(path: path, reason: "is owned by another user (uid \(named.st_uid)), whose file is not replaced")
        }
    }
}
