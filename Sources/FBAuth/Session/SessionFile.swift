import FBAuthSupport
import LoopbackHTTP

/// Where `SecretKeepingStore` keeps its sessions: `sessions.json` (`FileSessionStore`), or this
/// process's memory (`MemorySessionFile`) when nothing may be written.
internal protocol SessionFile: Sendable {
    /// Where the sessions are, for messages.
    var location: String { get }
    /// The config directory (where a browser sign-in's launch page goes).
    var directory: String { get }
    func load() throws(FBAuthError) -> StoreContents
    func update<T>(_ change: (inout StoreContents) throws(FBAuthError) -> T) throws(FBAuthError) -> T
    func checkWritable() throws(FBAuthError)
    func withRefreshLock<T>(of session: SessionReference, _ body: () throws(FBAuthError) -> T) throws(FBAuthError) -> T
    /// Removes the session's refresh lock (with the session), when no process holds it.
    func removeRefreshLock(of session: SessionReference)
}

extension FileSessionStore: SessionFile {}

/// Sessions that live as long as the process: `fbauth --store none` and `FBAUTH_REFRESH_TOKEN`,
/// for CI that must leave nothing on disk and has no keyring. One is shared by every `AuthService` of a
/// run (`AuthServiceSettings.sessionMemory`), so a session one of them adopts the others see.
package final class SessionMemory: @unchecked Sendable {
    private let lock = Lock()
    private var contents = StoreContents()

    package init() {}

    func read() -> StoreContents { lock.withLock { contents } }

    func change<T>(_ body: (inout StoreContents) throws(FBAuthError) -> T) throws(FBAuthError) -> T {
        var failure: FBAuthError?
        let result: T? = lock.withLock {
            var copy = contents
            do throws(FBAuthError) {
                let result = try body(&copy)
                contents = copy
                return result
            } catch {
                failure = error
                return nil
            }
        }
        if let failure { throw failure }
        return result!
    }
}

/// `SessionMemory` as a session file: nothing is read from or written to disk, and a refresh
/// needs no lock beyond the memory's own (one process).
internal struct MemorySessionFile: SessionFile {
    static let location = "memory only (nothing is kept after this run)"
    let memory: SessionMemory
    let directory: String

    var location: String { Self.location }
    func load() throws(FBAuthError) -> StoreContents { memory.read() }
    func update<T>(_ change: (inout StoreContents) throws(FBAuthError) -> T) throws(FBAuthError) -> T { try memory.change(change) }
    func checkWritable() throws(FBAuthError) {}
    func withRefreshLock<T>(of session: SessionReference, _ body: () throws(FBAuthError) -> T) throws(FBAuthError) -> T { try body() }
    func removeRefreshLock(of session: SessionReference) {}
}
