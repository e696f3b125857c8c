import Foundation

/// What a `signInWithIdp` answer means. HTTP 200 is not always success: `needConfirmation`,
/// `errorMessage`, a second factor, or a missing `idToken` are failures
/// (firebase-protocol.md §2, "Consequences" 4).
public enum IdpSignInOutcome: Sendable {
    case signedIn(SignInWithIdpResponse)
    /// An account with this email exists with other sign-in methods.
    case accountExists(SignInWithIdpResponse)

    public static func classify(_ response: SignInWithIdpResponse, host: String, action: String) throws(FBAuthError) -> IdpSignInOutcome {
        if let errorMessage = response.errorMessage {
            throw .server(ServerError(httpStatus: 200, message: errorMessage, host: host), action: action)
        }
        if response.needConfirmation == true { return .accountExists(response) }
        if response.mfaPendingCredential != nil {
            throw .failed("\(action) failed: this account requires a second factor (multi-factor authentication), which fbauth does not support")
        }
        guard response.idToken != nil, response.refreshToken != nil, response.localId != nil else {
            throw .badResponse(host: host, reason: "the sign-in answer has no idToken, refreshToken or localId")
        }
        return .signedIn(response)
    }
}

/// A completed sign-in: the exchange's answer plus the account as `accounts:lookup` reports it.
public struct SignInRecord: Sendable {
    public var response: SignInWithIdpResponse
    public var account: AccountInfo
    /// The provider fbauth asked for (the answer's `providerId` wins when present).
    public var requestedProviderId: String
    public var tenantId: String?
    public var receivedAt: Date

    public init(response: SignInWithIdpResponse, account: AccountInfo, requestedProviderId: String, tenantId: String?, receivedAt: Date) {
        self.response = response
        self.account = account
        self.requestedProviderId = requestedProviderId
        self.tenantId = tenantId
        self.receivedAt = receivedAt
    }

    public var providerId: String { response.providerId ?? requestedProviderId }

    /// The provider's OAuth credential, when the answer carried one.
    public var providerCredential: ProviderCredential? {
        guard response.oauthAccessToken != nil || response.oauthIdToken != nil || response.oauthTokenSecret != nil else { return nil }
        return ProviderCredential(
            providerId: providerId, accessToken: response.oauthAccessToken, idToken: response.oauthIdToken,
            secret: response.oauthTokenSecret,
            expirationTime: response.oauthExpireIn.map { receivedAt.addingTimeInterval(TimeInterval($0)) },
            obtainedAt: receivedAt)
    }

    /// The session to save; `previous` keeps credentials of other providers (linking).
    public func session(replacing previous: Session? = nil) -> Session {
        var session = Session(
            uid: account.localId ?? response.localId ?? "",
            tenantId: account.tenantId ?? response.tenantId ?? tenantId,
            idToken: response.idToken ?? "",
            refreshToken: response.refreshToken ?? "",
            expirationTime: receivedAt.addingTimeInterval(TimeInterval(response.expiresIn ?? 3600)),
            lastSignInTime: receivedAt,
            providerCredentials: previous?.providerCredentials ?? [])
        session.update(from: account)
        if session.email == nil { session.email = response.email }
        if session.displayName == nil { session.displayName = response.displayName }
        if session.photoURL == nil { session.photoURL = response.photoUrl }
        if let credential = providerCredential { session.remember(credential) }
        return session
    }
}
