#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

extension Backend {
    /// `POST /v1/token` (securetoken, the Firebase Auth REST API reference, "Exchange a refresh token
    /// for an ID token"): exchanges a refresh token for a
    /// new ID token. Accepts the documented form body and JSON (camelCase or snake_case).
    func grantToken(_ request: HTTPRequest) throws(APIError) -> [String: Any] {
        let fields: [String: String]
        if request.header("Content-Type")?.lowercased().hasPrefix("application/json") == true {
            let body = try JSONBody(request, allowed: ["grantType", "refreshToken", "code"])
            fields = ["grant_type": try body.string("grantType") ?? "", "refresh_token": try body.string("refreshToken") ?? ""]
        } else {
            var form: [String: String] = [:]
            // OAuth 2.0's snake_case, and the camelCase Google's front end takes too.
            for item in FormEncoding.decode(String(decoding: request.body, as: UTF8.self)) {
                let name = ["grantType": "grant_type", "refreshToken": "refresh_token"][item.name] ?? item.name
                if form[name] == nil { form[name] = item.value }
            }
            fields = form
        }
        guard let grantType = fields["grant_type"], !grantType.isEmpty else { throw .badRequest("MISSING_GRANT_TYPE") }
        guard grantType == "refresh_token" else { throw .badRequest("INVALID_GRANT_TYPE") }
        guard let refreshToken = fields["refresh_token"], !refreshToken.isEmpty else { throw .badRequest("MISSING_REFRESH_TOKEN") }
        guard let issued = refreshTokens[refreshToken] else { throw .badRequest("INVALID_REFRESH_TOKEN") }
        // Production says the user is not found; Google's emulator that the token is invalid.
        guard let account = accounts[AccountKey(tenantId: issued.tenantId, localId: issued.localId)] else {
            throw .badRequest(configuration.profile.has(.googleErrorWords) ? "INVALID_REFRESH_TOKEN" : "USER_NOT_FOUND")
        }
        guard !account.disabled else { throw .badRequest("USER_DISABLED") }
        guard issued.issuedAt >= account.validSince else { throw .badRequest("TOKEN_EXPIRED") }

        let idToken = mintIDToken(for: account, signInProvider: issued.signInProvider, secondFactor: issued.secondFactor,
                                  developerClaims: issued.developerClaims)
        return [
            "access_token": idToken,
            "expires_in": String(configuration.idTokenLifetime),
            "id_token": idToken,
            "refresh_token": refreshToken,
            "token_type": "Bearer",
            "user_id": account.localId,
            "project_id": configuration.projectNumber,
        ]
    }
}
