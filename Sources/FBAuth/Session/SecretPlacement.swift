import FBAuthSupport

/// One pass over a change to the store that puts each new secret where it belongs: a session
/// that changed (a sign-in, a refresh) has its refresh token and X token secret written to the
/// keyring and replaced in the file by `Session.keptInKeyring`, or kept in the file; the items
/// of sessions and secrets that are gone are returned, to be deleted once the file is written.
/// Sessions that did not change are left alone, so a sign-in does not touch every other
/// session's item, and an old store moves into the keyring one session at a time, on its next
/// refresh.
struct SecretPlacement {
    let store: SecretKeepingStore
    /// Where secrets go; nil until a secret needs a place (then the run's choice, the
    /// remembered one, or one made now).
    var storage: SecretStorage?
    /// `moveSecrets`: every session is placed, changed or not.
    let movingAll: Bool
    private(set) var moved = SecretMove()

    init(store: SecretKeepingStore, storage: SecretStorage?, movingAll: Bool) {
        self.store = store
        self.storage = storage
        self.movingAll = movingAll
    }

    mutating func place(before: StoreContents, after contents: inout StoreContents) throws(FBAuthError) -> [KeyringItem] {
        var stale: [KeyringItem] = []
        for key in contents.projects.keys.sorted() {
            guard var project = contents.projects[key] else { continue }
            let earlier = before.projects[key]
            for index in project.sessions.indices {
                let session = project.sessions[index]
                let old = earlier?.sessions.first { $0.reference == session.reference }
                guard movingAll || session != old else { continue }
                project.sessions[index] = try place(session, replacing: old, in: key, projectId: project.projectId, contents: &contents, stale: &stale)
            }
            for old in earlier?.sessions ?? [] where !project.sessions.contains(where: { $0.reference == old.reference }) {
                stale += old.kindsInKeyring.map { KeyringItem($0, of: old, in: key, projectId: nil) }
            }
            project.pendingCredential = try place(project.pendingCredential, replacing: earlier?.pendingCredential, in: key,
                                                  projectId: project.projectId, contents: &contents, stale: &stale)
            contents.projects[key] = project
        }
        for (key, project) in before.projects where contents.projects[key] == nil {
            for old in project.sessions { stale += old.kindsInKeyring.map { KeyringItem($0, of: old, in: key, projectId: nil) } }
            if let old = project.pendingCredential, old.isInKeyring { stale.append(KeyringItem(pending: old, in: key, projectId: nil)) }
        }
        return stale
    }

    private mutating func place(_ session: Session, replacing old: Session?, in key: String, projectId: String?,
                                contents: inout StoreContents, stale: inout [KeyringItem]) throws(FBAuthError) -> Session {
        var session = session
        let wasKept = old?.kindsInKeyring ?? []
        var placedAny = false
        let missingBefore = moved.missing.count
        if let token = try placed(session.refreshToken, as: KeyringItem(.refreshToken, of: session, in: key, projectId: projectId),
                                  whose: session.displayLabel, contents: &contents, stale: &stale,
                                  wasKept: wasKept.contains(.refreshToken), placedAny: &placedAny) {
            session.refreshToken = token
        }
        for kept in KeptCredentialSecret.all {
            let index = session.providerCredentials.firstIndex { kept.value($0) != nil }
            let item = KeyringItem(kept.kind, of: session, in: key, projectId: projectId)
            if let index, let secret = kept.value(session.providerCredentials[index]) {
                if let placedSecret = try placed(secret, as: item, whose: session.displayLabel, contents: &contents, stale: &stale,
                                                 wasKept: wasKept.contains(kept.kind), placedAny: &placedAny) {
                    kept.set(placedSecret, &session.providerCredentials[index])
                }
            } else if wasKept.contains(kept.kind) {
                stale.append(item)
            }
        }
        if placedAny {
            moved.moved += 1
        } else if movingAll, session.hasSecrets, moved.missing.count == missingBefore {
            moved.alreadyThere += 1
        }
        return session
    }

