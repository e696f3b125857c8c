/// securetoken's answer to `grant_type=refresh_token` (the Firebase Auth REST API reference, "Exchange a
/// refresh token for an ID token"), snake_case.
public struct SecureTokenResponse: Decodable, Sendable, Equatable {
    public var idToken: String?
    public var refreshToken: String?
    public var expiresIn: Int?
    public var userId: String?

    enum CodingKeys: String, CodingKey {
        case idToken = "id_token", accessToken = "access_token", refreshToken = "refresh_token"
        case expiresIn = "expires_in", userId = "user_id"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // iOS reads access_token, which equals the ID token; prefer id_token when both are sent.
        idToken = c.string(.idToken) ?? c.string(.accessToken)
        refreshToken = c.string(.refreshToken)
        expiresIn = c.int(.expiresIn)
        userId = c.string(.userId)
    }
}
