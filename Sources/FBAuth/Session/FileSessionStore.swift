#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport

/// `sessions.json` in the config directory (mode 0700), written atomically with mode 0600,
/// locked with `flock` on `sessions.lock` beside it.
///
/// Another user of the machine must not be able to swap the file, plant links or hold the
/// lock: a directory owned by someone else, or writable by group or others, is refused; the
/// file, the lock and the temporary file are opened without following links; the lock is
/// waited for with a bound.
internal struct FileSessionStore: SessionStore {
    internal let directory: String
    internal var filePath: String { directory + "/sessions.json" }
    internal var location: String { filePath }
    var lockPath: String { directory + "/sessions.lock" }
    /// How long to wait for another fbauth holding the lock.
    var lockTimeout: Duration
    /// Told once when the lock is busy, to say that we wait.
    var waiting: @Sendable (String) -> Void
    /// Writes the file whole or not at all (the seam where tests make a disk full, or a
    /// process die, between the keyring's step and the file's).
    var writeFile: @Sendable (Data, String) throws(Platform.FileProblem) -> Void = { data, path throws(Platform.FileProblem) in
        try Platform.writeAtomically(data, to: path)
    }

    internal init(directory: String, lockTimeout: Duration = .seconds(20), waiting: @escaping @Sendable (String) -> Void = { _ in }) {
        self.directory = directory
        self.lockTimeout = lockTimeout
        self.waiting = waiting
    }

    /// Refuses a directory that another user owns or may write in.
    func requireTrustedDirectory() throws(FBAuthError) {
        guard let untrusted = Platform.untrustedDirectory(directory) else { return }
        let fix = untrusted.chmodFixes
            ? "run: chmod 700 '\(directory)'" : "use a directory of your own"
        throw .store("the config directory \(directory) \(untrusted.reason), so another user could replace or read your sessions; \(fix)",
                     remedy: untrusted.chmodFixes ? nil : .otherConfigDirectory)
    }

    /// `--config-dir`, else `FBAUTH_CONFIG_DIR`, else `$XDG_CONFIG_HOME/fbauth`, else `~/.config/fbauth`.
    internal static func directory(option: String?, environment: [String: String]) -> String {
        directory(option: option, variable: { environment[$0] })
    }

    /// The same, reading each variable with `variable` (`getenv` on `fbauth token`'s quick path).
    internal static func directory(option: String?, variable: (String) -> String?) -> String {
        if let option, !option.isEmpty { return option }
        if let explicit = variable("FBAUTH_CONFIG_DIR"), !explicit.isEmpty { return explicit }
        if let xdg = variable("XDG_CONFIG_HOME"), xdg.hasPrefix("/") { return xdg + "/fbauth" }
        let home = variable("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? Platform.homeDirectory()
        return home + "/.config/fbauth"
    }

    internal func load() throws(FBAuthError) -> StoreContents {
        try requireTrustedDirectory()
        // The launch pages of an fbauth that was killed (SIGKILL) mid-sign-in: each names the
        // sign-in's one-time address, and nothing else would remove them.
        Platform.removeFilesOfDeadProcesses(in: directory, prefix: LaunchPage.namePrefix)
        let data: Data
        do {
            guard let read = try Platform.readFile(filePath) else { return StoreContents() }
            data = read
        } catch {
            throw .store("\(error.description); the file was left as it was")
        }
        do {
            return try StoreFile.decode(data)
        } catch {
            throw .store("cannot use \(filePath): \(error.description). Either \(error.remedy); the file was left as it was")
        }
    }

    internal func update<T>(_ change: (inout StoreContents) throws(FBAuthError) -> T) throws(FBAuthError) -> T {
        let lock: Platform.FileLock
        do {
            try Platform.makeDirectory(directory)
            try requireTrustedDirectory()
            lock = try Platform.FileLock(path: lockPath, timeout: lockTimeout) { [waiting, directory] in
                waiting("another process is using the sessions in \(directory); waiting")
            }
        } catch let error as FBAuthError {
            throw error
        } catch let error as Platform.FileProblem {
            throw .store(error.description)
        } catch {
            throw .store("\(error)")
        }
        defer { lock.unlock() }
        Platform.removeStaleTemporaryFiles(of: filePath)
        let original = try load()
        var contents = original
        let result = try change(&contents)
        if contents != original {
            let data = StoreFile.encode(contents)
            guard data.count <= Platform.maximumFileBytes else {
                throw .store("saving would make \(filePath) larger than \(Platform.maximumFileBytes >> 20) MiB, more than is read back; remove sessions you no longer need and try again; the file was left as it was",
                             remedy: .removeSessions)
            }
            do {
                try writeFile(data, filePath)
            } catch {
                throw .store("\(error.description); \(filePath) was left as it was")
            }
        }
        return result
    }

    internal func checkWritable() throws(FBAuthError) {
        try update { (_: inout StoreContents) throws(FBAuthError) in
            do throws(Platform.FileProblem) {
                try Platform.probeWritable(directory)
            } catch {
                throw .store("\(error.description); a sign-in could not be saved, so none was started")
            }
        }
    }

    internal func withRefreshLock<T>(of session: SessionReference, _ body: () throws(FBAuthError) -> T) throws(FBAuthError) -> T {
        try requireTrustedDirectory()
        let lock: Platform.FileLock
        do throws(Platform.FileProblem) {
            try Platform.makeDirectory(directory)
            // Long enough for a refresh and its one retry to time out.
            lock = try Platform.FileLock(path: refreshLockPath(session), timeout: .seconds(90))
        } catch {
            throw .store(error.description)
        }
        defer { lock.unlock() }
        return try body()
    }

    /// `sessions.refresh-HASH.lock`, one per session (FNV-1a of tenant and uid, so any uid
    /// makes a plain file name).
    func refreshLockPath(_ session: SessionReference) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(session.tenantId ?? "")/\(session.uid)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return directory + "/sessions.refresh-" + String(hash, radix: 16) + ".lock"
    }
}
