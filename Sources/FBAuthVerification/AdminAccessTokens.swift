#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthHTTP
import FBAuthSupport
import LoopbackHTTP

/// OAuth 2 access tokens for the Admin API, from the credentials found when first needed, kept
/// until five minutes before they expire (as Google's auth libraries keep them). One exchange
/// serves every caller waiting at once: the lock is held while it runs. Nothing of them is
/// written anywhere.
final class AdminAccessTokens: @unchecked Sendable {
    /// What Google's token endpoint is asked for (firebase-admin-node `credential-internal.ts`).
    static let scopes = [
        "https://www.googleapis.com/auth/cloud-platform",
        "https://www.googleapis.com/auth/firebase.database",
        "https://www.googleapis.com/auth/firebase.messaging",
        "https://www.googleapis.com/auth/identitytoolkit",
        "https://www.googleapis.com/auth/userinfo.email",
    ].joined(separator: " ")
    static let refreshBefore: TimeInterval = 300

    private let findCredentials: @Sendable () throws(TokenRefusal) -> AdminCredentials
    private let transport: HTTPTransport
    private let clock: WallClock
    private let lock = Lock()
    private var credentials: AdminCredentials?
    private var current: (token: String, expires: Date)?

    init(transport: HTTPTransport, clock: WallClock, credentials: @escaping @Sendable () throws(TokenRefusal) -> AdminCredentials) {
        findCredentials = credentials
        self.transport = transport
        self.clock = clock
    }

