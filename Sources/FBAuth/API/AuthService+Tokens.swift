#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An ID token for a command that prints one, as fast as the store allows.
extension AuthService {
    /// The ID token of the saved user `emailOrUID` names (nil: the current user) with at least
    /// `minValid` seconds left: the saved one, else (or with `forcingRefresh`) a new one from
    /// securetoken. Unlike `savedUser(_:)` then `SignedInUser.idToken()`, the store is read once when the
    /// saved token will do, and a refresh reads it at most three times (before the refresh lock,
    /// under it, and in the update); concurrent refreshes make one request.
    package func idToken(of emailOrUID: String? = nil, minValid: TimeInterval = 60, forcingRefresh: Bool = false,
                        completion: @escaping @Sendable (Result<FreshIDToken, FBAuthError>) -> Void) {
        onBackground({ () throws(FBAuthError) -> FreshIDToken in
            FreshIDToken(try self.refresher().session(emailOrUID.map(SessionSelector.user) ?? .current, minValid: minValid,
                                                      forceRefresh: forcingRefresh))
        }, completion)
    }
}

/// A provider's OAuth tokens kept from a sign-in or link, for calling the provider's own API
/// (Firebase does not refresh them). The SDK hands them over once, in
/// `AuthOutcome.credential`; fbauth keeps them with the session.
package struct SavedProviderCredential: Sendable {
    package let credential: OAuthTokens
    /// When the access token expires, when the provider said.
    package let expirationDate: Date?
}
