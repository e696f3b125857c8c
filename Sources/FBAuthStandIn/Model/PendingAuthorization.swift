#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An authorization started by `createAuthUri`, waiting for the browser to come back.
struct PendingAuthorization {
    var providerId: String
    var sessionId: String
    /// The redirect URI (`continueUri`), which the provider redirects to.
    var continueUri: String
    var tenantId: String?
    /// OAuth 2: the `state` in the authorization URL; OAuth 1.0a: the request token.
    var binding: String
    var scopes: [String]
    var customParameters: [String: String]
    var createdAt: Date
    /// When the hosted handler started this authorization: where its result goes.
    var handlerRequest: HandlerRequest? = nil
    /// Google without `authFlowType: CODE_FLOW`: the ID-token flow, answered in the fragment.
    var idTokenFlow = false
}

/// What the SDK asked the hosted handler for (firebase-js-sdk `core/util/handler.ts`,
/// `_getRedirectUrl`): the event it waits for, and how to deliver it.
struct HandlerRequest {
    var apiKey: String
    var appName: String
    var authType: String
    var eventId: String?
}

/// What the provider issued after consent: an authorization code (OAuth 2) or a verifier
/// (OAuth 1.0a), single-use.
struct IssuedGrant {
    var binding: String
    var identity: ProviderIdentity
    var used = false
}

/// A Firebase ID token the stand-in minted; only these verify.
struct IssuedIDToken {
    var localId: String
    var tenantId: String?
    var issuedAt: Date
    var expiresAt: Date
    /// When the user last signed in (the `auth_time` claim); refreshes keep it.
    var authTime: Date
    /// `firebase.sign_in_provider`.
    var signInProvider: String
    var secondFactor: SecondFactorClaim?
}

/// A refresh token the stand-in minted; the ID tokens it is exchanged for keep the sign-in's
/// first and second factor.
struct IssuedRefreshToken {
    var localId: String
    var tenantId: String?
    var issuedAt: Date
    var signInProvider: String
    var secondFactor: SecondFactorClaim?
    /// The `claims` of the custom token the session signed in with: in every ID token of the
    /// session, refreshed ones too (as production and Google's emulator keep them).
    var developerClaims: [String: Any] {
        get { storedClaims.object }
        set { storedClaims = JSONValue.members(newValue) ?? [:] }
    }
    private var storedClaims: [String: JSONValue] = [:]

    init(localId: String, tenantId: String?, issuedAt: Date, signInProvider: String, secondFactor: SecondFactorClaim?, developerClaims: [String: Any] = [:]) {
        (self.localId, self.tenantId, self.issuedAt, self.signInProvider, self.secondFactor) = (localId, tenantId, issuedAt, signInProvider, secondFactor)
        self.developerClaims = developerClaims
    }
}

/// `firebase.sign_in_second_factor` and `firebase.second_factor_identifier` of an ID token.
struct SecondFactorClaim {
    var factorId: String
    var enrollmentId: String
}
