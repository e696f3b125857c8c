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
        let token = UnsignedJWT.make([
            "sub": String(appID), "aud": ["projects/\(configuration.projectNumber)", "projects/\(configuration.projectId)"],
            "iss": "https://firebaseappcheck.googleapis.com/\(configuration.projectNumber)", "provider": "debug",
            "iat": Int(now().timeIntervalSince1970), "exp": Int(expiry.timeIntervalSince1970),
        ])
        appCheckTokens[token] = expiry
        return ["token": token, "ttl": "\(enforcement.ttl)s"]
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
