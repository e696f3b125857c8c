#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport

/// `sessions.json` with each session's long-lived secrets in the OS keyring: the refresh token
/// and an X token secret go to the keyring, and the file keeps `Session.keptInKeyring` in their
/// place and everything else (the ID token too, so a fresh `fbauth token` reads the file alone
/// and never touches D-Bus).
///
/// Every change goes through `update`, under the file's lock: a secret is written to the
/// keyring before the file stops holding it, and the items of sessions that are gone are
/// deleted after the file no longer names them. So a crash between the two leaves at worst an
/// orphaned item (which `status` reports), never a session without its token.
internal struct SecretKeepingStore: SessionStore {
    internal let file: any SessionFile
    /// The system's keyring; nil where fbauth has none to use.
    let keeper: (any SecretKeeper)?
    /// This run's own choice; nil: the one remembered in the file, else one made now.
    let choice: SecretStorage?
    /// Told where secrets go when that is chosen (once, on the first sign-in), and when one
    /// had to stay in the file.
    let notice: @Sendable (String) -> Void

    internal init(file: any SessionFile, keeper: (any SecretKeeper)?, choice: SecretStorage?, notice: @escaping @Sendable (String) -> Void = { _ in }) {
        self.file = file
        self.keeper = keeper
        self.choice = choice
        self.notice = notice
    }

    internal var location: String { file.location }
    internal var directory: String { file.directory }

    internal func load() throws(FBAuthError) -> StoreContents { try file.load() }

    internal func withRefreshLock<T>(of session: SessionReference, _ body: () throws(FBAuthError) -> T) throws(FBAuthError) -> T {
        try file.withRefreshLock(of: session, body)
    }

    /// The file can be written and, when the user asked for the keyring, a keyring answers:
    /// both are known before the user consents in a browser.
    internal func checkWritable() throws(FBAuthError) {
        try file.checkWritable()
        if choice == .keyring { _ = try requireKeeper().probe() }
    }

    internal func update<T>(_ change: (inout StoreContents) throws(FBAuthError) -> T) throws(FBAuthError) -> T {
        var stale: [KeyringItem] = []
        var gone: [Session] = []
        let result = try file.update { (contents: inout StoreContents) throws(FBAuthError) -> T in
            let before = contents
            let result = try change(&contents)
            var placement = SecretPlacement(store: self, storage: nil, movingAll: false)
            stale = try placement.place(before: before, after: &contents)
            gone = before.sessionsGone(in: contents)
            return result
        }
        delete(stale)
        removeFiles(of: gone)
        return result
    }

    /// What fbauth left on disk for sessions that are gone: the files it wrote for other
    /// programs (unless written over since) and their refresh locks (unless held).
    private func removeFiles(of sessions: [Session]) {
        for session in sessions {
            session.writtenFiles?.forEach { $0.removeIfUnchanged() }
            file.removeRefreshLock(of: session.reference)
        }
    }

    /// Remembers that `contents` was written to `path` for the session of `user`, so that the
    /// file goes when the session does.
    internal func recordWrittenFile(_ written: WrittenFile, for user: SessionReference, in project: ProjectKey) throws(FBAuthError) {
        try file.update { (contents: inout StoreContents) throws(FBAuthError) in
            guard var session = try? contents.session(.exactly(user), in: project) else { return }
            var files = (session.writtenFiles ?? []).filter { $0.path != written.path }
            files.append(written)
            session.writtenFiles = files
            contents.save(session, in: project, makeCurrent: false)
        }
    }

    /// Moves every session's secrets to `target` and remembers it as the place for new ones
    /// (the keyring's copy is written before the file's is removed, and the other way round).
    ///
    /// Moving to the file also takes from the keyring every item of a saved session or pending
    /// credential that is left there (by a migration, sign-out or fallback cut short): its
    /// secret is in the file now. What cannot be removed is named in the result.
    internal func moveSecrets(to target: SecretStorage) throws(FBAuthError) -> SecretMove {
        if target == .keyring { _ = try requireKeeper().probe() }
        var stale: [KeyringItem] = []
        var placement = SecretPlacement(store: self, storage: target, movingAll: true)
        var after = StoreContents()
        var keptSecrets = false
        try file.update { (contents: inout StoreContents) throws(FBAuthError) in
            let before = contents
            keptSecrets = before.keepsSecretsInKeyring
            contents.secretStorage = target
            stale = try placement.place(before: before, after: &contents)
            after = contents
        }
        var moved = placement.moved
        moved.notRemoved = deleteReporting(stale)
        if target == .file, let keeper {
            do throws(FBAuthError) {
                let listed = try keeper.listed()
                moved.notRemoved += deleteReporting(after.possibleKeyringItems.filter { listed.contains($0.attributes) })
            } catch {
                // Without a keyring there is nothing left in it to take.
                if keptSecrets { moved.notRemoved.append("the keyring could not be checked for items left behind: \(error.message)") }
            }
        }
        return moved
    }

    internal func refreshToken(of session: Session, in project: ProjectKey) throws(FBAuthError) -> String {
        guard session.refreshToken == Session.keptInKeyring else { return session.refreshToken }
        return try keptSecret(KeyringItem(.refreshToken, of: session, in: project.storageKey, projectId: nil), whose: session.displayLabel)
    }

