#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

// What Google's Auth emulator serves beside Identity Toolkit's v1 API (firebase-tools
// src/emulator/auth/server.ts): browsers' cross-origin requests, and the legacy v3
// `relyingparty` paths older SDKs still call. `fbauth emulator` serves them as it does.
extension Backend {
    static let relyingPartyPrefix = "/www.googleapis.com/identitytoolkit/v3/relyingparty/"
    static let v1Prefix = "/identitytoolkit.googleapis.com/v1/"

    /// The v3 names and the v1 methods they are.
    static let legacyMethods: [String: String] = [
        "createAuthUri": "accounts:createAuthUri", "deleteAccount": "accounts:delete", "emailLinkSignin": "accounts:signInWithEmailLink",
        "getAccountInfo": "accounts:lookup", "getOobConfirmationCode": "accounts:sendOobCode", "getProjectConfig": "projects",
        "getRecaptchaParam": "recaptchaParams", "resetPassword": "accounts:resetPassword",
        "sendVerificationCode": "accounts:sendVerificationCode", "setAccountInfo": "accounts:update", "signupNewUser": "accounts:signUp",
        "verifyAssertion": "accounts:signInWithIdp", "verifyCustomToken": "accounts:signInWithCustomToken",
        "verifyPassword": "accounts:signInWithPassword", "verifyPhoneNumber": "accounts:signInWithPhoneNumber",
    ]

    /// The v1 request a legacy v3 one stands for; the request itself otherwise. `downloadAccount`
    /// and `uploadAccount` name their project in the body (`targetProjectId`), as the Admin
    /// API's batchGet and batchCreate name it in the path.
    func modernized(_ request: HTTPRequest) throws(APIError) -> HTTPRequest {
        guard configuration.profile.has(.legacyRelyingPartyPaths), request.path.hasPrefix(Self.relyingPartyPrefix) else { return request }
        let name = String(request.path.dropFirst(Self.relyingPartyPrefix.count))
        let query = request.rawQuery.map { "?" + $0 } ?? ""
        var modern = request
        if let method = Self.legacyMethods[name] {
            modern.target = Self.v1Prefix + method + query
            return modern
        }
        guard name == "downloadAccount" || name == "uploadAccount", request.method == "POST" else { return request }
        var body = JSONText.parse(request.body) as? [String: Any] ?? [:]
        guard let project = body.removeValue(forKey: "targetProjectId") as? String, !project.isEmpty else {
            throw .badRequest("INSUFFICIENT_PERMISSION")
        }
        guard project.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else { throw .badRequest("INVALID_PROJECT_ID") }
        let base = Self.adminPrefix + project
        if name == "uploadAccount" {
            modern.target = base + "/accounts:batchCreate" + query
            modern.body = Array(JSONText.data(body))
            return modern
        }
        var items = URLComponents()
        items.queryItems = body.compactMap { key, value in
            (value as? String ?? (value as? Int).map(String.init)).map { URLQueryItem(name: key, value: $0) }
        }
        modern.method = "GET"
        modern.body = []
        modern.target = base + "/accounts:batchGet?" + [request.rawQuery, items.percentEncodedQuery].compactMap { $0 }.joined(separator: "&")
        return modern
    }

    /// A browser's preflight, answered for any origin and any headers it asks for, as Google's
    /// emulator does (it reflects them: some clients take no `*`); nil for any other request.
    func preflight(_ request: HTTPRequest) -> HTTPResponse? {
        guard configuration.profile.has(.anyOriginAnswered), request.method == "OPTIONS" else { return nil }
        var headers: [(String, String)] = [("Access-Control-Allow-Methods", "GET,HEAD,PUT,PATCH,POST,DELETE"),
                                           ("Access-Control-Allow-Private-Network", "true"), ("Vary", "Origin, Access-Control-Request-Headers")]
        if let origin = request.header("Origin") { headers.append(("Access-Control-Allow-Origin", origin)) }
        if let asked = request.header("Access-Control-Request-Headers") { headers.append(("Access-Control-Allow-Headers", asked)) }
        return HTTPResponse(status: 204, headers: headers, body: [])
    }

    /// Any answer to a page of another origin may be read by it, as from Google's emulator.
    func allowingOrigin(of request: HTTPRequest, _ response: HTTPResponse) -> HTTPResponse {
        guard configuration.profile.has(.anyOriginAnswered), let origin = request.header("Origin"),
              !response.headers.contains(where: { $0.0.lowercased() == "access-control-allow-origin" }) else { return response }
        var allowed = response
        allowed.headers.append(("Access-Control-Allow-Origin", origin))
        return allowed
    }
}
