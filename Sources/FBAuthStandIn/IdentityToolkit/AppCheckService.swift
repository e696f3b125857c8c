#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// Firebase App Check as a project that enforces it on Authentication: the debug-token
/// exchange (`POST /v1/projects/P/apps/A:exchangeDebugToken`, firebase-js-sdk packages/app-check
/// client.ts) and the check every Identity Toolkit and securetoken request meets.
enum AppCheckService {
    static let prefix = "/content-firebaseappcheck.googleapis.com/v1/projects/"
    /// What production answers a request without a valid token, and a refused exchange.
    static let invalidToken = APIError(httpStatus: 401, message: "Firebase App Check token is invalid.", status: "UNAUTHENTICATED")
    static let attestationFailed = APIError(httpStatus: 403, message: "App attestation failed.", status: "PERMISSION_DENIED")
    /// The App Check API a server calls (its keys, replay protection), under the emulator host.
    static let apiPrefix = "/firebaseappcheck.googleapis.com/"
    /// The kid of the stand-in's key in its JSON Web Key Set.
    static let kid = "stand-in-app-check"

    /// `{"keys": [{kty, kid, alg, use, n, e}]}` (RFC 7517), as `GET /v1/jwks` publishes App Check's.
    static var jsonWebKeySet: [String: Any] { ["keys": [StandInSigningKey.jsonWebKey(kid: kid)]] }
}

extension Backend {
    func exchangeDebugToken(_ path: String, _ body: JSONBody) throws(APIError) -> [String: Any] {
        // projects/PROJECT/apps/APP:exchangeDebugToken
        let parts = path.dropFirst(AppCheckService.prefix.count).split(separator: "/")
        guard parts.count == 3, parts[1] == "apps", let appID = parts[2].split(separator: ":exchangeDebugToken").first,
              configuration.appCheck?.anyProject == true || [configuration.projectId, configuration.projectNumber].contains(String(parts[0]))
        else { throw .notFound }
        guard let enforcement = configuration.appCheck, let debugToken = try body.string("debugToken"),
              enforcement.debugTokens.contains(debugToken)
        else { throw AppCheckService.attestationFailed }
        let expiry = now().addingTimeInterval(TimeInterval(enforcement.ttl))
        // Signed with RS256 by the stand-in's key, whose set it publishes where App Check does,
        // so that a server verifies these tokens as production's (firebase-admin's appCheck()).
        // The token is for the project the path names, as production's (an emulator serves any).
        let project = String(parts[0])
        let audience = [configuration.projectId, configuration.projectNumber].contains(project)
            ? ["projects/\(configuration.projectNumber)", "projects/\(configuration.projectId)"] : ["projects/\(project)"]
        let token = UnsignedJWT.make([
            "sub": String(appID), "aud": audience,
            "iss": "https://firebaseappcheck.googleapis.com/\(configuration.projectNumber)", "provider": "debug",
            "iat": Int(now().timeIntervalSince1970), "exp": Int(expiry.timeIntervalSince1970),
            // Each token its own, as App Check's are: one consumed says nothing of the next.
            "jti": RandomToken.make(bytes: 12),
        ], kid: AppCheckService.kid, signed: true)
        appCheckTokens[token] = expiry
        return ["token": token, "ttl": "\(enforcement.ttl)s"]
    }

