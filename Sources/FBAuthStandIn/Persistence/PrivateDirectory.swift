#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FBAuthSupport

/// A directory of exported users (`fbauth emulator --import/--export-on-exit`), opened once and
/// then used only through its descriptor: every file and folder under it is opened relative to
/// it and never through a symbolic link, so another user who plants `auth_export ->
/// /home/victim/.config/app` in a shared folder redirects nothing. A directory another user owns
/// or may write in is refused, as fbauth refuses such a config directory: they could swap its
/// files between two of our steps. New folders are 0700 and files 0600 (an export holds test
/// passwords and TOTP secrets), written whole to a temporary name and renamed into place.
final class PrivateDirectory {
    typealias Problem = AuthExport.Problem

    let path: String
    private let fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    /// Opens the directory at `path`, creating it (0700) when it does not exist yet.
    static func open(_ path: String, role: String) throws(Problem) -> PrivateDirectory {
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw Problem(description: "cannot create the \(role) directory \(path): \(describe(errno))")
        }
        guard let directory = try openExisting(path, role: role) else { throw openProblem(path, role: role, code: ENOENT) }
        return directory
    }

    /// Opens the directory at `path`; nil when there is none.
    static func openExisting(_ path: String, role: String) throws(Problem) -> PrivateDirectory? {
        let fd = posixOpen(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            var info = stat()
            let code = errno == ENOTDIR && lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK ? ELOOP : errno
            throw openProblem(path, role: role, code: code)
        }
        let directory = PrivateDirectory(path: path, fd: fd)
        try directory.requireTrusted(role: role)
        return directory
    }

    /// The folder `name` inside this one (created 0700 when `create`); nil when it does not
    /// exist and is not to be created.
    func folder(_ name: String, create: Bool) throws(Problem) -> PrivateDirectory? {
        try Self.requireName(name, in: path)
        if create, mkdirat(fd, name, 0o700) != 0, errno != EEXIST {
            throw Problem(description: "cannot create \(path)/\(name): \(Self.describe(errno))")
        }
        let child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard child >= 0 else {
            if errno == ENOENT, !create { return nil }
            throw Self.openProblem(path + "/" + name, role: "export", code: isLink(name) ? ELOOP : errno)
        }
        let folder = PrivateDirectory(path: path + "/" + name, fd: child)
        try folder.requireTrusted(role: "export")
        if create { fchmod(child, 0o700) }
        return folder
    }

    /// The names in the folder, without `.` and `..`.
    func names() throws(Problem) -> [String] {
        guard let names = Platform.entryNames(ofDirectory: fd) else { throw Problem(description: "cannot read \(path): \(Self.describe(errno))") }
        return names
    }

    /// The whole file `name` (a regular file of at most `limit` bytes, not a link); nil when
    /// there is none.
    func read(_ name: String, limit: Int) throws(Problem) -> Data? {
        try Self.requireName(name, in: path)
        let file = openat(fd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard file >= 0 else {
            if errno == ENOENT { return nil }
            throw Self.openProblem(path + "/" + name, role: "export", code: errno)
        }
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw Problem(description: "\(path)/\(name) is not a regular file")
        }
        guard Int(info.st_size) <= limit else { throw Problem(description: "\(path)/\(name) is larger than \(limit >> 20) MiB") }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = posixRead(file, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw Problem(description: "cannot read \(path)/\(name): \(Self.describe(errno))")
            }
            if count == 0 { return Data(bytes) }
            bytes += buffer[0..<count]
            if bytes.count > limit { throw Problem(description: "\(path)/\(name) is larger than \(limit >> 20) MiB") }
        }
    }

    /// Replaces the file `name` with `data`, mode 0600: written to a new temporary file (never
    /// an existing one or a link) and renamed over the old one, which replaces a link rather
    /// than following it.
    func write(_ name: String, _ data: Data) throws(Problem) {
        try Self.requireName(name, in: path)
        let temporary = ".\(name).tmp-\(getpid())"
        unlinkat(fd, temporary, 0)
        let file = openat(fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw Problem(description: "cannot write \(path)/\(name): \(Self.describe(errno))") }
        let bytes = [UInt8](data)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { posixWrite(file, $0.baseAddress!, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(file)
                unlinkat(fd, temporary, 0)
                throw Problem(description: "cannot write \(path)/\(name): \(Self.describe(code))")
            }
            offset += written
        }
        fsync(file)
        close(file)
        guard renameat(fd, temporary, fd, name) == 0 else {
            let code = errno
            unlinkat(fd, temporary, 0)
            throw Problem(description: "cannot write \(path)/\(name): \(Self.describe(code))")
        }
    }

    // MARK: - Checks

    /// Whether `name` is a symbolic link (`O_DIRECTORY|O_NOFOLLOW` says ENOTDIR for one on Linux).
    private func isLink(_ name: String) -> Bool {
        var info = stat()
        return fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// The rule fbauth keeps for its config directory: ours, and nobody else may write in it.
    private func requireTrusted(role: String) throws(Problem) {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Problem(description: "cannot read \(path): \(Self.describe(errno))") }
        let mode = info.st_mode & 0o7777
        if info.st_uid != geteuid() {
            throw Problem(description: "the \(role) directory \(path) is owned by another user (uid \(info.st_uid)), who could replace or read the exported users; \(Self.ownDirectory(role: role))")
        }
        if mode & 0o022 != 0 {
            let fix = mode & 0o1000 != 0 ? Self.ownDirectory(role: role) : "run: chmod 700 '\(path)'"
            throw Problem(description: "the \(role) directory \(path) can be written by other users (mode \(Self.octal(mode))), who could replace or read the exported users; \(fix)")
        }
    }

    /// The advice for a shared directory: one of the user's own, for the option that named it.
    private static func ownDirectory(role: String) -> String {
        "give \(role == "import" ? "--import" : "--export-on-exit") a directory of your own, such as ./emulator-data (made 0700 if new)"
    }

    /// A single name: no path of any kind reaches `openat`.
    private static func requireName(_ name: String, in path: String) throws(Problem) {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0"), name.utf8.count <= 255 else {
            throw Problem(description: "'\(name)' is not a file name inside \(path)")
        }
    }

    private static func openProblem(_ path: String, role: String, code: Int32) -> Problem {
        switch code {
        case ELOOP: Problem(description: "\(path) is a symbolic link, which fbauth does not follow in an \(role) directory")
        case ENOTDIR: Problem(description: "\(path) is not a directory")
        default: Problem(description: "cannot open \(path): \(describe(code))")
        }
    }

    /// `0755`, `1777`: every bit of a mode, as `ls -l` and `chmod` read it.
    static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}

// The C functions whose names Swift's own members hide inside this type.
private func posixOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
