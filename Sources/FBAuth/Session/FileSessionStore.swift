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
/// lock: the directory is opened once through its ancestors (`TrustedDirectory`: each of them
/// the user's or root's and not writable by others unless sticky, the directory itself the
/// user's alone), and the file, the lock and the temporary file are opened through its
/// descriptor, without following links; the lock is waited for with a bound.
internal struct FileSessionStore: SessionStore {
    internal let directory: String
    internal var filePath: String { directory + "/" + Self.fileName }
    internal var location: String { filePath }
    static let fileName = "sessions.json"
    static let lockName = "sessions.lock"
    /// How long to wait for another fbauth holding the lock.
    var lockTimeout: Duration
    /// Told once when the lock is busy, to say that we wait.
    var waiting: @Sendable (String) -> Void
    /// Writes the file whole or not at all (the seam where tests make a disk full, or a
    /// process die, between the keyring's step and the file's).
    var writeFile: @Sendable (Data, TrustedDirectory, String) throws(Platform.FileProblem) -> Void = { data, directory, name throws(Platform.FileProblem) in
        try directory.writeAtomically(data, to: name)
    }

    internal init(directory: String, lockTimeout: Duration = .seconds(20), waiting: @escaping @Sendable (String) -> Void = { _ in }) {
        self.directory = directory
        self.lockTimeout = lockTimeout
        self.waiting = waiting
    }

    /// The config directory, opened and checked; nil when it does not exist and `creating` is
    /// false. One that another user owns or may write in, or that lies under such a
    /// directory, is refused, naming it.
    func openDirectory(creating: Bool) throws(FBAuthError) -> TrustedDirectory? {
        do throws(TrustedDirectory.OpenProblem) {
            return try TrustedDirectory.open(directory, creating: creating)
        } catch {
            switch error {
            case .file(let problem): throw .store(problem.description)
            case .untrusted(let untrusted): throw Self.refusal(untrusted, directory: directory)
            }
        }
    }

    static func refusal(_ untrusted: UntrustedPath, directory: String) -> FBAuthError {
        .store(untrusted.refusal("the config directory \(directory)", risk: "another user could replace or read your sessions"),
               remedy: untrusted.problem.chmodFixes ? nil : .otherConfigDirectory)
    }

    /// Refuses a directory that another user owns or may write in (or lies under one).
    func requireTrustedDirectory() throws(FBAuthError) {
        _ = try openDirectory(creating: false)
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
        guard let opened = try openDirectory(creating: false) else { return StoreContents() }
        return try load(from: opened)
    }

    private func load(from opened: TrustedDirectory) throws(FBAuthError) -> StoreContents {
        let data: Data
        do {
            guard let read = try opened.read(Self.fileName) else { return StoreContents() }
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

    /// The directory, made when missing, and its lock taken.
    private func openLocked(_ lockName: String, timeout: Duration, waiting: () -> Void = {}) throws(FBAuthError) -> (TrustedDirectory, Platform.FileLock) {
        guard let opened = try openDirectory(creating: true) else { throw .store("cannot create directory \(directory)") }
        do throws(Platform.FileProblem) {
            return (opened, try opened.lock(lockName, timeout: timeout, waiting: waiting))
        } catch {
            throw .store(error.description)
        }
    }

    internal func update<T>(_ change: (inout StoreContents) throws(FBAuthError) -> T) throws(FBAuthError) -> T {
        let (opened, lock) = try openLocked(Self.lockName, timeout: lockTimeout) { [waiting, directory] in
            waiting("another process is using the sessions in \(directory); waiting")
        }
        defer { lock.unlock() }
        // What fbauth processes that died while writing left: each holds every refresh token.
        opened.removeFilesOfDeadProcesses(prefix: Self.fileName + ".tmp-")
        let original = try load(from: opened)
        var contents = original
        let result = try change(&contents)
        if contents != original {
            let data = StoreFile.encode(contents)
            guard data.count <= Platform.maximumFileBytes else {
                throw .store("saving would make \(filePath) larger than \(Platform.maximumFileBytes >> 20) MiB, more than is read back; remove sessions you no longer need and try again; the file was left as it was",
                             remedy: .removeSessions)
            }
            do {
                try writeFile(data, opened, Self.fileName)
            } catch {
                throw .store("\(error.description); \(filePath) was left as it was")
            }
        }
        return result
    }

    internal func checkWritable() throws(FBAuthError) {
        let (opened, lock) = try openLocked(Self.lockName, timeout: lockTimeout) { [waiting, directory] in
            waiting("another process is using the sessions in \(directory); waiting")
        }
        defer { lock.unlock() }
        _ = try load(from: opened)
        do throws(Platform.FileProblem) {
            try opened.probeWritable()
        } catch {
            throw .store("\(error.description); a sign-in could not be saved, so none was started")
        }
    }

    internal func withRefreshLock<T>(of session: SessionReference, _ body: () throws(FBAuthError) -> T) throws(FBAuthError) -> T {
        // Long enough for a refresh and its one retry to time out.
        let (_, lock) = try openLocked(refreshLockName(session), timeout: .seconds(90))
        defer { lock.unlock() }
        return try body()
    }

    /// Removes the session's refresh lock when no process holds it.
    func removeRefreshLock(of session: SessionReference) {
        (try? openDirectory(creating: false))??.removeUnheldLock(refreshLockName(session))
    }

    /// `sessions.refresh-HASH.lock`, one per session (FNV-1a of tenant and uid, so any uid
    /// makes a plain file name).
    func refreshLockName(_ session: SessionReference) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(session.tenantId ?? "")/\(session.uid)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return "sessions.refresh-" + String(hash, radix: 16) + ".lock"
    }
}