    /// The `Authorization` header's value, and the project to bill (`x-goog-user-project`) if
    /// the credentials say.
    func authorization() throws(TokenRefusal) -> (header: String, quotaProject: String?) {
        let result: Result<(String, String?), TokenRefusal> = lock.withLock {
            do throws(TokenRefusal) {
                let credentials: AdminCredentials
                if let found = self.credentials { credentials = found } else { credentials = try findCredentials() }
                self.credentials = credentials
                let now = clock.now()
                switch credentials {
                case .emulatorOwner:
                    return .success(("Bearer owner", nil))
                case .serviceAccount(let key):
                    return .success(("Bearer " + (try token(now: now) { () throws(TokenRefusal) in (key.tokenURI, try assertionGrant(key, now: now)) }), nil))
                case .authorizedUser(let user):
                    return .success(("Bearer " + (try token(now: now) { (user.tokenURI, refreshGrant(user)) }), user.quotaProjectID))
                case .externalAccount(let account):
                    return .success(("Bearer " + (try externalToken(account, now: now)), account.quotaProjectID))
                case .metadataServer(let host):
                    guard let url = URL(string: "http://\(host)/computeMetadata/v1/instance/service-accounts/default/token") else {
                        throw TokenRefusal("The metadata server's address \(host) does not make a URL.", code: "app/invalid-credential")
                    }
                    return .success(("Bearer " + (try token(now: now) { (url, nil) }), nil))
                }
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The kept token, or a new one from `grant`: where to ask, and the form to POST (nil: a GET
    /// of the metadata server).
    private func token(now: Date, _ grant: () throws(TokenRefusal) -> (URL, [(name: String, value: String)]?)) throws(TokenRefusal) -> String {
        if let current, now < current.expires.addingTimeInterval(-Self.refreshBefore) { return current.token }
        let (url, form) = try grant()
        let (token, lifetime) = try exchange(url, form)
        current = (token, now.addingTimeInterval(lifetime))
        return token
    }

    /// The kept token, or one from the Security Token Service for the subject token read now,
    /// and then, with impersonation, the service account's from IAM (`expireTime` its end).
    private func externalToken(_ account: ExternalAccount, now: Date) throws(TokenRefusal) -> String {
        if let current, now < current.expires.addingTimeInterval(-Self.refreshBefore) { return current.token }
        let subject = try account.subjectToken(transport: transport)
        let (federated, lifetime) = try exchange(account.tokenURL, account.exchangeForm(subjectToken: subject, scopes: Self.scopes))
        guard let impersonation = account.impersonationURL else {
            current = (federated, now.addingTimeInterval(lifetime))
            return federated
        }
        let body = JSONValue.object(["scope": .array(Self.scopes.split(separator: " ").map { .string(String($0)) }), "lifetime": "3600s"])
        let failed = "Failed to impersonate the service account at \(impersonation.absoluteString)"
        let response: HTTPClientResponse
        do {
            response = try transport.send(HTTPClientRequest(method: "POST", url: impersonation, headers: ["Content-Type": "application/json", "Authorization": "Bearer \(federated)"],
                                                            body: (try? JSONEncoder().encode(body)) ?? Data(), timeout: 30))
        } catch {
            throw TokenRefusal("\(failed): \(error.message)", code: "app/network-error")
        }
        let answer = JSONValue.decoded(response.body)
        guard response.status == 200 else {
            let reason = answer?["error"]?["message"]?.stringValue.map { " (\(TerminalText.safe(String($0.prefix(200)))))" } ?? ""
            throw TokenRefusal("\(failed): HTTP \(response.status)\(reason).", code: response.status >= 500 ? "app/network-error" : "app/invalid-credential")
        }
        guard let token = answer?["accessToken"]?.stringValue, token.utf8.count <= 4096, TextChecks.isVisibleASCII(token) else {
            throw TokenRefusal("\(failed): the answer has no accessToken fbauth can send.", code: "app/invalid-credential")
        }
        // Its end as IAM gives it; an hour when it says none fbauth can read.
        let expires = answer?["expireTime"]?.stringValue.flatMap { try? Date($0, strategy: .iso8601) } ?? now.addingTimeInterval(3600)
        current = (token, min(expires, now.addingTimeInterval(86_400)))
        return token
    }

    /// RFC 7523 §2.1: a JWT the service account signs, good for an hour, for the token endpoint.
    private func assertionGrant(_ key: AdminCredentials.ServiceAccountKey, now: Date) throws(TokenRefusal) -> [(name: String, value: String)] {
        let issued = Int64(now.timeIntervalSince1970.rounded(.down))
        var header: [String: JSONValue] = ["alg": "RS256", "typ": "JWT"]
        header["kid"] = key.privateKeyID.map(JSONValue.string)
        let claims: [String: JSONValue] = ["iss": .string(key.clientEmail), "scope": .string(Self.scopes), "aud": .string(key.tokenURI.absoluteString),
                                           "iat": .integer(issued), "exp": .integer(issued + 3600)]
        let signingInput = DecodedJWT.segment(.object(header)) + "." + DecodedJWT.segment(.object(claims))
        guard let signature = key.privateKey.signRS256(Array(signingInput.utf8)) else {
            throw TokenRefusal("The service account's private key does not match its own public key: it cannot sign.", code: "app/invalid-credential")
        }
        let assertion = signingInput + "." + DecodedJWT.base64URL(signature)
        return [("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", assertion)]
    }

    /// RFC 6749 §6.
    private func refreshGrant(_ user: AdminCredentials.AuthorizedUser) -> [(name: String, value: String)] {
        [("grant_type", "refresh_token"), ("client_id", user.clientID), ("client_secret", user.clientSecret), ("refresh_token", user.refreshToken)]
    }

    /// POSTs the grant (or GETs the metadata server's token, `Metadata-Flavor: Google` both
    /// ways); the access token and its lifetime, each checked before it is used.
    private func exchange(_ url: URL, _ form: [(name: String, value: String)]?) throws(TokenRefusal) -> (String, TimeInterval) {
        let failed = "Failed to fetch a valid Google OAuth2 access token from \(url.absoluteString)"
        let request = form.map {
            HTTPClientRequest(method: "POST", url: url, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(FormEncoding.encode($0).utf8), timeout: 30)
        } ?? HTTPClientRequest(method: "GET", url: url, headers: ["Metadata-Flavor": "Google"], timeout: 10)
        let response: HTTPClientResponse
        do {
            response = try transport.send(request)
        } catch {
            throw TokenRefusal("\(failed): \(error.message)", code: "app/network-error")
        }
        // What answers at the metadata server's address must say it is one.
        if form == nil, response.headers["metadata-flavor"] != "Google" {
            throw TokenRefusal("\(failed): the answer is not the metadata server's (no Metadata-Flavor: Google).", code: "app/invalid-credential")
        }
        let body = JSONValue.decoded(response.body)
        guard response.status == 200 else {
            // {"error": "invalid_grant", "error_description": "Invalid JWT Signature."} (RFC 6749 §5.2)
            var reason = [body?["error"]?.stringValue, body?["error_description"]?.stringValue].compactMap { $0.map { String($0.prefix(200)) } }.joined(separator: ": ")
            // An endpoint that quotes the request would put a credential in the message.
            let secrets = (form ?? []).filter { ["assertion", "client_secret", "refresh_token", "subject_token"].contains($0.name) }.map { String($0.value.prefix(24)) }
            if secrets.contains(where: { !$0.isEmpty && reason.contains($0) }) { reason = "an answer that quotes the request, not shown" }
            throw TokenRefusal("\(failed): HTTP \(response.status)" + (reason.isEmpty ? "" : " (\(reason))") + ".",
                               code: response.status >= 500 ? "app/network-error" : "app/invalid-credential")
        }
        guard let token = body?["access_token"]?.stringValue, token.utf8.count <= 4096, TextChecks.isVisibleASCII(token) else {
            throw TokenRefusal("\(failed): the answer has no access_token fbauth can send.", code: "app/invalid-credential")
        }
        let lifetime = body?["expires_in"]?.integer.map { TimeInterval(min(max($0, 0), 86_400)) } ?? 3600
        return (token, lifetime)
    }
}

extension AdminAccessTokens {
    /// POSTs `body` as JSON to one of Google's APIs (or an emulator's), authorized by these
    /// credentials (with their quota project); the status and the answer, or a refusal when
    /// no answer could be had.
    func post(_ body: JSONValue, to url: URL, transport: HTTPTransport, headers extra: [String: String] = [:]) throws(TokenRefusal) -> (status: Int, answer: JSONValue?) {
        try send("POST", url, body: body, transport: transport, headers: extra)
    }

    /// Any method, with a JSON body or none.
    func send(_ method: String, _ url: URL, body: JSONValue?, transport: HTTPTransport, headers extra: [String: String] = [:]) throws(TokenRefusal) -> (status: Int, answer: JSONValue?) {
        let (authorization, quotaProject) = try authorization()
        var headers = ["Authorization": authorization].merging(extra) { $1 }
        if body != nil { headers["Content-Type"] = "application/json" }
        headers["x-goog-user-project"] = quotaProject
        let data = body.map { (try? JSONEncoder().encode($0)) ?? Data() }
        let response: HTTPClientResponse
        do {
            response = try transport.send(HTTPClientRequest(method: method, url: url, headers: headers, body: data, timeout: 25))
        } catch {
            throw TokenRefusal("Error while making request to \(url.absoluteString): \(error.message)", code: "app/network-error")
        }
        return (response.status, JSONValue.decoded(response.body))
    }
}

/// The Admin API's calls for the engine's other modules (FBAuthAdmin): authorized as the
/// credentials say (an emulator's always `Bearer owner`), the access token kept and shared by
/// every call of this caller, and refreshed once for any number of concurrent calls.
package struct AuthorizedCaller: Sendable {
    let accessTokens: AdminAccessTokens
    let transport: HTTPTransport

    /// `purpose` begins the sentence that says no credentials were found ("Managing users").
    package init(emulatorHost: String?, transport: HTTPTransport, clock: WallClock, credentials: AdminCredentialsSource, purpose: String) {
        accessTokens = AdminAccessTokens(transport: transport, clock: clock, credentials: credentials.finder(emulatorHost: emulatorHost, purpose: purpose))
        self.transport = transport
    }

    package func send(_ method: String, _ url: URL, body: JSONValue?, headers: [String: String] = [:]) throws(TokenRefusal) -> (status: Int, answer: JSONValue?) {
        try accessTokens.send(method, url, body: body, transport: transport, headers: headers)
    }
}
