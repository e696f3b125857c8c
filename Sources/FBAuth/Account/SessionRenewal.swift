#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport

/// Saves what an account operation answered — new tokens, the user as `accounts:lookup` now
/// reports it — into a session as it is now in the store: a sign-out meanwhile stays.
internal struct SessionRenewal {
    let store: SessionStore
    let project: ProjectKey
    let clock: WallClock

    internal init(store: SessionStore, project: ProjectKey, clock: WallClock) {
        self.store = store
        self.project = project
        self.clock = clock
    }

    /// What renewed the session: it decides `lastSignInTime` (the SDKs' `metadata`), which a
    /// reauthentication moves and a link does not (linking adds a provider; nobody signed in).
    internal enum Purpose: Sendable, Equatable {
        case reauthenticate, link
    }

    /// The one step after a link or a reauthentication, wherever it is started (the library's
    /// `SignedInUser`, fbauth's commands): the same user, or nothing is saved; merged under the store's
    /// lock into the session as it is now (a concurrent link keeps its provider token, a
    /// sign-out meanwhile stays); the pending credential cleared when it was the one used.
    internal func merge(_ record: SignInRecord, into reference: SessionReference, purpose: Purpose,
                       clearingPending: Bool = false) throws(FBAuthError) -> Session {
        guard record.account.localId == reference.uid else {
            let other = record.account.email ?? record.account.localId ?? "another user"
            let label = (try? store.load().session(.exactly(reference), in: project))?.displayLabel
            throw .userMismatch(answeredFor: other, expected: label, uid: reference.uid, linking: purpose == .link)
        }
        return try store.update { (contents: inout StoreContents) throws(FBAuthError) -> Session in
            guard let current = try? contents.session(.exactly(reference), in: project) else {
                let who = TerminalText.safe(record.account.email ?? reference.uid)
                throw .signInAgain(purpose == .link
                    ? "\(who) was signed out while linking; the provider was linked on the server, but the session stays signed out (sign in again to use it)"
                    : "\(who) was signed out during the reauthentication and stays signed out; sign in again to use it")
            }
            var renewed = record.session(replacing: current)
            renewed.lastSignInTime = purpose == .reauthenticate ? clock.now() : current.lastSignInTime
            contents.save(renewed, in: project, makeCurrent: false)
            if clearingPending { contents.modifyProject(project) { $0.pendingCredential = nil } }
            return renewed
        }
    }

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
    /// `unlinked`: a provider just unlinked, whose saved OAuth credential goes too.
    func save(_ session: Session, tokens: IssuedTokens?, account: AccountInfo, unlinked: String? = nil) throws(FBAuthError) -> Session {
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
            if let unlinked { current.providerCredentials.removeAll { $0.providerId == unlinked } }
            contents.save(current, in: project, makeCurrent: false)
            return current
        }
    }
}
