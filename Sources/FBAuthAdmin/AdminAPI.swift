#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthHTTP
import FBAuthSupport
import FBAuthVerification

/// Identity Toolkit's Admin API for one project, or one of its tenants (firebase-admin-node
/// `auth-api-request.ts`'s `AuthHttpClient`): `v1/projects/P[/tenants/T]/accounts…`, at
/// Google's address or an emulator's, every call authorized by the same access token.
package struct AdminAPI: Sendable {
    package let projectId: String
    package let tenantId: String?
    /// `https://identitytoolkit.googleapis.com`, or `http://HOST/identitytoolkit.googleapis.com`.
    let endpoint: String
    let caller: AuthorizedCaller

    package init(projectId: String, tenantId: String? = nil, emulatorHost: String? = nil, transport: HTTPTransport = CurlTransport(),
                 clock: WallClock = SystemClock(), credentials: AdminCredentialsSource) {
        self.projectId = projectId
        self.tenantId = tenantId
        endpoint = emulatorHost.map { "http://\($0)/identitytoolkit.googleapis.com" } ?? "https://identitytoolkit.googleapis.com"
        caller = AuthorizedCaller(emulatorHost: emulatorHost, transport: transport, clock: clock, credentials: credentials, purpose: "Managing users")
    }

    private init(_ api: AdminAPI, tenantId: String) {
        projectId = api.projectId
        self.tenantId = tenantId
        endpoint = api.endpoint
        caller = api.caller
    }

    /// The same API for one of the project's tenants (its access token shared).
    package func forTenant(_ tenantId: String) -> AdminAPI { AdminAPI(self, tenantId: tenantId) }

    /// `method` on the project's `v2/projects/P/RESOURCE` (tenants and the project's
    /// configuration, which no tenant has).
    package func projectResource(_ method: String, _ resource: String, body: JSONValue? = nil, query: [(String, String)] = []) throws(TokenRefusal) -> JSONValue {
        try send(method, "/v2/projects/\(projectId)/" + resource, body: body, query: query)
    }

    /// `method` on `v2/projects/P[/tenants/T]/RESOURCE`: provider configurations, which each
    /// tenant has of its own.
    package func scopedResource(_ method: String, _ resource: String, body: JSONValue? = nil, query: [(String, String)] = []) throws(TokenRefusal) -> JSONValue {
        var path = "/v2/projects/\(projectId)/"
        if let tenantId {
            guard AdminChecks.isTenantID(tenantId) else { throw AdminErrors.client("INVALID_TENANT_ID") }
            path += "tenants/\(tenantId)/"
        }
        return try send(method, path + resource, body: body, query: query)
    }

    /// `method` on `v1/projects/P[/tenants/T]/RESOURCE` (`accounts:lookup`, `accounts`), with a
    /// JSON body (POST) or a query (GET); the answer, or the Admin SDK's error for a refusal.
    package func call(_ method: String, _ resource: String, body: JSONValue? = nil, query: [(String, String)] = []) throws(TokenRefusal) -> JSONValue {
        var path = "/v1/projects/\(projectId)"
        if let tenantId {
            guard AdminChecks.isTenantID(tenantId) else { throw AdminErrors.client("INVALID_TENANT_ID") }
            path += "/tenants/\(tenantId)"
        }
        // `:createSessionCookie` belongs to the project (or tenant) itself; the rest are below it.
        return try send(method, path + (resource.hasPrefix(":") ? "" : "/") + resource, body: body, query: query)
    }

    private func send(_ method: String, _ path: String, body: JSONValue?, query: [(String, String)]) throws(TokenRefusal) -> JSONValue {
        guard RevocationCheck.isProjectID(projectId) else {
            throw TokenRefusal("\"\(projectId.prefix(100))\" is not a project id the Admin API can be asked about.", code: "app/invalid-credential")
        }
        var components = URLComponents(string: endpoint + path)!
        if !query.isEmpty { components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) } }
        let (status, answer) = try caller.send(method, components.url!, body: body, headers: ["X-Client-Version": "Swift/Admin/fbauth"])
        guard (200..<300).contains(status) else { throw AdminErrors.fromServer(status: status, answer: answer) }
        guard let answer, case .object = answer else {
            throw AdminErrors.client("INTERNAL_ERROR", message: "The Admin API's answer to \(path.split(separator: "/").last ?? "") is not a JSON object (HTTP \(status)).")
        }
        return answer
    }
}
