#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `createAuthUri` returned for one redirect URI: where to send the user, and what the
/// redirect back must carry. Saved with a sign-in completed later (`PendingFlow`).
package struct ProviderAuthorization: Sendable, Equatable {
    package var authURI: String
    package var sessionId: String
    package var redirectURI: String

    var matcher: CallbackMatcher {
        CallbackMatcher(
            redirectPath: URLComponents(string: redirectURI)?.percentEncodedPath ?? RedirectReceiver.callbackPath,
            binding: CallbackMatcher.binding(forAuthorizationURL: authURI),
            port: UInt16(URLComponents(string: redirectURI)?.port ?? 80))
    }
}
