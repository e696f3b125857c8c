#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport

/// A file fbauth wrote with a session's token for another program, and a digest of what it
/// wrote: when the session goes (sign-out, deletion), the file goes too, but only while it
/// still holds exactly that (another session, or the user, may have written there since).
internal struct WrittenFile: Codable, Sendable, Equatable {
    /// Absolute.
    internal var path: String
    /// FNV-1a (64 bits, hex) of the contents: not a secret, and enough to tell "unchanged".
    internal var digest: String

    internal init(path: String, contents: Data) {
        self.path = path
        digest = Self.digest(contents)
    }

    static func digest(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    /// Removes the file when it is a regular file of this user's (not a link) that still
    /// holds what fbauth wrote; says nothing otherwise.
    func removeIfUnchanged() {
        Platform.removeOwnFile(path) { Self.digest($0) == digest }
    }
}
