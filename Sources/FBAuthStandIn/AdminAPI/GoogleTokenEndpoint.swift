#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport
import LoopbackHTTP

extension Backend {
    static let googleTokenPath = "/oauth2.googleapis.com/token"
    static let googleTokenAudience = "https://oauth2.googleapis.com/token"

    /// `POST https://oauth2.googleapis.com/token`, as Google's auth libraries call it for the
    /// Admin API: a service account's signed JWT (RFC 7523, `jwt-bearer`) or a gcloud user's
    /// refresh token, for an access token good for an hour. Errors are OAuth's
    /// (`{"error", "error_description"}`, RFC 6749 §5.2), in Google's words.
    func googleToken(_ request: HTTPRequest) -> HTTPResponse {
        var form: [String: String] = [:]
        for item in FormEncoding.decode(String(decoding: request.body, as: UTF8.self)) { form[item.name] = item.value }
        do throws(OAuthError) {
            switch form["grant_type"] {
            case "urn:ietf:params:oauth:grant-type:jwt-bearer": try checkAssertion(form["assertion"] ?? "")
            case "refresh_token":
                guard let grant = configuration.authorizedUsers.first(where: { $0.clientID == form["client_id"] }), grant.clientSecret == form["client_secret"] else {
                    throw OAuthError(401, "invalid_client", "Unauthorized")
                }
                guard grant.refreshToken == form["refresh_token"] else { throw OAuthError(400, "invalid_grant", "Bad Request") }
            default:
                throw OAuthError(400, "unsupported_grant_type", "Invalid grant_type: \(form["grant_type"] ?? "")")
            }
        } catch {
            return JSONResponse.make(error.status, ["error": error.code, "error_description": error.description])
        }
        let token = "ya29.stand-in." + RandomToken.make(bytes: 32)
        adminAccessTokens[token] = now().addingTimeInterval(3600)
        var answer: [String: Any] = ["access_token": token, "expires_in": 3599, "token_type": "Bearer"]
        if form["grant_type"] == "refresh_token" {
            // A user's grant also answers the scopes granted and, gcloud's asking for openid, an
            // ID token, as Google's does.
            answer["scope"] = "openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/cloud-platform"
            answer["id_token"] = UnsignedJWT.make(["iss": "https://accounts.google.com", "aud": form["client_id"] ?? "", "sub": "100000000000000000002"])
        }
        return JSONResponse.make(200, answer)
    }

    private func checkAssertion(_ assertion: String) throws(OAuthError) {
        let parts = assertion.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerData = Base64URL.decode(parts[0]), let claimsData = Base64URL.decode(parts[1]), let signature = Base64URL.decode(parts[2]),
              let header = JSONText.parse(headerData) as? [String: Any], let claims = JSONText.parse(claimsData) as? [String: Any]
        else { throw OAuthError(400, "invalid_grant", "Invalid JWT: Invalid JSON Web Token.") }
        guard header["alg"] as? String == "RS256" else { throw OAuthError(400, "invalid_grant", "Invalid JWT: Unsupported algorithm.") }
        guard let issuer = claims["iss"] as? String, let key = configuration.serviceAccounts[issuer] else {
            throw OAuthError(400, "invalid_grant", "Invalid grant: account not found")
        }
        guard Self.verifies(signature: [UInt8](signature), of: Array((parts[0] + "." + parts[1]).utf8), with: key) else {
            throw OAuthError(400, "invalid_grant", "Invalid JWT Signature.")
        }
        guard claims["aud"] as? String == Self.googleTokenAudience else {
            throw OAuthError(400, "invalid_grant", "Invalid JWT: Failed audience check. The expected value is \(Self.googleTokenAudience).")
        }
        let now = now().timeIntervalSince1970
        guard let issued = Self.seconds(claims["iat"]), let expires = Self.seconds(claims["exp"]),
              expires > now, issued <= now + 300, expires - issued <= 3600
        else {
            throw OAuthError(400, "invalid_grant", "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.")
        }
        let scopes = (claims["scope"] as? String)?.split(separator: " ").map(String.init) ?? []
        guard scopes.contains("https://www.googleapis.com/auth/identitytoolkit") || scopes.contains("https://www.googleapis.com/auth/cloud-platform") else {
            throw OAuthError(400, "invalid_scope", "Invalid OAuth scope or ID token audience provided.")
        }
    }

