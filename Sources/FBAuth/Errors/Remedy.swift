/// What the user can do about a failure, given where it arises so that a program says it in
/// its own words: fbauth's command line names its commands and options (`CommandLineRemedies`),
/// a Swift program its own buttons. The library's messages name none of them.
package enum Remedy: Sendable, Equatable {
    /// Nobody is signed in to the project: sign in.
    case signIn
    /// Nothing came within the wait: wait longer.
    case waitLonger
    /// The link verifies an email or changes it: apply it, rather than reset a password.
    case applyActionCode
    /// The link resets a password: reset it with that link.
    case resetPassword
    /// Saved sessions exist, none is current: choose one.
    case chooseSession
    /// The named session is saved for another project: list them all.
    case listAllSessions
    /// The config directory is not private: use another one.
    case otherConfigDirectory
    /// The store would grow past what is read back: sign sessions out.
    case removeSessions
    /// The listener's port is taken: choose another.
    case otherPort
    /// The loopback address is missing: choose another redirect host.
    case otherRedirectHost
    /// A Sign in with Apple user's token must be revoked before the account is deleted, and
    /// none is kept: sign in with Apple again (a reauthentication) first.
    case reauthenticateWithApple
    /// Apple's token could not be revoked: delete without revoking it, if that must be.
    case deleteWithoutRevoking
    /// A local Auth emulator does not know the App Check debug token: register it there when
    /// the emulator starts.
    case registerDebugTokenWithEmulator
    /// The browser could not load the Firebase JS SDK the hosted flow's page needs: load it from
    /// elsewhere, or sign in on the loopback flow, which needs no SDK. The message names both
    /// in the program's words (`AdviceWords`).
    case loadTheSDKElsewhere
}