    /// A project's pending credential: its tokens go to one item, as JSON.
    private mutating func place(_ pending: PendingCredential?, replacing old: PendingCredential?, in key: String, projectId: String?,
                                contents: inout StoreContents, stale: inout [KeyringItem]) throws(FBAuthError) -> PendingCredential? {
        let oldItem = old.flatMap { $0.isInKeyring ? KeyringItem(pending: $0, in: key, projectId: nil) : nil }
        guard var pending, movingAll || pending != old else {
            if pending == nil, let oldItem { stale.append(oldItem) }
            return pending
        }
        let item = KeyringItem(pending: pending, in: key, projectId: projectId)
        if let oldItem, oldItem.attributes != item.attributes { stale.append(oldItem) }
        guard pending.hasSecrets else { return pending }
        var placedAny = false
        let text = pending.isInKeyring ? Session.keptInKeyring : pending.secrets.keyringText
        if let placed = try placed(text, as: item, whose: TerminalText.safe(pending.keyringUser), contents: &contents, stale: &stale,
                                   wasKept: oldItem?.attributes == item.attributes, placedAny: &placedAny) {
            pending.secrets = placed == Session.keptInKeyring
                ? PendingCredential.Secrets(pendingToken: Session.keptInKeyring) : try PendingCredential.Secrets(keyringText: placed)
        }
        if movingAll, placedAny { moved.pendingCredentials += 1 }
        return pending
    }

    /// What the file keeps for `secret`: `keptInKeyring` once the keyring has it, the secret
    /// itself when it comes back from the keyring; nil to leave the value as it is.
    private mutating func placed(_ secret: String, as item: KeyringItem, whose: String,
                                 contents: inout StoreContents, stale: inout [KeyringItem], wasKept: Bool,
                                 placedAny: inout Bool) throws(FBAuthError) -> String? {
        if secret.isEmpty {
            if wasKept { stale.append(item) }  // the server refused the token: its item goes too
            return nil
        }
        if secret == Session.keptInKeyring {
            guard movingAll, try destination(&contents) == .file else { return nil }
            do throws(FBAuthError) {
                let revealed = try store.keptSecret(item, whose: whose)
                stale.append(item)
                placedAny = true
                return revealed
            } catch {
                guard case .signInAgain = error else { throw error }
                moved.missing.append(whose)
                return nil
            }
        }
        guard try destination(&contents) == .keyring, let keeper = store.keeper else {
            if wasKept { stale.append(item) }  // a new secret stays in the file: the keyring's is old
            return nil
        }
        do throws(FBAuthError) {
            try keeper.store(secret, as: item)
        } catch {
            // The user's own choice of the keyring is kept to: no silent fallback. A place
            // chosen earlier (or by default) gives way, and the user is told.
            if store.choice == .keyring || movingAll { throw error }
            store.notice("\(error.message.droppingPrefix("no keyring: ")); the \(item.kind.words) of \(whose) is kept in \(store.location) (0600) this time")
            return nil
        }
        placedAny = true
        return Session.keptInKeyring
    }

    /// Where new secrets go, chosen once per pass; remembered in the file when chosen now.
    private mutating func destination(_ contents: inout StoreContents) throws(FBAuthError) -> SecretStorage {
        if let storage { return storage }
        let chosen = try choose(&contents)
        storage = chosen
        return chosen
    }

    private func choose(_ contents: inout StoreContents) throws(FBAuthError) -> SecretStorage {
        if let choice = store.choice { return choice }
        if let remembered = contents.secretStorage { return remembered }
        let chosen: SecretStorage
        do {
            let name = try store.requireKeeper().probe()
            chosen = .keyring
            store.notice("refresh tokens are kept in \(name)")
        } catch {
            chosen = .file
            store.notice("no keyring found (\(error.message.droppingPrefix("no keyring: "))): refresh tokens are kept in \(store.location) (0600)")
        }
        contents.secretStorage = chosen
        return chosen
    }
}

extension String {
    func droppingPrefix(_ prefix: String) -> String { hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self }
}
