#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthHTTP
import FBAuthSupport

/// Custom tokens as firebase-admin's `createCustomToken` makes them (firebase-admin-node
/// `src/auth/token-generator.ts`): a JWT for Identity Toolkit's audience naming the `uid`,
/// with developer `claims` and a `tenant_id`, signed by the Admin credentials fbauth finds —
/// a service account's key (RS256 here, in constant time), or on Google's clouds the attached
/// service account through IAM's `signBlob` — and unsigned (`alg: none`, by
/// `firebase-auth-emulator@example.com`) against an emulator, as firebase-admin's emulated signer.
package struct CustomTokenMinter: Sendable {
    package static let audience = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"
    /// Claims a custom token's `claims` may not hold (firebase-admin's BLACKLISTED_CLAIMS).
    package static let reservedClaims: Set<String> = ["acr", "amr", "at_hash", "aud", "auth_time", "azp", "cnf", "c_hash", "exp", "iat",
                                                      "iss", "jti", "nbf", "nonce", "sub", "firebase"]
    package static let emulatorSigner = "firebase-auth-emulator@example.com"

    let emulator: Bool
    let credentials: AdminCredentialsSource
    let transport: HTTPTransport
    let clock: WallClock

    package init(emulator: Bool, credentials: AdminCredentialsSource, transport: HTTPTransport = CurlTransport(), clock: WallClock = SystemClock()) {
        self.emulator = emulator
        self.credentials = credentials
        self.transport = transport
        self.clock = clock
    }

    /// The token and who signed it (a service account's email, or the emulator's signer).
    /// `markedWith`: a developer claim added with the signer's email (fbauth's `--as` marker).
    package func mint(uid: String, claims: [String: JSONValue], tenantId: String?, markedWith marker: String? = nil) throws(TokenRefusal) -> (token: String, signer: String) {
        // UTF-16 units, as firebase-admin-node's `validator.isUid` counts (JavaScript's `length`).
        guard (1...128).contains(uid.utf16.count) else { throw TokenRefusal("`uid` argument must be a non-empty string uid with at most 128 characters.", code: "auth/argument-error") }
        if let reserved = claims.keys.sorted().first(where: Self.reservedClaims.contains) {
            throw TokenRefusal("Developer claim \"\(reserved)\" is reserved and cannot be specified.", code: "auth/argument-error")
        }
        let issued = Int64(clock.now().timeIntervalSince1970.rounded(.down))
        func payload(_ signer: String) -> [String: JSONValue] {
            var payload: [String: JSONValue] = ["aud": .string(Self.audience), "iat": .integer(issued), "exp": .integer(issued + 3600),
                                                "iss": .string(signer), "sub": .string(signer), "uid": .string(uid)]
            var claims = claims
            if let marker { claims[marker] = .string(signer) }
            if !claims.isEmpty { payload["claims"] = .object(claims) }
            payload["tenant_id"] = tenantId.map(JSONValue.string)
            return payload
        }
        return try sign(purpose: "Signing in as another user", payload)
    }

    /// A JWT of `payload` (given its signer's email), signed as custom tokens are: by the
    /// service account's key (its `kid` named), through IAM's `signBlob` on Google's clouds, or
    /// unsigned by the emulator's signer. `purpose` is said when no credentials are found.
    package func sign(purpose: String, _ payload: (String) -> [String: JSONValue]) throws(TokenRefusal) -> (token: String, signer: String) {
        if emulator {
            let input = DecodedJWT.segment(.object(["alg": .string("none"), "typ": .string("JWT")])) + "." + DecodedJWT.segment(.object(payload(Self.emulatorSigner)))
            return (input + ".", Self.emulatorSigner)
        }
        let header = DecodedJWT.segment(.object(["alg": .string("RS256"), "typ": .string("JWT")]))
        switch try credentials.load(purpose: purpose) {
        case .serviceAccount(let key):
            // The key's id, as firebase-admin's service-account signer names it.
            var named: [String: JSONValue] = ["alg": .string("RS256"), "typ": .string("JWT")]
            named["kid"] = key.privateKeyID.map(JSONValue.string)
            let input = DecodedJWT.segment(.object(named)) + "." + DecodedJWT.segment(.object(payload(key.clientEmail)))
            guard let signature = key.privateKey.signRS256(Array(input.utf8)) else {
                throw TokenRefusal("The service account's private key does not match its own public key: it cannot sign.", code: "app/invalid-credential")
            }
            return (input + "." + DecodedJWT.base64URL(signature), key.clientEmail)
        case .metadataServer(let host):
            let email = try serviceAccountEmail(metadataHost: host)
            let input = header + "." + DecodedJWT.segment(.object(payload(email)))
            return (input + "." + DecodedJWT.base64URL(try signBlob(Array(input.utf8), as: email, host: host)), email)
        case .authorizedUser:
            throw TokenRefusal("gcloud's application default credentials are a user's, which cannot sign a custom token: set GOOGLE_APPLICATION_CREDENTIALS to a service account's key file.",
                               code: "app/invalid-credential")
        case .emulatorOwner:
            throw TokenRefusal("An emulator's owner signs no custom token.", code: "app/invalid-credential")
        case .externalAccount:
            throw TokenRefusal("Workload identity federation's credentials (external_account) cannot sign a custom token: set GOOGLE_APPLICATION_CREDENTIALS to a service account's key file.",
                               code: "app/invalid-credential")
        }
    }

    /// The attached service account's email, from the metadata server (which must say it is one).
    private func serviceAccountEmail(metadataHost host: String) throws(TokenRefusal) -> String {
        guard let url = URL(string: "http://\(host)/computeMetadata/v1/instance/service-accounts/default/email") else {
            throw TokenRefusal("The metadata server's address \(host) does not make a URL.", code: "app/invalid-credential")
        }
        let response: HTTPClientResponse
        do {
            response = try transport.send(HTTPClientRequest(method: "GET", url: url, headers: ["Metadata-Flavor": "Google"], timeout: 10))
        } catch {
            throw TokenRefusal("Failed to determine service account: \(error.message)", code: "app/network-error")
        }
        let email = String(decoding: response.body, as: UTF8.self).filter { !$0.isWhitespace }
        guard response.status == 200, response.headers["metadata-flavor"] == "Google", email.utf8.count <= 254, email.contains("@"), TextChecks.isVisibleASCII(email) else {
            throw TokenRefusal("Failed to determine service account: the metadata server gave no service account's email (HTTP \(response.status)).", code: "app/invalid-credential")
        }
        return email
    }

    /// IAM Credentials' `signBlob` (firebase-admin's IAMSigner): the service account signs the
    /// bytes with a key Google holds, the request authorized by its own access token.
    private func signBlob(_ bytes: [UInt8], as email: String, host: String) throws(TokenRefusal) -> [UInt8] {
        let tokens = AdminAccessTokens(transport: transport, clock: clock, credentials: { () throws(TokenRefusal) in .metadataServer(host) })
        let (authorization, _) = try tokens.authorization()
        let url = URL(string: "https://iamcredentials.googleapis.com/v1/projects/-/serviceAccounts/\(email):signBlob")!
        let body = (try? JSONEncoder().encode(JSONValue.object(["payload": .string(Data(bytes).base64EncodedString())]))) ?? Data()
        let response: HTTPClientResponse
        do {
            response = try transport.send(HTTPClientRequest(method: "POST", url: url, headers: ["Authorization": authorization, "Content-Type": "application/json"],
                                                            body: body, timeout: 25))
        } catch {
            throw TokenRefusal("Error while making request to \(url.absoluteString): \(error.message)", code: "app/network-error")
        }
        let answer = JSONValue.decoded(response.body)
        guard response.status == 200, let signed = answer?["signedBlob"]?.stringValue, let signature = Data(base64Encoded: signed), signature.count >= 256 else {
            let reason = answer?["error"]?["message"]?.stringValue.map { String($0.prefix(200)) } ?? "HTTP \(response.status)"
            throw TokenRefusal("IAM could not sign the custom token as \(email): \(reason). The service account needs the Service Account Token Creator role on itself (iam.serviceAccounts.signBlob).",
                               code: response.status >= 500 ? "app/network-error" : "app/invalid-credential")
        }
        return Array(signature)
    }
}