    /// `POST v1/projects/P/apps/APP:exchangeCustomToken` (firebase-admin's `createToken`): an
    /// administrator's custom token for the App Check exchange's audience and this app gives
    /// the app a token, as production's does. Its signature is not checked: the stand-in has no
    /// service account's public key, and takes the unsigned custom tokens of an emulated Admin
    /// SDK, as Google's Auth emulator takes its custom tokens.
    func exchangeCustomToken(_ request: HTTPRequest) throws(APIError) -> [String: Any] {
        try requireAdmin(request)
        let parts = request.path.dropFirst(AppCheckService.apiPrefix.count + "v1/projects/".count).split(separator: "/")
        guard parts.count == 3, parts[1] == "apps", let appID = parts[2].split(separator: ":exchangeCustomToken").first,
              [configuration.projectId, configuration.projectNumber].contains(String(parts[0]))
        else { throw .notFound }
        let body = try JSONBody(request, allowed: ["customToken", "limitedUse", "jti"])
        guard let custom = try body.string("customToken"), let claims = UnsignedJWT.claims(of: custom),
              claims["aud"] as? String == "https://firebaseappcheck.googleapis.com/google.firebase.appcheck.v1.TokenExchangeService",
              claims["app_id"] as? String == String(appID), let expires = (claims["exp"] as? Int).map(Double.init) ?? claims["exp"] as? Double,
              expires > now().timeIntervalSince1970
        else { throw .invalidArgument("The custom token is not one for this app's App Check exchange, or it has expired.") }
        // `ttl` as the custom token asks ("1800s" … "604800s"), else an hour, as App Check's default.
        var ttl = 3600
        if let asked = (claims["ttl"] as? String)?.dropLast().split(separator: ".").first.flatMap({ Int($0) }), (1800...604_800).contains(asked) { ttl = asked }
        let expiry = now().addingTimeInterval(TimeInterval(ttl))
        var token: [String: Any] = [
            "sub": String(appID), "aud": ["projects/\(configuration.projectNumber)", "projects/\(configuration.projectId)"],
            "iss": "https://firebaseappcheck.googleapis.com/\(configuration.projectNumber)", "provider": "custom",
            "iat": Int(now().timeIntervalSince1970), "exp": Int(expiry.timeIntervalSince1970),
            "jti": try body.string("jti") ?? RandomToken.make(bytes: 12),
        ]
        if try body.bool("limitedUse") == true { token["limited_use"] = true }
        let signed = UnsignedJWT.make(token, kid: AppCheckService.kid, signed: true)
        appCheckTokens[signed] = expiry
        return ["token": signed, "ttl": "\(ttl)s"]
    }

    /// With App Check enforced, an Identity Toolkit or securetoken request without a token this
    /// stand-in issued (and that has not expired) is refused.
    func requireAppCheck(_ request: HTTPRequest) throws(APIError) {
        guard configuration.appCheck?.enforced == true,
              request.path.hasPrefix("/identitytoolkit.googleapis.com/") || request.path.hasPrefix("/securetoken.googleapis.com/")
        else { return }
        guard let token = request.header("X-Firebase-AppCheck"), let expiry = appCheckTokens[token], expiry > now() else {
            throw AppCheckService.invalidToken
        }
    }
}

extension Backend {
    /// The App Check API's server side: `GET v1/jwks`, and `POST v1beta/projects/P:verifyAppCheckToken`
    /// (an administrator's; the token must be one this stand-in issued and not expired), which
    /// answers whether the token was consumed before and consumes it.
    func appCheckAPI(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let rest = request.path.dropFirst(AppCheckService.apiPrefix.count)
        if rest == "v1/jwks", request.method == "GET" {
            var response = JSONResponse.make(200, AppCheckService.jsonWebKeySet)
            response.headers.append(("Cache-Control", "public, max-age=21600"))
            return response
        }
        if request.method == "POST", rest.hasPrefix("v1/projects/"), rest.hasSuffix(":exchangeCustomToken") {
            return JSONResponse.make(200, try exchangeCustomToken(request))
        }
        guard request.method == "POST", rest.hasPrefix("v1beta/projects/"), rest.hasSuffix(":verifyAppCheckToken") else { throw .notFound }
        try requireAdmin(request)
        let body = try JSONBody(request, allowed: ["app_check_token", "appCheckToken"])
        let snake = try body.string("app_check_token"), camel = try body.string("appCheckToken")
        guard let token = snake ?? camel, let expiry = appCheckTokens[token], expiry > now() else {
            throw APIError(httpStatus: 403, message: "The provided App Check token is invalid.", status: "PERMISSION_DENIED")
        }
        let consumedBefore = consumedAppCheckTokens.contains(token)
        consumedAppCheckTokens.insert(token)
        return JSONResponse.make(200, ["alreadyConsumed": consumedBefore])
    }
}
