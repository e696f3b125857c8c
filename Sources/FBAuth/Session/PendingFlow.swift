#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A browser flow started with `--print-url`, waiting for `--complete URL` (perhaps from another
/// process or machine). Saved under the project.
public struct PendingFlow: Codable, Sendable, Equatable {
    /// The command that started it: `signin`, `link` or `reauth`.
    public var command: String
    public var providerId: String
    public var authURI: String
    public var sessionId: String
    public var redirectURI: String
    public var tenantId: String?
    /// The user being linked or reauthenticated.
    public var user: SessionReference?
    public var startedAt: Date

    /// How long a started flow stays usable; providers expire their authorization requests.
    public static let lifetime: TimeInterval = 30 * 60

    var authorization: BrowserSignInFlow.Authorization {
        BrowserSignInFlow.Authorization(authURI: authURI, sessionId: sessionId, redirectURI: redirectURI)
    }

    /// The value the redirect must carry back (`state` or `oauth_token`).
    var binding: CallbackMatcher.Binding { CallbackMatcher.binding(forAuthorizationURL: authURI) }
}
