extension SessionStore {
    /// The project id saved for `project`, when an app config or an ID token named it.
    internal func projectId(of project: ProjectKey) -> String? { (try? load())?.project(project)?.projectId }
}

/// Where sessions live between runs.
internal protocol SessionStore: Sendable {
    /// Where the sessions are, for messages.
    var location: String { get }

    /// The saved contents without taking the lock: a consistent snapshot, since writes replace
    /// the file atomically. Empty when nothing was saved yet.
    func load() throws(FBAuthError) -> StoreContents

    /// Reads, changes and writes the contents under the cross-process lock, so concurrent fbauth
    /// processes never lose each other's changes. Nothing is written when `change` throws or
    /// leaves the contents as they were.
    func update<T>(_ change: (inout StoreContents) throws(FBAuthError) -> T) throws(FBAuthError) -> T

    /// Fails when a sign-in's result could not be saved (the store cannot be read, locked or
    /// written), so that the user learns it before consenting in the browser, not after.
    func checkWritable() throws(FBAuthError)

    /// Holds the session's refresh lock, across processes, while `body` runs: one refresh of a
    /// session at a time, without holding the store's lock during the request.
    func withRefreshLock<T>(of session: SessionReference, _ body: () throws(FBAuthError) -> T) throws(FBAuthError) -> T

    /// The session's refresh token itself, read from wherever it is kept (`sessions.json` holds
    /// only `Session.keptInKeyring` for one in the keyring).
    func refreshToken(of session: Session, in project: ProjectKey) throws(FBAuthError) -> String

    /// The session with its provider credentials' secrets read from wherever they are kept.
    func revealingCredentials(of session: Session, in project: ProjectKey) throws(FBAuthError) -> Session

    /// The project's pending credential with its tokens read from wherever they are kept.
    func revealing(_ pending: PendingCredential, in project: ProjectKey) throws(FBAuthError) -> PendingCredential
}

extension SessionStore {
    /// A store that keeps every secret in its file has them at hand.
    internal func refreshToken(of session: Session, in project: ProjectKey) throws(FBAuthError) -> String { session.refreshToken }
    internal func revealingCredentials(of session: Session, in project: ProjectKey) throws(FBAuthError) -> Session { session }
    internal func revealing(_ pending: PendingCredential, in project: ProjectKey) throws(FBAuthError) -> PendingCredential { pending }
}
