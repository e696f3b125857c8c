#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport

/// Keeps a saved session's Firebase ID token usable, for many processes at once.
///
/// A token with enough time left is used as saved: no network, no lock, no write. Otherwise
/// the refresh happens under the session's refresh lock, after reading the store again: when
/// another process refreshed the token meanwhile, that token is used, so twenty processes
/// starting together on an expiring token make one refresh request. The store's own lock is
/// held only to write the answer, never while securetoken is being asked, so a `signout`
/// meanwhile is not kept waiting — and is not undone.
internal struct TokenRefresher {
    let store: SessionStore
    let project: ProjectKey
    let clock: WallClock
    /// Built only when a request is really needed.
    let makeClient: () throws(FBAuthError) -> FirebaseAuthClient
    /// How to tell the user to sign this session in again: a client's words (fbauth names
    /// the command that does it); the library's are "sign in again".
    let signInAdvice: SignInAdvice

    internal init(store: SessionStore, project: ProjectKey, clock: WallClock, signInAdvice: SignInAdvice = .plain,
                 makeClient: @escaping () throws(FBAuthError) -> FirebaseAuthClient) {
        self.store = store
        self.project = project
        self.clock = clock
        self.signInAdvice = signInAdvice
        self.makeClient = makeClient
    }

    /// The saved session if its token has at least `minValid` seconds left; nil otherwise.
    /// A session whose tokens were dropped is an error (exit 3) here already.
    internal static func cachedSession(in contents: StoreContents, _ selector: SessionSelector, project: ProjectKey,
                              minValid: TimeInterval, now: Date, advice: SignInAdvice = .plain) throws(FBAuthError) -> Session? {
        let session = try contents.session(selector, in: project)
        try requireTokens(session, advice: advice)
        // A saved token that is not a JWT (an older fbauth saved whatever the server sent) is
        // refreshed rather than printed into `Authorization: Bearer $(fbauth token)`.
        guard session.expirationTime.timeIntervalSince(now) >= minValid, TokenAlphabet.jwt.accepts(session.idToken) else { return nil }
        return session
    }

    /// The selected session with an ID token valid for at least `minValid` seconds.
    internal func session(_ selector: SessionSelector, minValid: TimeInterval, forceRefresh: Bool = false) throws(FBAuthError) -> Session {
        let contents = try store.load()
        if !forceRefresh, let fresh = try Self.cachedSession(in: contents, selector, project: project, minValid: minValid, now: clock.now(),
                                                             advice: signInAdvice) {
            return fresh
        }
        let seen = try contents.session(selector, in: project)
        try Self.requireTokens(seen, advice: signInAdvice)
        return try store.withRefreshLock(of: seen.reference) { () throws(FBAuthError) -> Session in
            let current = try store.load().session(.exactly(seen.reference), in: project)
            try Self.requireTokens(current, advice: signInAdvice)
            if current.idToken != seen.idToken, current.expirationTime > clock.now() {
                return current  // another process refreshed it while we waited for the lock
            }
            let answer: SecureTokenResponse
            do throws(FBAuthError) {
                answer = try makeClient().refresh(refreshToken: store.refreshToken(of: current, in: project))
            } catch where error.rejectsSession {
                try forgetTokens(of: current)
                throw Self.signInAgain(current, because: error, advice: signInAdvice)
            }
            return try store.update { (contents: inout StoreContents) throws(FBAuthError) -> Session in
                guard var latest = try? contents.session(.exactly(current.reference), in: project) else {
                    throw .signInAgain("\(current.displayLabel) was signed out while its token was being refreshed; \(signInAdvice.words(current))")
                }
                // A sign-in meanwhile brought its own tokens: keep those. (The ID token tells,
                // too: a refresh token kept in the keyring reads the same in the file.)
                guard latest.refreshToken == current.refreshToken, latest.idToken == current.idToken else { return latest }
                latest.idToken = answer.idToken ?? latest.idToken
                latest.refreshToken = answer.refreshToken ?? latest.refreshToken
                latest.expirationTime = clock.now().addingTimeInterval(TimeInterval(answer.expiresIn ?? 3600))
                contents.save(latest, in: project, makeCurrent: false)
                return latest
            }
        }
    }

    /// Drops the tokens the server refused, unless a sign-in replaced them meanwhile.
    private func forgetTokens(of session: Session) throws(FBAuthError) {
        try store.update { (contents: inout StoreContents) throws(FBAuthError) in
            guard var latest = try? contents.session(.exactly(session.reference), in: project),
                latest.refreshToken == session.refreshToken, latest.idToken == session.idToken
            else { return }
            latest.forgetTokens()
            contents.save(latest, in: project, makeCurrent: false)
        }
    }

    /// Drops the session's tokens when an ID-token call (lookup, update, …) says they are no
    /// longer valid, and reports exit 3.
    internal func reject(_ session: Session, because error: FBAuthError) throws(FBAuthError) -> Never {
        try store.update { (contents: inout StoreContents) throws(FBAuthError) in
            guard var saved = try? contents.session(.exactly(session.reference), in: project) else { return }
            saved.forgetTokens()
            contents.save(saved, in: project, makeCurrent: false)
        }
        throw Self.signInAgain(session, because: error, advice: signInAdvice)
    }

    static func requireTokens(_ session: Session, advice: SignInAdvice) throws(FBAuthError) {
        guard session.canRefresh else {
            throw .signInAgain("the session of \(session.displayLabel) has expired or was revoked; \(advice.words(session))")
        }
    }

    static func signInAgain(_ session: Session, because error: FBAuthError, advice: SignInAdvice) -> FBAuthError {
        var reason = ""
        if case .server(let serverError, _) = error, let code = serverError.code {
            // A disabled account is a refusal (exit 1) wherever it is met, as in the exit-code
            // table: signing in again cannot help until an administrator enables it.
            if code == "USER_DISABLED" {
                return .failed(.userDisabled, "the account of \(session.displayLabel) has been disabled by an administrator; its session was signed out [USER_DISABLED]")
            }
            reason = " [\(code)]"
        }
        return .signInAgain("the session of \(session.displayLabel) is no longer valid\(reason); \(advice.words(session))")
    }
}

/// How a message tells the user to sign a session in again. The library's words are plain;
/// a client gives its own (fbauth: the command to paste, `CommandLineAdvice`).
internal struct SignInAdvice: Sendable {
    internal let words: @Sendable (Session) -> String

    internal init(_ words: @escaping @Sendable (Session) -> String) { self.words = words }

    internal static let plain = SignInAdvice { _ in "sign in again" }
}

extension FBAuthError {
    /// The server rejected the session's tokens for good (the Firebase Auth REST API reference,
    /// "Exchange a refresh token for an ID token"): signing in
    /// again is the only way on.
    internal var rejectsSession: Bool {
        guard case .server(let error, _) = self, let code = error.code else { return false }
        return ["TOKEN_EXPIRED", "USER_DISABLED", "USER_NOT_FOUND", "INVALID_REFRESH_TOKEN", "INVALID_ID_TOKEN"].contains(code)
    }
}

extension Session {
    /// How messages name the user: the email, else the uid.
    internal var displayLabel: String { TerminalText.safe(email ?? uid) }
}
