#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

extension Backend {
    /// Records the request, applies an injected fault if one matches, and answers.
    func route(_ request: HTTPRequest) -> Disposition {
        // The record is for tests; a long-running emulator keeps only the latest.
        if requests.count >= Self.recordedRequestsKept { requests.removeFirst(Self.recordedRequestsKept / 2) }
        requests.append(RecordedRequest(
            method: request.method, target: request.target, path: request.path, query: request.rawQuery,
            contentType: request.header("Content-Type"), origin: request.header("Origin"),
            headers: Dictionary(request.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first }), body: String(decoding: request.body, as: UTF8.self), receivedAt: now()))
        if let index = faults.firstIndex(where: { request.path.hasSuffix($0.pathSuffix) && $0.count > 0 }) {
            faults[index].count -= 1
            switch faults[index].behaviour {
            case .status(let status, let message):
                return .respond(APIError(httpStatus: status, message: message, status: status == 429 ? "RESOURCE_EXHAUSTED" : "UNAVAILABLE").response)
            case .raw(let status, let contentType, let body):
                return .respond(HTTPResponse(status: status, headers: [("Content-Type", contentType)], body: Array(body.utf8)))
            case .bytes(let status, let headers, let body):
                return .respond(HTTPResponse(status: status, headers: headers, body: body))
            case .delay(let seconds):
                return .respondAfter(.milliseconds(Int64(seconds * 1000)), respond(to: request))
            case .amend(let fields):
                return .respond(Self.amend(respond(to: request), fields))
            case .dropConnection:
                return .drop
            case .echo(let status, let code):
                // A front end that quotes what it was sent, query and body, in its error.
                let sent = request.originForm + " " + String(decoding: request.body, as: UTF8.self)
                return .respond(APIError(httpStatus: status, message: "\(code) : the request was not understood; you sent \(sent)").response)
            }
        }
        return .respond(respond(to: request))
    }

    static let recordedRequestsKept = 20_000

    /// The answer with `fields` replaced by raw JSON text (appended after the others).
    static func amend(_ response: HTTPResponse, _ fields: [(field: String, json: String)]) -> HTTPResponse {
        guard var object = JSONText.parse(response.body) as? [String: Any] else { return response }
        for (field, _) in fields { object[field] = nil }
        var text = String(decoding: JSONText.data(object), as: UTF8.self)
        text.removeLast()  // "}"
        for (field, json) in fields { text += (text.hasSuffix("{") ? "" : ",") + "\"\(field)\":" + json }
        var amended = response
        amended.body = Array((text + "}").utf8)
        amended.headers = amended.headers.filter { $0.0.lowercased() != "content-length" }
        return amended
    }

    /// Where Google publishes the certificates of the keys that sign ID tokens, under the
    /// emulator host as clients reach Google's other endpoints there.
    static let certificatesPath = "/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"
    /// Where Google publishes the same keys as a JSON Web Key Set, which JWT libraries and API
    /// gateways read (PyJWT's PyJWKClient, Hasura's `jwk_url`), under the emulator host.
    static let jsonWebKeysPath = "/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"
    /// The issuer's OpenID Connect discovery document (`https://securetoken.google.com/P` +
    /// `/.well-known/openid-configuration`), under the emulator host.
    static let discoverySuffix = "/.well-known/openid-configuration"
    static let issuerPrefix = "/securetoken.google.com/"
    /// Where Google publishes those of session cookies' keys; the stand-in publishes the same.
    static let sessionCookieCertificatesPath = "/www.googleapis.com/identitytoolkit/v3/relyingparty/publicKeys"

    /// With `--sign-tokens`: the key set of the key that signs ID tokens, and each project's
    /// discovery document naming it (as Google's for `https://securetoken.google.com/P`, with the
    /// key set's address under this emulator); nil for any other path.
    private func signingKeyDocument(_ path: String) -> [String: Any]? {
        if path == Self.jsonWebKeysPath { return ["keys": [StandInSigningKey.jsonWebKey(kid: StandInSigningKey.kid)]] }
        guard path.hasPrefix(Self.issuerPrefix), path.hasSuffix(Self.discoverySuffix) else { return nil }
        let project = path.dropFirst(Self.issuerPrefix.count).dropLast(Self.discoverySuffix.count)
        // A project id as Firebase makes them: lower-case letters, digits and hyphens.
        guard (1...63).contains(project.count), project.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }) else { return nil }
        return ["issuer": "https://securetoken.google.com/\(project)", "jwks_uri": baseURL + Self.jsonWebKeysPath,
                "response_types_supported": ["id_token"], "subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": ["RS256"]]
    }

    private func respond(to sent: HTTPRequest) -> HTTPResponse {
        if let answer = preflight(sent) { return answer }
        do {
            let request = try modernized(sent)
            return allowingOrigin(of: request, answer(request))
        } catch {
            return error.response
        }
    }

    /// Google's other services the emulator stands in for (App Check, OAuth tokens, the metadata
    /// server, certificates) and its own pages come first; every Identity Toolkit, securetoken
    /// and emulator operation is in the route table (RouteTable.swift).
    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        let path = request.path
        do {
            if path.hasPrefix(AppCheckService.prefix) {
                try checkAPIKey(request)
                guard request.method == "POST", path.hasSuffix(":exchangeDebugToken") else { throw APIError.notFound }
                return JSONResponse.make(200, try exchangeDebugToken(path, JSONBody(request, allowed: ["debugToken"])))
            }
            if path.hasPrefix(AppCheckService.apiPrefix) {
                return try appCheckAPI(request)
            }
            // Server to server, with OAuth: App Check is not asked of them.
            if path == Self.googleTokenPath, request.method == "POST" {
                return googleToken(request)
            }
            if path == Self.metadataTokenPath, request.method == "GET" {
                return metadataToken(request)
            }
            // The Admin API, server to server: App Check is not asked of it either.
            if let answer = try answer(request, from: Self.adminRoutes) { return JSONResponse.make(200, answer) }
            if path.hasPrefix(Self.adminPrefix) || path.hasPrefix(Self.adminV2Prefix) { throw APIError.notFound }
            try requireAppCheck(request)
            if path.hasPrefix("/fake-idp/") {
                return try providerPage(request)
            }
            if path == Self.handlerPath, request.method == "GET" {
                return hostedHandler(request)
            }
            if path == Self.iframePath, request.method == "GET" {
                return HandlerPage.iframe
            }
            if path == Self.certificatesPath || path == Self.sessionCookieCertificatesPath, request.method == "GET",
               let certificates = configuration.publishedCertificates ?? (configuration.signsIDTokens ? [StandInSigningKey.kid: StandInSigningKey.certificatePEM] : nil) {
                var response = JSONResponse.make(200, certificates)
                response.headers.append(("Cache-Control", "public, max-age=21600, must-revalidate, no-transform"))
                return response
            }
            if configuration.signsIDTokens, request.method == "GET", let published = signingKeyDocument(path) {
                var response = JSONResponse.make(200, published)
                response.headers.append(("Cache-Control", "public, max-age=21600, must-revalidate, no-transform"))
                return response
            }
            if path == "/" {
                return JSONResponse.make(200, ["authEmulator": ["ready": true], "fbauthStandIn": true])
            }
            if path == "/emulator/action", request.method == "GET" {
                return actionHandler(request)
            }
            if let answer = try answer(request, from: Self.clientRoutes) { return JSONResponse.make(200, answer) }
            throw APIError.notFound
        } catch let error as APIError {
            return error.response
        } catch {
            return APIError(httpStatus: 500, message: "INTERNAL : \(error)", status: "INTERNAL").response
        }
    }

    private func providerPage(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        if request.path == "/fake-idp/consent" {
            guard request.method == "POST" else { return ProviderPage.error(405, "Use the consent form.") }
            return consent(request)
        }
        guard request.method == "GET" else { return ProviderPage.error(405, "Method not allowed.") }
        return authorizationPage(request)
    }

    /// `?key=` or `x-goog-api-key`; any non-empty key unless valid keys are configured; then
    /// the key's application restrictions, with production's messages.
    func checkAPIKey(_ request: HTTPRequest) throws(APIError) {
        let key = request.queryItems.first { $0.name == "key" }?.value ?? request.header("x-goog-api-key")
        // An administrator's OAuth token stands for a key, as production (and Google's Auth
        // emulator, with `Bearer owner`) takes one.
        if key == nil, request.header("Authorization") != nil, (try? requireAdmin(request)) != nil { return }
        guard let key, !key.isEmpty else { throw APIError.missingAPIKey }
        if let valid = configuration.validAPIKeys, !valid.contains(key) { throw APIError.invalidAPIKey }
        switch configuration.apiKeyRestrictions[key] {
        case .iosApps(let bundles):
            let sent = request.header("X-Ios-Bundle-Identifier")
            guard let sent, bundles.contains(sent) else {
                throw APIError.blocked("Requests from this iOS client application \(sent ?? "<empty>") are blocked.", reason: "API_KEY_IOS_APP_BLOCKED")
            }
        case .androidApp(let package, let sha1):
            let sent = request.header("X-Android-Package")
            guard sent == package, request.header("X-Android-Cert")?.lowercased() == sha1 else {
                throw APIError.blocked("Requests from this Android client application \(sent ?? "<empty>") are blocked.", reason: "API_KEY_ANDROID_APP_BLOCKED")
            }
        case .httpReferrers(let prefixes):
            let sent = request.header("Referer")
            guard let sent, prefixes.contains(where: { sent.hasPrefix($0) }) else {
                throw APIError.blocked("Requests from referer \(sent ?? "<empty>") are blocked.", reason: "API_KEY_HTTP_REFERRER_BLOCKED")
            }
        case nil:
            break
        }
    }
}
