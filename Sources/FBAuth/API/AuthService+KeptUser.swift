/// The SDK's `signOut()` forgets the stored user, yet a `User` object the app kept still gets
/// tokens: it holds them in memory (firebase-ios-sdk `Auth.signOut` clears the keychain's user
/// only). Here the session leaves the disk and the keyring as with any sign-out, and the user
/// it was goes on in this process alone, on an `AuthService` of its own whose sessions are kept
/// in memory (`AuthServiceSettings.sessionMemory`).
extension AuthService {
    /// Signs the current user out, as `signOut()`, and gives that user back kept in this
    /// process only, its refresh token and provider credentials read from where they were kept
    /// first. Nil when nobody is signed in.
    package func signOutKeepingInMemory() throws(FBAuthError) -> SignedInUser? {
        guard let user = currentUser else { return nil }
        var session = try store.load().session(.exactly(user.reference), in: project)
        // A keyring that cannot give the secrets leaves nothing to keep: the sign-out goes on.
        let secrets = (refresh: try? store.refreshToken(of: session, in: project), revealed: try? store.revealingCredentials(of: session, in: project))
        try signOut()
        guard let refreshToken = secrets.refresh else { return nil }
        if let revealed = secrets.revealed { session = revealed }
        session.refreshToken = refreshToken
        var inMemory = settings
        inMemory.sessionMemory = SessionMemory()
        let kept = AuthService(settings: inMemory, browser: browser, observer: observer, transport: transport, host: host)
        try kept.store.update { (contents: inout StoreContents) throws(FBAuthError) in
            contents.save(session, in: kept.project, makeCurrent: true)
        }
        return SignedInUser(session, auth: kept)
    }
}

extension AuthService {
    /// Whether `user` was signed in through this project's store entry (the same API key and
    /// emulator), so that `updateCurrentUser(_:)` can take it as it is.
    package func holdsSession(of user: SignedInUser) -> Bool { user.auth.project == project }

    /// The SDK's `updateCurrentUser` with a user of another API key: the user is copied here,
    /// secrets and all, and reloaded with this API key, which proves it is of this project (a
    /// user of another project is refused, and nothing of it stays); then it is current.
    package func adoptAsCurrentUser(_ user: SignedInUser) async throws(FBAuthError) -> SignedInUser {
        let source = user.auth
        var session = try source.store.load().session(.exactly(user.reference), in: source.project)
        session.refreshToken = try source.store.refreshToken(of: session, in: source.project)
        session = try source.store.revealingCredentials(of: session, in: source.project)
        let previous = try store.load().currentSession(of: project)?.reference
        try store.update { (contents: inout StoreContents) throws(FBAuthError) in
            contents.save(session, in: project, makeCurrent: true)
        }
        do {
            return try await SignedInUser(session, auth: self).reload()
        } catch {
            _ = try? store.update { (contents: inout StoreContents) throws(FBAuthError) in
                contents.remove(session.reference, in: project)
                if let previous { contents.makeCurrent(previous, in: project) }
            }
            throw error
        }
    }
}
