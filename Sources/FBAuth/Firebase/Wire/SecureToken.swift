/// securetoken's answer to `grant_type=refresh_token` (the Firebase Auth REST API reference, "Exchange a
/// refresh token for an ID token"), snake_case.
internal struct SecureTokenResponse: Decodable, Sendable, Equatable {
    internal var idToken: String?
    internal var refreshToken: String?
    internal var expiresIn: Int?
    internal var userId: String?

    enum CodingKeys: String, CodingKey {
        case idToken = "id_token", accessToken = "access_token", refreshToken = "refresh_token"
        case expiresIn = "expires_in", userId = "user_id"
    }

    internal init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // iOS reads access_token, which equals the ID token; prefer id_token when both are sent.
        idToken = try c.token(.idToken, .jwt) ?? c.token(.accessToken, .jwt)
        refreshToken = try c.token(.refreshToken, .bearer)
        expiresIn = try c.integer(.expiresIn, in: ServerValueBounds.tokenLifetime)
        userId = try c.identifier(.userId)
    }
}
