import Foundation

/// Keeps a saved session's Firebase ID token usable, for many processes at once.
///
/// A token with enough time left is used as saved: no network, no lock, no write. Otherwise
/// the refresh happens under the store's exclusive lock, after reading the store again: when
/// another process refreshed the token meanwhile, that token is used, so twenty processes
/// starting together on an expiring token make one refresh request.
struct TokenRefresher {
    let store: SessionStore
    let project: ProjectKey
    let clock: WallClock
    /// Built only when a request is really needed.
    let makeClient: () throws(FBAuthError) -> FirebaseAuthClient

    /// The saved session if its token has at least `minValid` seconds left; nil otherwise.
    /// A session whose tokens were dropped is an error (exit 3) here already.
    static func cachedSession(in contents: StoreContents, _ selector: SessionSelector, project: ProjectKey,
                              minValid: TimeInterval, now: Date) throws(FBAuthError) -> Session? {
        let session = try contents.session(selector, in: project)
        try requireTokens(session)
        guard session.expirationTime.timeIntervalSince(now) >= minValid else { return nil }
        return session
    }

    /// The selected session with an ID token valid for at least `minValid` seconds.
    func session(_ selector: SessionSelector, minValid: TimeInterval, forceRefresh: Bool = false) throws(FBAuthError) -> Session {
        let contents = try store.load()
        if !forceRefresh, let fresh = try Self.cachedSession(in: contents, selector, project: project, minValid: minValid, now: clock.now()) {
            return fresh
        }
        let seen = try contents.session(selector, in: project)
        try Self.requireTokens(seen)

        enum Outcome { case usable(Session), rejected(FBAuthError) }
        let outcome = try store.update { (contents: inout StoreContents) throws(FBAuthError) -> Outcome in
            var session = try contents.session(.exactly(seen.reference), in: project)
            try Self.requireTokens(session)
            if session.idToken != seen.idToken, session.expirationTime > clock.now() {
                return .usable(session)  // another process refreshed it while we waited for the lock
            }
            do throws(FBAuthError) {
                let answer = try makeClient().refresh(refreshToken: session.refreshToken)
                session.idToken = answer.idToken ?? session.idToken
                session.refreshToken = answer.refreshToken ?? session.refreshToken
                session.expirationTime = clock.now().addingTimeInterval(TimeInterval(answer.expiresIn ?? 3600))
                contents.save(session, in: project, makeCurrent: false)
                return .usable(session)
            } catch where error.rejectsSession {
                session.forgetTokens()
                contents.save(session, in: project, makeCurrent: false)
                return .rejected(Self.signInAgain(session, because: error))
            }
        }
        switch outcome {
        case .usable(let session): return session
        case .rejected(let error): throw error
        }
    }

    /// Drops the session's tokens when an ID-token call (lookup, update, …) says they are no
    /// longer valid, and reports exit 3.
    func reject(_ session: Session, because error: FBAuthError) throws(FBAuthError) -> Never {
        try store.update { (contents: inout StoreContents) throws(FBAuthError) in
            guard var saved = try? contents.session(.exactly(session.reference), in: project) else { return }
            saved.forgetTokens()
            contents.save(saved, in: project, makeCurrent: false)
        }
        throw Self.signInAgain(session, because: error)
    }

    static func requireTokens(_ session: Session) throws(FBAuthError) {
        guard session.canRefresh else {
            throw .signInAgain("the session of \(session.displayLabel) has expired or was revoked; sign in again with `fbauth signin`")
        }
    }

    static func signInAgain(_ session: Session, because error: FBAuthError) -> FBAuthError {
        var reason = ""
        if case .server(let serverError, _) = error, let code = serverError.code {
            // A disabled account is a refusal (exit 1) wherever it is met, as in the exit-code
            // table: signing in again cannot help until an administrator enables it.
            if code == "USER_DISABLED" {
                return .failed("the account of \(session.displayLabel) has been disabled by an administrator; its session was signed out [USER_DISABLED]")
            }
            reason = " [\(code)]"
        }
        return .signInAgain("the session of \(session.displayLabel) is no longer valid\(reason); sign in again with `fbauth signin`")
    }
}

extension FBAuthError {
    /// The server rejected the session's tokens for good (firebase-protocol.md §4): signing in
    /// again is the only way on.
    var rejectsSession: Bool {
        guard case .server(let error, _) = self, let code = error.code else { return false }
        return ["TOKEN_EXPIRED", "USER_DISABLED", "USER_NOT_FOUND", "INVALID_REFRESH_TOKEN", "INVALID_ID_TOKEN"].contains(code)
    }
}

extension Session {
    /// How messages name the user: the email, else the uid.
    var displayLabel: String { email ?? uid }
}
