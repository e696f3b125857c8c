#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A browser flow started with `--print-url`, waiting for `--complete URL` (perhaps from another
/// process or machine). Saved under the project.
internal struct PendingFlow: Codable, Sendable, Equatable {
    /// The command that started it: `signin`, `link` or `reauth`.
    internal var command: String
    internal var providerId: String
    internal var authURI: String
    internal var sessionId: String
    internal var redirectURI: String
    internal var tenantId: String?
    /// The user being linked or reauthenticated.
    internal var user: SessionReference?
    internal var startedAt: Date

    /// How long a started flow stays usable; providers expire their authorization requests.
    internal static let lifetime: TimeInterval = 30 * 60

    var authorization: ProviderAuthorization {
        ProviderAuthorization(authURI: authURI, sessionId: sessionId, redirectURI: redirectURI)
    }

    /// The value the redirect must carry back (`state` or `oauth_token`).
    var binding: CallbackMatcher.Binding { CallbackMatcher.binding(forAuthorizationURL: authURI) }
}
