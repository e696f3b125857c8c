#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A browser flow started with `--print-url`, waiting for `--complete URL` (perhaps from another
/// process or machine). Saved under the project.
package struct PendingFlow: Codable, Sendable, Equatable {
    /// The command that started it: `signin`, `link` or `reauth`.
    package var command: String
    package var providerId: String
    package var authURI: String
    package var sessionId: String
    package var redirectURI: String
    package var tenantId: String?
    /// The user being linked or reauthenticated.
    package var user: SessionReference?
    package var startedAt: Date

    /// How long a started flow stays usable; providers expire their authorization requests.
    package static let lifetime: TimeInterval = 30 * 60

    var authorization: ProviderAuthorization {
        ProviderAuthorization(authURI: authURI, sessionId: sessionId, redirectURI: redirectURI)
    }

    /// The value the redirect must carry back (`state` or `oauth_token`).
    var binding: CallbackMatcher.Binding { CallbackMatcher.binding(forAuthorizationURL: authURI) }
}
