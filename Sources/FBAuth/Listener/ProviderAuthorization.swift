#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `createAuthUri` returned for one redirect URI: where to send the user, and what the
/// redirect back must carry. Saved with a sign-in completed later (`PendingFlow`).
internal struct ProviderAuthorization: Sendable, Equatable {
    internal var authURI: String
    internal var sessionId: String
    internal var redirectURI: String

    var matcher: CallbackMatcher {
        CallbackMatcher(
            redirectPath: URLComponents(string: redirectURI)?.percentEncodedPath ?? RedirectReceiver.callbackPath,
            binding: CallbackMatcher.binding(forAuthorizationURL: authURI),
            port: UInt16(URLComponents(string: redirectURI)?.port ?? 80))
    }
}
