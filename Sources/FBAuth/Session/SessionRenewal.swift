#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Saves what an account operation answered — new tokens, the user as `accounts:lookup` now
/// reports it — into a session as it is now in the store: a sign-out meanwhile stays.
struct SessionRenewal {
    let store: SessionStore
    let project: ProjectKey
    let clock: WallClock

    /// Takes an answer's tokens, when it has both (an answer may carry none when the server
    /// revoked the session: the lookup then reports it), and the user as `accounts:lookup` now
    /// reports it.
    func renew(_ session: Session, idToken: String?, refreshToken: String?, expiresIn: Int?, client: FirebaseAuthClient) throws(FBAuthError) -> Session {
        var tokens: IssuedTokens?
        if let idToken, let refreshToken { tokens = IssuedTokens(idToken: idToken, refreshToken: refreshToken, expiresIn: expiresIn) }
        let account = try client.lookup(idToken: tokens?.idToken ?? session.idToken)
        return try save(session, tokens: tokens, account: account)
    }

    @discardableResult
    func save(_ session: Session, tokens: IssuedTokens?, account: AccountInfo) throws(FBAuthError) -> Session {
        let now = clock.now()
        return try store.update { (contents: inout StoreContents) throws(FBAuthError) -> Session in
            guard var current = try? contents.session(.exactly(session.reference), in: project) else {
                throw .signInAgain("\(session.displayLabel) was signed out meanwhile; sign in again")
            }
            if let tokens {
                current.idToken = tokens.idToken
                current.refreshToken = tokens.refreshToken
                current.expirationTime = now.addingTimeInterval(TimeInterval(tokens.expiresIn ?? 3600))
            }
            current.update(from: account)
            contents.save(current, in: project, makeCurrent: false)
            return current
        }
    }
}