    internal func revealingCredentials(of session: Session, in project: ProjectKey) throws(FBAuthError) -> Session {
        var session = session
        for kept in KeptCredentialSecret.all {
            for index in session.providerCredentials.indices where kept.value(session.providerCredentials[index]) == Session.keptInKeyring {
                let secret = try keptSecret(KeyringItem(kept.kind, of: session, in: project.storageKey, projectId: nil), whose: session.displayLabel)
                kept.set(secret, &session.providerCredentials[index])
            }
        }
        return session
    }

    internal func revealing(_ pending: PendingCredential, in project: ProjectKey) throws(FBAuthError) -> PendingCredential {
        guard pending.isInKeyring else { return pending }
        var pending = pending
        pending.secrets = try PendingCredential.Secrets(keyringText: keptSecret(KeyringItem(pending: pending, in: project.storageKey, projectId: nil),
                                                                                whose: pending.keyringUser))
        return pending
    }

    /// Where each saved secret stands against the keyring: items whose session is gone, and
    /// sessions whose item was deleted.
    internal func audit() throws(FBAuthError) -> KeyringAudit {
        let contents = try load()
        var expected: [[String: String]] = []
        for (key, project) in contents.projects {
            for session in project.sessions {
                for kind in session.kindsInKeyring { expected.append(KeyringItem(kind, of: session, in: key, projectId: project.projectId).attributes) }
            }
            if let pending = project.pendingCredential, pending.isInKeyring {
                expected.append(KeyringItem(pending: pending, in: key, projectId: nil).attributes)
            }
        }
        guard let keeper else { return KeyringAudit(missing: expected, orphaned: []) }
        let listed = try keeper.listed()
        let possible = contents.possibleKeyringItems.map(\.attributes)
        let unused = listed.filter { !expected.contains($0) }
        // `secret-tool clear` deletes every item that carries the attributes it is given: an
        // orphan without a tenant would take a used item with one along.
        let unsafe = unused.filter { orphan in expected.contains { used in orphan.allSatisfy { used[$0.key] == $0.value } } }
        return KeyringAudit(missing: expected.filter { !listed.contains($0) }, orphaned: unused.filter { !possible.contains($0) },
                            leftover: unused.filter { possible.contains($0) }, sharingAttributes: unsafe)
    }

    func requireKeeper() throws(FBAuthError) -> any SecretKeeper {
        guard let keeper else { throw .store("this system has no OS keyring to keep secrets in") }
        return keeper
    }

    /// The secret of `item`, which the file says the keyring holds for `whose` (an email or uid).
    func keptSecret(_ item: KeyringItem, whose: String) throws(FBAuthError) -> String {
        let words = item.kind.words
        let keeper: any SecretKeeper
        do {
            keeper = try requireKeeper()
        } catch {
            throw .store("the \(words) of \(whose) is kept in a keyring, but \(error.message)")
        }
        let secret: String?
        do {
            secret = try keeper.secret(of: item)
        } catch {
            throw .store("\(error.message); the \(words) of \(whose) is kept there")
        }
        guard let secret, !secret.isEmpty else {
            throw .signInAgain("the \(words) of \(whose) is no longer in the keyring (its item was deleted); sign in again")
        }
        return secret
    }

    /// Deletes `items`; for each that could not be deleted, what it is, why, and how to
    /// remove it.
    private func deleteReporting(_ items: [KeyringItem]) -> [String] {
        guard let keeper else { return [] }
        var failures: [String] = []
        for item in items {
            do throws(FBAuthError) {
                try keeper.delete(item)
            } catch {
                failures.append("\"\(item.label)\" (\(error.message); remove it with: secret-tool clear \(item.searchWords))")
            }
        }
        return failures
    }

    /// Deletes items the file no longer names; one that cannot be deleted is left for `status`
    /// to report, with how to remove it.
    private func delete(_ items: [KeyringItem]) {
        guard !items.isEmpty, let keeper else { return }
        for item in items {
            do throws(FBAuthError) {
                try keeper.delete(item)
            } catch {
                notice("\(error.message); \"\(item.label)\" is left in the keyring (remove it with: secret-tool clear \(item.searchWords))")
            }
        }
    }
}

/// How many sessions' secrets `moveSecrets` moved, and whose were missing.
internal struct SecretMove: Sendable, Equatable {
    internal var moved = 0
    /// Pending provider credentials moved.
    internal var pendingCredentials = 0
    /// Sessions whose secrets were in the target place already.
    internal var alreadyThere = 0
    /// The users whose keyring item was gone (they sign in again).
    internal var missing: [String] = []
    /// Items that stayed in the keyring although their secret moved: each with why and how to
    /// remove it.
    internal var notRemoved: [String] = []
}

/// Keyring items as attributes: those a saved session names but the keyring lacks, and those
/// the keyring holds for no saved session.
internal struct KeyringAudit: Sendable, Equatable {
    internal var missing: [[String: String]]
    internal var orphaned: [[String: String]]
    /// Items of saved sessions whose secret the file keeps now: copies left behind.
    internal var leftover: [[String: String]] = []
    /// Orphans whose attributes a used item also carries: no search by attributes can take
    /// them alone.
    internal var sharingAttributes: [[String: String]] = []
}
