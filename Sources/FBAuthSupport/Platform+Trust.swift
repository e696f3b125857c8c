// Directories another user could touch (see Platform.swift): every decision is made on what was
// opened, never on a path checked before (issue 47).
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
    package enum UntrustedDirectory: Equatable, Sendable {
        case ownedByAnotherUser(uid_t)
        case writableByOthers(mode: mode_t, owner: uid_t)
        /// A symbolic link that another user made in a sticky folder anyone may write (`/tmp`),
        /// which the kernel's `fs.protected_symlinks` would not follow either.
        case linkOfAnotherUser(owner: uid_t, folder: String, folderMode: mode_t)

        package var reason: String {
            switch self {
            case .ownedByAnotherUser(let uid): "is owned by another user (uid \(uid))"
            case .writableByOthers(let mode, _): "can be written by other users (mode \(Platform.octal(mode)))"
            case .linkOfAnotherUser(let owner, let folder, let mode):
                "is a symbolic link that another user (uid \(owner)) made in \(folder), where anyone may make one (mode \(Platform.octal(mode)))"
            }
        }

        /// Whether the user can make it private (`chmod`): only a directory of their own that
        /// is not meant to be shared; a sticky folder (`/tmp`, mode 1777) or another user's is
        /// never to be made private, so another directory is the remedy there.
        package var chmodFixes: Bool {
            if case .writableByOthers(let mode, let owner) = self { return mode & 0o1000 == 0 && owner == geteuid() }
            return false
        }

        /// The directory that holds the user's files: theirs alone, and writable by no one else.
        static func ofTarget(_ info: stat) -> UntrustedDirectory? {
            if info.st_uid != geteuid() { return .ownedByAnotherUser(info.st_uid) }
            let mode = info.st_mode & 0o7777
            return mode & 0o022 != 0 ? .writableByOthers(mode: mode, owner: info.st_uid) : nil
        }

        /// A directory above it, as OpenSSH's `safe_path` walks them: the user's or root's, and
        /// writable by no one else unless sticky (where others cannot rename or remove what is
        /// not theirs, so the next directory down cannot be swapped).
        static func ofAncestor(_ info: stat) -> UntrustedDirectory? {
            if info.st_uid != geteuid(), info.st_uid != 0 { return .ownedByAnotherUser(info.st_uid) }
            let mode = info.st_mode & 0o7777
            return mode & 0o022 != 0 && mode & mode_t(S_ISVTX) == 0 ? .writableByOthers(mode: mode, owner: info.st_uid) : nil
        }

        /// A link (`link`) in a checked folder (`folder`), as the kernel's `may_follow_link`
        /// judges one: anything goes outside a sticky folder anyone may write, since only the
        /// user or root can write there; inside one (`/tmp`), only a link that the user, root or
        /// the folder's owner made is followed. Walking links in user space bypasses the
        /// kernel's own check, so it is made here.
        static func ofLink(_ link: stat, in folder: stat, folderPath: String) -> UntrustedDirectory? {
            let mode = folder.st_mode & 0o7777
            guard mode & mode_t(S_ISVTX) != 0, mode & 0o002 != 0 else { return nil }
            let owner = link.st_uid
            if owner == geteuid() || owner == 0 || owner == folder.st_uid { return nil }
            return .linkOfAnotherUser(owner: owner, folder: folderPath, folderMode: mode)
        }
    }

    /// Why the regular file opened as `fd` may not be trusted: another user's (root's is), or
    /// writable by others. Nil when it is fine.
    static func untrustedFileReason(_ info: stat) -> String? {
        if info.st_uid != geteuid(), info.st_uid != 0 { return "is owned by another user (uid \(info.st_uid))" }
        let mode = info.st_mode & 0o7777
        return mode & 0o022 != 0 ? "can be written by other users (mode \(octal(mode)))" : nil
    }

    /// `0755`, `1777`: every bit of a mode, as `chmod` reads it.
    package static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// What opening a directory through its ancestors came to.
    package enum DirectoryWalk {
        /// Opened (read-only, close-on-exec); the caller closes it.
        case opened(Int32)
        /// It, or a directory on the way, does not exist (and was not to be made).
        case missing
        /// `directory` is not to be trusted; `isTarget` when it is the one asked for.
        case untrusted(directory: String, UntrustedDirectory, isTarget: Bool)
        /// A loop of symbolic links, or a chain of more than 40 (the kernel's `MAXSYMLINKS`).
        case tooManyLinks
        case failed(operation: String, path: String, code: Int32)
    }

    /// Opens the directory `path` one component at a time from `/`, each with `openat` on the
    /// descriptor of the one above and checked with `fstat` on what was opened: every ancestor
    /// the user's or root's and not writable by others unless sticky, the directory itself the
    /// user's and writable by no one else. A directory checked this way can only be changed by
    /// the user or root, so what is opened inside it is what it holds: nothing is decided on a
    /// path that could be swapped between the check and the use. Symbolic links on the way are
    /// read with `readlinkat` inside a checked directory and walked the same way. With
    /// `creating`, missing directories are made (mode 0700). Makes no Swift String unless it
    /// fails (`fbauth token`'s quick path calls it).
    package static func walkToDirectory(_ path: UnsafePointer<CChar>, creating: Bool) -> DirectoryWalk {
        let capacity = Int(PATH_MAX) * 2 + 2
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 3 * capacity + Int(NAME_MAX) + 1) { memory in
            let pending = UnsafeMutableBufferPointer(rebasing: memory[0..<capacity])
            let scratch = UnsafeMutableBufferPointer(rebasing: memory[capacity..<2 * capacity])
            let resolved = UnsafeMutableBufferPointer(rebasing: memory[2 * capacity..<3 * capacity])
            let name = UnsafeMutableBufferPointer(rebasing: memory[(3 * capacity)...])
            var walker = DirectoryWalker(pending: pending, scratch: scratch, resolved: resolved, name: name)
            return walker.walk(path, creating: creating)
        }
    }
}