    /// A JSON number of seconds.
    static func seconds(_ value: Any?) -> Double? {
        (value as? Int).map(Double.init) ?? (value as? Double)
    }

    /// RSASSA-PKCS1-v1_5 with SHA-256 (RFC 8017 §8.2.2), the stand-in's own rather than shared
    /// with fbauth's verifier: the stand-in must catch the client's mistakes, not share them.
    static func verifies(signature: [UInt8], of message: [UInt8], with key: ServiceAccountPublicKey) -> Bool {
        let modulusBytes = stride(from: 0, to: key.modulusHex.utf8.count, by: 2).compactMap { UInt8(key.modulusHex.dropFirst($0).prefix(2), radix: 16) }
        guard let arithmetic = Montgomery(modulus: Montgomery.limbs(bigEndian: modulusBytes)), signature.count == modulusBytes.count else { return false }
        let opened = Montgomery.bigEndian(arithmetic.power(Montgomery.padded(Montgomery.limbs(bigEndian: signature), to: arithmetic.modulus.count), key.exponent), count: signature.count)
        return opened == StandInSigningKey.encodedBlock(for: message, length: signature.count)
    }

    static let metadataTokenPath = "/computeMetadata/v1/instance/service-accounts/default/token"

    /// The metadata server of Google's clouds, as a Cloud Run service or a VM reaches it at
    /// `GCE_METADATA_HOST` (here, the stand-in's address): its service account's access token,
    /// only for a request that says `Metadata-Flavor: Google`, and saying so in the answer.
    func metadataToken(_ request: HTTPRequest) -> HTTPResponse {
        guard request.header("Metadata-Flavor") == "Google" else {
            return HTTPResponse(status: 403, headers: [("Content-Type", "text/html"), ("Metadata-Flavor", "Google")], body: Array("Missing Metadata-Flavor:Google header.".utf8))
        }
        let token = "ya29.c.stand-in." + RandomToken.make(bytes: 32)
        adminAccessTokens[token] = now().addingTimeInterval(3600)
        var response = JSONResponse.make(200, ["access_token": token, "expires_in": 3599, "token_type": "Bearer"])
        response.headers.append(("Metadata-Flavor", "Google"))
        return response
    }

    /// Whether the request carries the Admin API's authority: the emulator's `Bearer owner`,
    /// or an access token the token endpoint issued that has not expired.
    func requireAdmin(_ request: HTTPRequest) throws(APIError) {
        guard let authorization = request.header("Authorization"), authorization.lowercased().hasPrefix("bearer ") else {
            throw APIError(httpStatus: 401, message: "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.", status: "UNAUTHENTICATED", reason: "unauthorized")
        }
        let token = String(authorization.dropFirst("Bearer ".count))
        // Google's Auth emulator takes `Bearer owner` in any case, as its administrator.
        if token.lowercased() == "owner" { return }
        // It also takes any Google OAuth access token (`ya29.…`) unchecked: a production
        // service account's, as a server configured for production sends it.
        if configuration.profile.has(.anyGoogleAccessTokenIsAdministrator), token.hasPrefix("ya29.") { return }
        guard let expires = adminAccessTokens[token], expires > now() else {
            throw APIError(httpStatus: 401, message: "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.", status: "UNAUTHENTICATED", reason: "unauthorized")
        }
    }
}

struct OAuthError: Error {
    let status: Int
    let code: String
    let description: String

    init(_ status: Int, _ code: String, _ description: String) {
        self.status = status
        self.code = code
        self.description = description
    }
}
