import FBAuthHTTP
import Foundation

/// A verified blocking-function token (firebase-admin's `DecodedAuthBlockingToken`): the event,
/// the user it is about, and the sign-in's details, as Identity Platform sends them.
public struct DecodedAuthBlockingToken: @unchecked Sendable {
    /// Every claim, as JSONSerialization's values. `@unchecked Sendable`: values of JSON only.
    public let claims: [String: Any]

    init(_ claims: [String: JSONValue]) { self.claims = DecodedIDToken.foundationObjects(claims) }

    private func text(_ name: String) -> String? { claims[name] as? String }
    private func time(_ name: String) -> Date { Date(timeIntervalSince1970: (claims[name] as? NSNumber)?.doubleValue ?? 0) }

    /// The user's uid (`sub`); empty for `beforeSendEmail` and `beforeSendSms`, which have no user.
    public var uid: String { text("sub") ?? "" }
    /// `sub`: the same as `uid`.
    public var subject: String? { text("sub") }
    /// `aud`: the function's URL.
    public var audience: String? { text("aud") }
    /// `iss`: `https://securetoken.google.com/PROJECT`.
    public var issuer: String? { text("iss") }
    /// `iat`.
    public var issuedAt: Date { time("iat") }
    /// `exp`: the function's deadline.
    public var expirationTime: Date { time("exp") }
    /// `event_id`: this event's id.
    public var eventID: String? { text("event_id") }
    /// `event_type`: `beforeCreate`, `beforeSignIn`, `beforeSendEmail` or `beforeSendSms` (with
    /// Identity Platform's prefix in production: `providers/cloud.auth/eventTypes/user.beforeCreate`).
    public var eventType: String? { text("event_type") }
    /// `ip_address`: the client's address.
    public var ipAddress: String? { text("ip_address") }
    /// `user_agent`: the client's user agent.
    public var userAgent: String? { text("user_agent") }
    /// `locale`: the client's language.
    public var locale: String? { text("locale") }
    /// `tenant_id`: the tenant of the user, if any.
    public var tenantID: String? { text("tenant_id") }
    /// `sign_in_method`: `password`, `google.com`, `emailLink`, …
    public var signInMethod: String? { text("sign_in_method") }
    /// `sign_in_attributes`: a SAML provider's attributes.
    public var signInAttributes: [String: Any]? { claims["sign_in_attributes"] as? [String: Any] }
    /// `raw_user_info`: the provider's profile, as JSON text.
    public var rawUserInfo: String? { text("raw_user_info") }
    /// `oauth_id_token`: the provider's ID token, where the provider gave one.
    public var oauthIDToken: String? { text("oauth_id_token") }
    /// `oauth_access_token`: the provider's access token.
    public var oauthAccessToken: String? { text("oauth_access_token") }
    /// `oauth_refresh_token`: the provider's refresh token.
    public var oauthRefreshToken: String? { text("oauth_refresh_token") }
    /// `oauth_token_secret`: an OAuth 1.0a provider's token secret.
    public var oauthTokenSecret: String? { text("oauth_token_secret") }
    /// `oauth_expires_in`: how long the provider's access token lasts, in seconds.
    public var oauthExpiresIn: Int? { (claims["oauth_expires_in"] as? NSNumber)?.intValue }
    /// `user_record`: the user as it would be (`uid`, `email`, `provider_data`, `multi_factor`, …).
    public var userRecord: [String: Any]? { claims["user_record"] as? [String: Any] }
}
