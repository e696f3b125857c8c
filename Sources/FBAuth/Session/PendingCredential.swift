#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// A provider credential Firebase could not use because the email belongs to an account with
/// other sign-in methods (`needConfirmation`). Saved so that, once the user has signed in to
/// that account, `fbauth link --pending` can link it.
internal struct PendingCredential: Codable, Sendable, Equatable {
    internal var providerId: String
    internal var pendingToken: String?
    internal var accessToken: String?
    internal var idToken: String?
    /// OAuth 1.0a token secret (Twitter).
    internal var secret: String?
    internal var email: String?
    internal var savedAt: Date

    /// Pending tokens are short-lived; after an hour the server will most likely refuse it.
    internal static let probableLifetime: TimeInterval = 3600

    /// The credential as `signInWithIdp` takes it back: the pending token, or (when the server
    /// sent none) the provider's tokens in `postBody`.
    internal var request: SignInWithIdpRequest {
        if let pendingToken { return SignInWithIdpRequest(requestUri: "http://localhost", pendingToken: pendingToken) }
        var items: [(String, String)] = [("providerId", providerId)]
        if let idToken { items.append(("id_token", idToken)) }
        if let accessToken { items.append(("access_token", accessToken)) }
        if let secret { items.append(("oauth_token_secret", secret)) }
        return SignInWithIdpRequest(requestUri: "http://localhost", postBody: FormEncoding.encode(items.map { (name: $0.0, value: $0.1) }))
    }
}

extension PendingCredential {
    /// Its tokens, as one keyring item holds them.
    struct Secrets: Codable, Equatable {
        var pendingToken: String?
        var accessToken: String?
        var idToken: String?
        var secret: String?
    }

    var secrets: Secrets {
        get { Secrets(pendingToken: pendingToken, accessToken: accessToken, idToken: idToken, secret: secret) }
        set { (pendingToken, accessToken, idToken, secret) = (newValue.pendingToken, newValue.accessToken, newValue.idToken, newValue.secret) }
    }

    /// Whether its tokens are in the keyring (the file then holds `Session.keptInKeyring` as
    /// its pending token, and no other token).
    var isInKeyring: Bool { pendingToken == Session.keptInKeyring }

    /// Whether it holds any token to keep.
    var hasSecrets: Bool { secrets != Secrets() }

    /// How its keyring item is named: one pending credential per project.
    var keyringUser: String { email ?? providerId }
}
