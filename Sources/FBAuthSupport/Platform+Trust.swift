// Directories another user could touch (see Platform.swift).
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

        package var reason: String {
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
}
