#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport

/// `signInWithIdp` with a credential the app already holds, in `postBody` as
/// `OAuthProvider.credential(...)` sends it (firebase-js-sdk `packages/auth/src/core/credentials/oauth.ts`):
/// `providerId` and `id_token`, `access_token`, `oauth_token_secret`, `nonce`. Production
/// verifies the token with the provider; the stand-in accepts the tokens its fake providers
/// issued (or tests minted), checking what production checks: the ID token's audience, its
/// expiry and the nonce's SHA-256, the OAuth 1.0a secret.
extension Backend {
    /// Providers whose tokens Firebase cannot verify, as Firebase's guides for Microsoft and
    /// Yahoo sign-in say: their sign-in goes through the browser only.
    static let browserOnlyProviders: Set<String> = ["microsoft.com", "yahoo.com"]

    func identityFromCredential(providerId: String, parameters: [String: String], requestUri: String) throws(APIError) -> ProviderIdentity {
        let idToken = parameters["id_token"].flatMap { $0.isEmpty ? nil : $0 }
        let accessToken = parameters["access_token"].flatMap { $0.isEmpty ? nil : $0 }
        // Production echoes the whole request URI (tokens included) in this message.
        let invalid = APIError.badRequest("INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: \(requestUri)?\(FormEncodingEcho.make(parameters))")
        guard !Self.browserOnlyProviders.contains(providerId), idToken != nil || accessToken != nil else { throw invalid }
        if let idToken {
            guard let identity = providerCredentials[idToken], identity.providerId == providerId, let claims = UnsignedJWT.claims(of: idToken) else {
                throw .badRequest("INVALID_IDP_RESPONSE : Unable to verify the ID token signature.")
            }
            let audience = claims["aud"] as? String ?? ""
            guard audience == "fake-\(providerId)-client" || configuration.trustedAudiences.contains(audience) else {
                throw .badRequest("INVALID_IDP_RESPONSE : The audience in ID Token [\(audience)] does not match the expected audience.")
            }
            if let expiry = claims["exp"] as? Int, Double(expiry) <= now().timeIntervalSince1970 {
                throw .badRequest("INVALID_IDP_RESPONSE : ID Token expired.")
            }
            if let hashed = claims["nonce"] as? String {
                guard let raw = parameters["nonce"], !raw.isEmpty else { throw .badRequest("MISSING_OR_INVALID_NONCE : Nonce is missing in the request.") }
                guard SHA256.hex(raw) == hashed else { throw .badRequest("MISSING_OR_INVALID_NONCE : Nonce does not match.") }
            } else if providerId == "apple.com" {
                throw .badRequest("MISSING_OR_INVALID_NONCE : Nonce is missing in the ID token.")
            }
            return Self.withAppleName(identity, user: parameters["user"])
        }
        guard providerId != "apple.com", !providerId.hasPrefix("oidc."), let accessToken else {
            throw .badRequest("INVALID_IDP_RESPONSE : Invalid Idp Response: id_token is required for \(providerId).")
        }
        guard let identity = providerCredentials[accessToken], identity.providerId == providerId else {
            throw .badRequest("INVALID_IDP_RESPONSE : Invalid Idp Response: access_token is invalid")
        }
        if providerId == "twitter.com" {
            guard parameters["oauth_token_secret"] == identity.tokenSecret else {
                throw .badRequest("INVALID_IDP_RESPONSE : Invalid Idp Response: the OAuth token secret does not match")
            }
        }
        return identity
    }

    /// Apple puts no name in its ID token: it gives it to the app once, which sends it as
    /// `user` `{"name":{"firstName","lastName"}}` (firebase-ios-sdk VerifyAssertionRequest.swift),
    /// and Firebase takes it as the user's name.
    static func withAppleName(_ identity: ProviderIdentity, user: String?) -> ProviderIdentity {
        guard identity.providerId == "apple.com", let user, let object = JSONText.parse(Data(user.utf8)) as? [String: Any],
              let name = object["name"] as? [String: Any] else { return identity }
        var named = identity
        named.firstName = name["firstName"] as? String
        named.lastName = name["lastName"] as? String
        let full = [named.firstName, named.lastName].compactMap { $0 }.joined(separator: " ")
        if !full.isEmpty { named.displayName = full }
        return named
    }

    /// Keeps a provider token that a credential sign-in may present later.
    func rememberProviderCredential(_ identity: ProviderIdentity) {
        providerCredentials[identity.accessToken] = identity
        if let idToken = identity.idToken { providerCredentials[idToken] = identity }
    }
}

/// `name=value&…` in a fixed order, for production's echo of the credential.
enum FormEncodingEcho {
    static func make(_ parameters: [String: String]) -> String {
        parameters.keys.sorted().map { "\($0)=\(parameters[$0] ?? "")" }.joined(separator: "&")
    }
}
