// The POSIX calls fbauth's core needs beyond sockets, split by concern: this file (the
// environment, standard streams), Platform+Terminal, Platform+Files (reading), Platform+Writing
// (writing, directories, locks), Platform+Trust (directories others may touch) and
// Platform+Processes (programs and signals). FBAuth's platform-specific code lives in these files
// only (LoopbackHTTP has its own).
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
    static func readAllBytes(_ fd: Int32, name: String, limit: Int = .max) throws(FileProblem) -> [UInt8] {
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

}

func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
