#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP
import FBAuthSupport

/// A provider token the caller already holds — from Google Sign-In, Sign in with Apple, a
/// CI's OpenID Connect issuer — sent to `signInWithIdp` in `postBody` as
/// `BrowserProvider.credential(…)` does (firebase-js-sdk `packages/auth/src/core/credentials/oauth.ts`,
/// `core/providers/oauth.ts`): `providerId`, `id_token`, `access_token`, `oauth_token_secret`,
/// and the raw `nonce` whose SHA-256 the ID token carries.
internal struct ProviderTokenCredential: Sendable, Equatable {
    internal let providerId: String
    internal let idToken: String?
    internal let accessToken: String?
    internal let secret: String?
    internal let rawNonce: String?
    /// The user's name from Sign in with Apple, sent as `user`.
    internal var fullName: PersonName?

    /// Checks the combination the provider accepts before anything is sent: Yahoo and
    /// Microsoft tokens are refused by Firebase itself; X (Twitter) needs its OAuth 1.0a
    /// token and secret; GitHub an access token; Apple and OpenID Connect providers an ID token.
    /// `forEmulator`: an Auth emulator takes fake ID tokens of strict JSON claims, spaces and all
    /// (`{"sub": "g-1", "name": "Gina G"}`, firebase-tools `operations.ts`, `parseClaims`);
    /// they are sent form-encoded in `postBody`, so only control characters are refused there.
    /// `names`: how the caller's user gives each part, for the messages (the SDK's parameter
    /// names by default; a command line names its options).
    internal init(providerId: String, idToken: String?, accessToken: String?, secret: String?, rawNonce: String?,
                 forEmulator: Bool = false, names: PartNames = .sdk) throws(FBAuthError) {
        // An emulator takes fake claims for every provider, Microsoft's and Yahoo's too, as
        // Google's does (firebase-tools `operations.ts`, `parseClaims`): only production refuses
        // those providers' tokens, and a real one is refused here still.
        let fakeClaims = forEmulator && idToken.map(Self.isFakeClaims) == true
        if let reason = Self.refusal(providerId), !(fakeClaims && ["microsoft.com", "yahoo.com"].contains(providerId)) { throw .usage(reason) }
        guard idToken != nil || accessToken != nil else {
            throw .usage("a provider credential needs \(names.idToken) or \(names.accessToken)")
        }
        for (name, value) in [("ID token", idToken), ("access token", accessToken), ("token secret", secret)] {
            if forEmulator, name == "ID token", let value, value.hasPrefix("{"), value.utf8.count <= 16 * 1024,
                !value.unicodeScalars.contains(where: TextChecks.isControl) {
                continue
            }
            if let value, !TokenAlphabet.visible.accepts(value) {
                throw .usage("the \(name) is not a token: it must be visible ASCII without spaces or line breaks, at most 16 KiB")
            }
        }
        if let rawNonce, rawNonce.isEmpty || rawNonce.count > 512 || !TokenAlphabet.visible.accepts(rawNonce) {
            throw .usage("\(names.rawNonce) must be 1 to 512 visible ASCII characters without spaces")
        }
        if rawNonce != nil, idToken == nil {
            throw .usage("\(names.rawNonce) goes with an ID token (\(names.idToken)): it is the raw value whose SHA-256 the token carries")
        }
        switch providerId {
        case "twitter.com":
            guard accessToken != nil, secret != nil, idToken == nil else {
                throw .usage("X (twitter.com) credentials are OAuth 1.0a: give \(names.accessToken) and \(names.secret)")
            }
        case "github.com":
            guard accessToken != nil, idToken == nil else { throw .usage("GitHub credentials are access tokens: give \(names.accessToken)") }
        case "apple.com":
            guard idToken != nil else { throw .usage("Apple credentials are ID tokens: give \(names.idToken) and the raw \(names.rawNonce) of the sign-in") }
        default:
            if providerId.hasPrefix("oidc."), idToken == nil {
                throw .usage("OpenID Connect providers (\(providerId)) take an ID token: give \(names.idToken)")
            }
        }
        if secret != nil, providerId != "twitter.com" { throw .usage("\(names.secret) applies to twitter.com (OAuth 1.0a) only") }
        self.providerId = providerId
        self.idToken = idToken
        self.accessToken = accessToken
        self.secret = secret
        self.rawNonce = rawNonce
    }

    internal typealias PartNames = CredentialPartNames

    /// An emulator's fake ID token: strict JSON claims, or an unsigned JWT (`alg: none`).
    static func isFakeClaims(_ token: String) -> Bool {
        if token.hasPrefix("{") { return true }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].isEmpty else { return false }
        var base64 = String(parts[0]).replacing("-", with: "+").replacing("_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
              let header = try? JSONDecoder().decode([String: JSONValue].self, from: data) else { return false }
        return header["alg"]?.stringValue == "none"
    }

    /// Why tokens of `providerId` cannot be used, if they cannot.
    internal static func refusal(_ providerId: String) -> String? {
        switch providerId {
        case "microsoft.com", "yahoo.com":
            // Firebase's guides for Microsoft and Yahoo sign-in: the server cannot verify the
            // audience of these providers' tokens, so it takes none.
            let name = ProviderNames.name(of: providerId)
            return "Firebase does not accept \(name) tokens obtained elsewhere (it cannot verify their audience); sign in through the browser instead"
        case "password", "emailLink", "phone", "anonymous", "custom":
            return "\(providerId) is not an identity provider whose tokens can be given"
        default:
            return providerId.hasPrefix("saml.") ? "SAML providers hand out no tokens to pass on; sign in through the browser instead" : nil
        }
    }

    /// The `signInWithIdp` request (`requestUri` `http://localhost`, as the SDKs send it).
    var request: SignInWithIdpRequest {
        var items: [(name: String, value: String)] = []
        if let idToken { items.append(("id_token", idToken)) }
        if let accessToken { items.append(("access_token", accessToken)) }
        if let secret { items.append(("oauth_token_secret", secret)) }
        items.append(("providerId", providerId))
        if let rawNonce { items.append(("nonce", rawNonce)) }
        if let user = fullName?.userParameter { items.append(("user", user)) }
        return SignInWithIdpRequest(requestUri: "http://localhost", postBody: FormEncoding.encode(items))
    }
}

extension CredentialSignIn {
    /// Signs in, links or reauthenticates with a provider token held already.
    internal func providerToken(_ credential: ProviderTokenCredential, purpose: FlowPurpose) throws(FBAuthError) -> BrowserSignInFlow.Result {
        try signInWithIdp(credential.request, providerId: credential.providerId, purpose: purpose)
    }
}

/// How the messages about a provider credential name its parts: as
/// `BrowserProvider.credential(providerID:idToken:rawNonce:accessToken:secret:)` names them, or as
/// a program's user gives them (fbauth: its options).
package struct CredentialPartNames: Sendable {
    package var idToken, accessToken, secret, rawNonce: String

    package init(idToken: String, accessToken: String, secret: String, rawNonce: String) {
        self.idToken = idToken
        self.accessToken = accessToken
        self.secret = secret
        self.rawNonce = rawNonce
    }

    /// As `BrowserProvider.credential(withProviderID:idToken:rawNonce:accessToken:)` names them.
    package static let sdk = CredentialPartNames(idToken: "idToken", accessToken: "accessToken", secret: "secret", rawNonce: "rawNonce")
}
