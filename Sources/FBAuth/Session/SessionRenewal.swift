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
