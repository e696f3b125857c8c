import Foundation

/// `sessions.json` in the config directory (mode 0700), written atomically with mode 0600,
/// locked with `flock` on `sessions.lock` beside it.
public struct FileSessionStore: SessionStore {
    public let directory: String
    public var filePath: String { directory + "/sessions.json" }
    public var location: String { filePath }
    var lockPath: String { directory + "/sessions.lock" }

    public init(directory: String) {
        self.directory = directory
    }

    /// `--config-dir`, else `FBAUTH_CONFIG_DIR`, else `$XDG_CONFIG_HOME/fbauth`, else `~/.config/fbauth`.
    public static func directory(option: String?, environment: [String: String]) -> String {
        if let option, !option.isEmpty { return option }
        if let explicit = environment["FBAUTH_CONFIG_DIR"], !explicit.isEmpty { return explicit }
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/fbauth" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.config/fbauth"
    }

    public func load() throws(FBAuthError) -> StoreContents {
        guard FileManager.default.fileExists(atPath: filePath) else { return StoreContents() }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: filePath))
        } catch {
            throw .store("cannot read \(filePath): \(Self.reason(error)); the file was left as it was")
        }
        do {
            return try StoreFile.decode(data)
        } catch {
            throw .store("cannot use \(filePath): \(error.description); fix or remove it (fbauth left it as it was)")
        }
    }

    /// The sessions with only the fields that choose one and its tokens, read cheaply, for
    /// `fbauth token`'s fast path. Read-only: never save what it returns.
    public func loadTokenFields() throws(FBAuthError) -> StoreContents {
        guard let data = FileManager.default.contents(atPath: filePath), let contents = StoreFile.decodeTokenFields(data) else {
            return try load()
        }
        return contents
    }

    public func update<T>(_ change: (inout StoreContents) throws(FBAuthError) -> T) throws(FBAuthError) -> T {
        let lock: Platform.FileLock
        do {
            try Platform.makeDirectory(directory)
            lock = try Platform.FileLock(path: lockPath)
        } catch {
            throw .store(error.description)
        }
        defer { lock.unlock() }
        let original = try load()
        var contents = original
        let result = try change(&contents)
        if contents != original {
            do {
                try Platform.writeAtomically(StoreFile.encode(contents), to: filePath)
            } catch {
                throw .store("\(error.description); \(filePath) was left as it was")
            }
        }
        return result
    }

    private static func reason(_ error: Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying?.code, underlying?.domain == NSPOSIXErrorDomain {
            return Platform.describe(errno: Int32(code))
        }
        return (error as NSError).localizedDescription
    }
}