/// The state of one `walkToDirectory`: the path still to walk (`pending[start..<end]`), the
/// directories walked so far (`resolved`, for messages) and the descriptor of the last one.
private struct DirectoryWalker {
    let pending: UnsafeMutableBufferPointer<UInt8>
    let scratch: UnsafeMutableBufferPointer<UInt8>
    let resolved: UnsafeMutableBufferPointer<UInt8>
    let name: UnsafeMutableBufferPointer<UInt8>
    var start = 0, end = 0, resolvedCount = 0

    init(pending: UnsafeMutableBufferPointer<UInt8>, scratch: UnsafeMutableBufferPointer<UInt8>, resolved: UnsafeMutableBufferPointer<UInt8>, name: UnsafeMutableBufferPointer<UInt8>) {
        self.pending = pending
        self.scratch = scratch
        self.resolved = resolved
        self.name = name
    }

    /// Intermediate directories need only be searched: on Linux they are opened as paths, so a
    /// directory the user may enter but not list (mode 0711) does not stop the walk.
    private static let searchOnly: Int32 = {
        #if os(Linux)
        0o10000000  // O_PATH, which Glibc's module leaves out (it is _GNU_SOURCE's)
        #else
        O_RDONLY
        #endif
    }()

    private var resolvedPath: String {
        resolvedCount == 0 ? "/" : String(decoding: UnsafeBufferPointer(rebasing: resolved[0..<resolvedCount]), as: UTF8.self)
    }

    private func failure(_ operation: String, code: Int32) -> Platform.DirectoryWalk {
        .failed(operation: operation, path: resolvedPath, code: code)
    }

