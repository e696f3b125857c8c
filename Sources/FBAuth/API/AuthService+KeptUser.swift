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
