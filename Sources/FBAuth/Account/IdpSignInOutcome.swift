#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a `signInWithIdp` answer means. HTTP 200 is not always success: `needConfirmation`,
/// `errorMessage`, a second factor, or a missing `idToken` are failures
/// (firebase-js-sdk packages/auth/src/api/index.ts and core/strategies/idp.ts).
internal enum IdpSignInOutcome: Sendable {
    /// Signed in: the answer and the Firebase tokens it was checked to carry.
    case signedIn(SignInWithIdpResponse, IssuedTokens)
    /// An account with this email exists with other sign-in methods.
    case accountExists(SignInWithIdpResponse)
    /// The account has second factors: the provider's part of the answer, and what a second
    /// factor must complete.
    case secondFactor(SignInWithIdpResponse, SecondFactorChallenge)

    internal static func classify(_ response: SignInWithIdpResponse, host: String, action: String) throws(FBAuthError) -> IdpSignInOutcome {
        // needConfirmation first, as the JS SDK does (packages/auth/src/api/index.ts,
        // `_performFetchWithErrorHandling`): such an answer may carry an errorMessage too.
        if response.needConfirmation == true { return .accountExists(response) }
        if let errorMessage = response.errorMessage {
            let refusal = FBAuthError.server(ServerError(httpStatus: 200, message: errorMessage, host: host), action: action)
            // The answer carries the provider's credential, which signs in to the user it is
            // linked to: the SDK's credentialAlreadyInUse error hands it on (firebase-ios-sdk
            // AuthBackend, FEDERATED_USER_ID_ALREADY_LINKED).
            if ServerError(httpStatus: 200, message: errorMessage, host: host).code == "FEDERATED_USER_ID_ALREADY_LINKED" {
                throw .credentialInUse(AccountExistsConflict(response: response, providerId: response.providerId ?? "", message: refusal.message))
            }
            throw refusal
        }
        if let pending = response.mfaPendingCredential {
            return .secondFactor(response, try SecondFactorChallenge(pending: pending, factors: response.mfaInfo, host: host, action: action))
        }
        guard let idToken = response.idToken, let refreshToken = response.refreshToken, response.localId != nil else {
            throw .badResponse(host: host, reason: "the sign-in answer has no idToken, refreshToken or localId")
        }
        return .signedIn(response, IssuedTokens(idToken: idToken, refreshToken: refreshToken, expiresIn: response.expiresIn))
    }
}

extension SecondFactorChallenge {
    /// A pending credential must come with the factors to choose from.
    init(pending: String, factors: [MfaEnrollmentInfo]?, host: String, action: String) throws(FBAuthError) {
        guard let factors, !factors.isEmpty else {
            throw .badResponse(host: host, reason: "the answer asks for a second factor but lists none (mfaInfo)")
        }
        self.init(pendingCredential: pending, factors: factors, action: action)
    }
}

/// The Firebase tokens of a sign-in answer.
internal struct IssuedTokens: Sendable {
    internal var idToken: String
    internal var refreshToken: String
    /// Seconds; Firebase ID tokens last 3600.
    internal var expiresIn: Int?

    internal init(idToken: String, refreshToken: String, expiresIn: Int?) {
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
    }
}

/// A completed sign-in, by any method: the tokens, the provider's answer when an identity
/// provider was used, and the account as `accounts:lookup` reports it.
internal struct SignInRecord: Sendable {
    internal var tokens: IssuedTokens
    /// The identity provider's part of the answer; nil for password, anonymous and custom tokens.
    internal var idp: SignInWithIdpResponse?
    internal var account: AccountInfo
    /// The method as the SDKs' `additionalUserInfo.providerId` names it (`yahoo.com`,
    /// `password`); nil for anonymous and custom-token sign-in.
    internal var method: String?
    internal var isNewUser: Bool
    internal var tenantId: String?
    internal var receivedAt: Date
    /// The second factor that completed the sign-in, if one did.
    internal var secondFactor: MfaEnrollmentInfo?

    internal init(tokens: IssuedTokens, idp: SignInWithIdpResponse?, account: AccountInfo, method: String?,
                isNewUser: Bool, tenantId: String?, receivedAt: Date, secondFactor: MfaEnrollmentInfo? = nil) {
        self.secondFactor = secondFactor
        self.tokens = tokens
        self.idp = idp
        self.account = account
        self.method = method
        self.isNewUser = isNewUser
        self.tenantId = tenantId
        self.receivedAt = receivedAt
    }

    /// The provider's OAuth credential, when the answer carried one.
    internal var providerCredential: ProviderCredential? {
        guard let idp, let method, idp.oauthAccessToken != nil || idp.oauthIdToken != nil || idp.oauthTokenSecret != nil else { return nil }
        return ProviderCredential(
            providerId: method, accessToken: idp.oauthAccessToken, idToken: idp.oauthIdToken, secret: idp.oauthTokenSecret,
            expirationTime: idp.oauthExpireIn.map { receivedAt.addingTimeInterval(TimeInterval($0)) },
            obtainedAt: receivedAt)
    }

    /// The session to save; `previous` (the same user's saved session, when linking or
    /// reauthenticating) keeps the credentials of other providers.
    internal func session(replacing previous: Session? = nil) -> Session {
        var session = Session(
            uid: account.localId ?? "",
            tenantId: account.tenantId ?? idp?.tenantId ?? tenantId,
            idToken: tokens.idToken,
            refreshToken: tokens.refreshToken,
            expirationTime: receivedAt.addingTimeInterval(TimeInterval(tokens.expiresIn ?? 3600)),
            lastSignInTime: receivedAt,
            providerCredentials: previous?.providerCredentials ?? [])
        session.update(from: account)
        if session.email == nil { session.email = idp?.email }
        if session.displayName == nil { session.displayName = idp?.displayName }
        if session.photoURL == nil { session.photoURL = idp?.photoUrl }
        if let credential = providerCredential { session.remember(credential) }
        // Linking and reauthentication keep how the session was signed in.
        session.signInArguments = previous?.signInArguments
        return session
    }
}
