/// Where a session's long-lived secrets (its refresh token, an X token secret, a pending
/// provider credential) are kept: in the OS keyring, or in `sessions.json` with everything else.
package enum SecretStorage: String, Sendable, Codable, CaseIterable {
    /// The Secret Service on Linux (gnome-keyring, KeePassXC, KWallet), the Keychain on macOS.
    case keyring
    /// `sessions.json` itself (mode 0600 in a 0700 directory).
    case file
}

extension Session {
    /// What `sessions.json` holds in place of a secret kept in the keyring. Never a token: a
    /// token has no `@`. It is not empty, so the file still says the session can be refreshed
    /// (and `fbauth token`'s quick path, which reads only the file, answers as before).
    internal static let keptInKeyring = "@keyring"

    /// Where the refresh token is; nil once the server refused it (sign in again).
    internal var refreshTokenStorage: SecretStorage? {
        refreshToken.isEmpty ? nil : refreshToken == Self.keptInKeyring ? .keyring : .file
    }
}