    mutating func walk(_ path: UnsafePointer<CChar>, creating: Bool) -> Platform.DirectoryWalk {
        let length = strlen(path)
        if path[0] != CChar(UInt8(ascii: "/")) {
            // Relative: from the working directory, whose ancestors are walked too.
            guard getcwd(UnsafeMutableRawPointer(pending.baseAddress!).assumingMemoryBound(to: CChar.self), pending.count) != nil else {
                return .failed(operation: "cannot find the working directory for", path: String(cString: path), code: errno)
            }
            end = strlen(UnsafeRawPointer(pending.baseAddress!).assumingMemoryBound(to: CChar.self))
            pending[end] = UInt8(ascii: "/")
            end += 1
        }
        guard end + length <= pending.count else { return .failed(operation: "cannot open", path: String(cString: path), code: ENAMETOOLONG) }
        memcpy(pending.baseAddress! + end, path, length)
        end += length

        var current = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard current >= 0 else { return .failed(operation: "cannot open", path: "/", code: errno) }
        var links = 0
        while true {
            while start < end, pending[start] == UInt8(ascii: "/") { start += 1 }
            let isTarget = start >= end
            if let refusal = judge(current, isTarget: isTarget) {
                close(current)
                return refusal
            }
            if isTarget {
                // The directory asked for, as a descriptor that can be read.
                #if os(Linux)
                let readable = openat(current, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                close(current)
                guard readable >= 0 else { return failure("cannot open", code: errno) }
                return .opened(readable)
                #else
                return .opened(current)
                #endif
            }
            var componentEnd = start
            while componentEnd < end, pending[componentEnd] != UInt8(ascii: "/") { componentEnd += 1 }
            let count = componentEnd - start
            guard count < name.count else {
                close(current)
                return failure("cannot open", code: ENAMETOOLONG)
            }
            memcpy(name.baseAddress!, pending.baseAddress! + start, count)
            name[count] = 0
            start = componentEnd
            if count == 1, name[0] == UInt8(ascii: ".") { continue }
            let component = UnsafeRawPointer(name.baseAddress!).assumingMemoryBound(to: CChar.self)
            var next = openat(current, component, Self.searchOnly | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next < 0, errno == ENOENT, creating {
                if mkdirat(current, component, 0o700) != 0, errno != EEXIST {
                    let code = errno
                    close(current)
                    appendResolved(count)
                    return failure("cannot create directory", code: code)
                }
                next = openat(current, component, Self.searchOnly | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            if next < 0 {
                let code = errno
                if code == ENOENT {
                    close(current)
                    return .missing
                }
                if code == ELOOP || code == ENOTDIR, let target = readLink(current, component) {
                    // A link in a checked directory: followed as the kernel would (`judgeLink`),
                    // then what it names is walked the same way.
                    if let refusal = judgeLink(current, component, count: count) {
                        close(current)
                        return refusal
                    }
                    links += 1
                    guard links <= 40 else {
                        close(current)
                        return .tooManyLinks
                    }
                    if scratch[0] == UInt8(ascii: "/") {
                        close(current)
                        current = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                        guard current >= 0 else { return .failed(operation: "cannot open", path: "/", code: errno) }
                        resolvedCount = 0
                    }
                    guard replacePending(withLinkOf: target) else {
                        close(current)
                        return failure("cannot open", code: ENAMETOOLONG)
                    }
                    continue
                }
                close(current)
                appendResolved(count)
                return failure("cannot open", code: code)
            }
            close(current)
            current = next
            if count == 2, name[0] == UInt8(ascii: "."), name[1] == UInt8(ascii: ".") {
                while resolvedCount > 0, resolved[resolvedCount - 1] != UInt8(ascii: "/") { resolvedCount -= 1 }
                if resolvedCount > 0 { resolvedCount -= 1 }
            } else {
                appendResolved(count)
            }
        }
    }

    /// The directory opened as `fd` under its rule: the one asked for, or one above it; nil
    /// when it passes.
    private func judge(_ fd: Int32, isTarget: Bool) -> Platform.DirectoryWalk? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return failure("cannot read", code: errno) }
        let untrusted = isTarget ? Platform.UntrustedDirectory.ofTarget(info) : Platform.UntrustedDirectory.ofAncestor(info)
        return untrusted.map { .untrusted(directory: resolvedPath, $0, isTarget: isTarget) }
    }

    /// The link `component` (of `count` bytes, in `name`) in the checked directory `directory`;
    /// nil when it may be followed. Its owner is read after its target, and that is safe: in a
    /// sticky folder only the link's owner, the folder's owner or root may remove or replace
    /// it, and all three are trusted here; elsewhere the folder passed the ancestors' rule, so
    /// only the user or root can change what it holds.
    private mutating func judgeLink(_ directory: Int32, _ component: UnsafePointer<CChar>, count: Int) -> Platform.DirectoryWalk? {
        var folder = stat(), link = stat()
        guard fstat(directory, &folder) == 0 else { return failure("cannot read", code: errno) }
        guard fstatat(directory, component, &link, AT_SYMLINK_NOFOLLOW) == 0 else { return failure("cannot read", code: errno) }
        guard let untrusted = Platform.UntrustedDirectory.ofLink(link, in: folder, folderPath: resolvedPath) else { return nil }
        var rest = start
        while rest < end, pending[rest] == UInt8(ascii: "/") { rest += 1 }
        appendResolved(count)
        return .untrusted(directory: resolvedPath, untrusted, isTarget: rest >= end)
    }

    /// Adds `/NAME` to the walked path (for messages; cut short rather than overflow).
    private mutating func appendResolved(_ count: Int) {
        guard resolvedCount + 1 + count <= resolved.count else { return }
        resolved[resolvedCount] = UInt8(ascii: "/")
        memcpy(resolved.baseAddress! + resolvedCount + 1, name.baseAddress!, count)
        resolvedCount += 1 + count
    }

    /// The target of the link `component` in `directory` into `scratch`: its length, or nil
    /// when it is no link.
    private func readLink(_ directory: Int32, _ component: UnsafePointer<CChar>) -> Int? {
        let read = readlinkat(directory, component, UnsafeMutableRawPointer(scratch.baseAddress!).assumingMemoryBound(to: CChar.self), Int(PATH_MAX))
        return read > 0 ? read : nil
    }

    /// The walk goes on with the link's target, then what was left after the link.
    private mutating func replacePending(withLinkOf length: Int) -> Bool {
        let rest = end - start
        guard length + 1 + rest <= scratch.count else { return false }
        scratch[length] = UInt8(ascii: "/")
        memcpy(scratch.baseAddress! + length + 1, pending.baseAddress! + start, rest)
        memcpy(pending.baseAddress!, scratch.baseAddress!, length + 1 + rest)
        start = 0
        end = length + 1 + rest
        return true
    }
}
