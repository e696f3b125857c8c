#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

// The route table: every operation the emulator serves, each once (a `Route`), and the one
// dispatcher that answers a request from it.
extension Backend {
    typealias Handler = @Sendable (Backend, RouteCall) throws(APIError) -> [String: Any]

    /// The client API's `v1/accounts:NAME`: an administrator's token makes some of them the
    /// Admin API's (`privilegedAccounts`), and Google's emulator refuses a client's target project.
    private static func account(_ name: String, _ fields: Set<String>, _ handle: @escaping @Sendable (Backend, JSONBody) throws(APIError) -> [String: Any]) -> Route {
        Route(server: .identityToolkit, method: "POST", path: "/v1/accounts:" + name, fields: fields, checks: [.apiKey, .tenants]) { backend, call throws(APIError) in
            if let answer = try backend.privilegedAccounts(name, call.request) { return answer }
            if backend.configuration.profile.has(.clientTargetProjectRefused), Self.targetProject(of: call.request) != nil {
                throw .badRequest("INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")
            }
            return try handle(backend, call.body)
        }
    }

    private static func secondFactor(_ name: String, _ fields: Set<String>, onlyWith: EmulatorProfile.Difference? = nil,
                                     _ handle: @escaping @Sendable (Backend, JSONBody) throws(APIError) -> [String: Any]) -> Route {
        Route(server: .identityToolkit, method: "POST", path: "/v2/accounts/" + name, fields: fields, checks: [.apiKey, .tenants], onlyWith: onlyWith,
              bodyMayBeEmpty: name == "passkeySignIn:start") { backend, call throws(APIError) in
            try handle(backend, call.body)
        }
    }

    private static func client(_ method: String, _ path: String, fields: Set<String>? = [], server: Route.Server = .identityToolkit, _ handle: @escaping Handler) -> Route {
        Route(server: server, method: method, path: path, fields: fields, checks: [.apiKey], handle: handle)
    }

    /// The Admin API's calls on users, each at `projects/{P}/…` and `projects/{P}/tenants/{T}/…`.
    private static func admin(_ method: String, _ name: String, _ fields: Set<String>, _ handle: @escaping Handler) -> [Route] {
        ["/v1/projects/{targetProjectId}", "/v1/projects/{targetProjectId}/tenants/{tenantId}"].map {
            Route(server: .identityToolkit, method: method, path: $0 + name, fields: fields, checks: [.tenants, .administrator], handle: handle)
        }
    }

    /// The Admin API's v2 resources, kept as given (their bodies are not read as fields).
    private static func resource(_ method: String, _ path: String, _ handle: @escaping Handler) -> Route {
        Route(server: .identityToolkit, method: method, path: "/v2/projects/{targetProjectId}" + path, fields: nil, checks: [.administrator], handle: handle)
    }

    /// Google's emulator's own API on a project (`emulator.projects.*`), for the project and a tenant.
    private static func emulator(_ method: String, _ name: String, fields: Set<String>? = [], tenants: Bool = true, _ handle: @escaping Handler) -> [Route] {
        (tenants ? ["", "/tenants/{tenantId}"] : [""]).map {
            Route(server: .emulator, method: method, path: "/emulator/v1/projects/{targetProjectId}" + $0 + "/" + name, fields: fields, handle: handle)
        }
    }

    static let clientRoutes: [Route] = [
        account("createAuthUri", createAuthUriFields) { backend, body throws(APIError) in try backend.createAuthUri(body) },
        account("signInWithIdp", signInWithIdpFields) { backend, body throws(APIError) in try backend.signInWithIdp(body) },
        account("lookup", lookupFields) { backend, body throws(APIError) in try backend.lookup(body) },
        account("signInWithPassword", signInWithPasswordFields) { backend, body throws(APIError) in try backend.signInWithPassword(body) },
        account("signUp", signUpFields) { backend, body throws(APIError) in try backend.signUp(body) },
        account("signInWithCustomToken", signInWithCustomTokenFields) { backend, body throws(APIError) in try backend.signInWithCustomToken(body) },
        account("update", updateFields) { backend, body throws(APIError) in try backend.update(body) },
        account("sendOobCode", sendOobCodeFields) { backend, body throws(APIError) in try backend.sendOobCode(body) },
        account("resetPassword", resetPasswordFields) { backend, body throws(APIError) in try backend.resetPassword(body) },
        account("signInWithEmailLink", signInWithEmailLinkFields) { backend, body throws(APIError) in try backend.signInWithEmailLink(body) },
        account("delete", deleteFields) { backend, body throws(APIError) in try backend.delete(body) },
        account("sendVerificationCode", sendVerificationCodeFields) { backend, body throws(APIError) in try backend.sendVerificationCode(body) },
        account("signInWithPhoneNumber", signInWithPhoneNumberFields) { backend, body throws(APIError) in try backend.signInWithPhoneNumber(body) },
        secondFactor("mfaSignIn:start", mfaSignInStartFields) { backend, body throws(APIError) in try backend.mfaSignInStart(body) },
        secondFactor("mfaSignIn:finalize", mfaSignInFinalizeFields) { backend, body throws(APIError) in try backend.mfaSignInFinalize(body) },
        secondFactor("mfaEnrollment:start", mfaEnrollmentStartFields) { backend, body throws(APIError) in try backend.mfaEnrollmentStart(body) },
        secondFactor("mfaEnrollment:finalize", mfaEnrollmentFinalizeFields) { backend, body throws(APIError) in try backend.mfaEnrollmentFinalize(body) },
        secondFactor("mfaEnrollment:withdraw", mfaWithdrawFields) { backend, body throws(APIError) in try backend.mfaEnrollmentWithdraw(body) },
        secondFactor("passkeyEnrollment:start", passkeyEnrollmentStartFields, onlyWith: .passkeysByCredentialId) { backend, body throws(APIError) in try backend.passkeyEnrollmentStart(body) },
        secondFactor("passkeyEnrollment:finalize", passkeyEnrollmentFinalizeFields, onlyWith: .passkeysByCredentialId) { backend, body throws(APIError) in try backend.passkeyEnrollmentFinalize(body) },
        secondFactor("passkeySignIn:start", passkeySignInStartFields, onlyWith: .passkeysByCredentialId) { backend, _ throws(APIError) in backend.passkeySignInStart() },
        secondFactor("passkeySignIn:finalize", passkeySignInFinalizeFields, onlyWith: .passkeysByCredentialId) { backend, body throws(APIError) in try backend.passkeySignInFinalize(body) },
        client("POST", "/v2/accounts:revokeToken", fields: revokeTokenFields) { backend, call throws(APIError) in try backend.revokeToken(call.body) },
        client("GET", "/v1/projects") { backend, _ throws(APIError) in backend.projectConfig() },
        client("GET", "/v2/passwordPolicy") { backend, _ throws(APIError) in try backend.passwordPolicyAnswer() },
        client("GET", "/v2/recaptchaConfig") { backend, _ throws(APIError) in try backend.recaptchaConfig() },
        client("GET", "/v1/recaptchaParams") { backend, _ throws(APIError) in backend.recaptchaParams() },
        // A form or JSON, read by the grant itself.
        client("POST", "/v1/token", fields: nil, server: .secureToken) { backend, call throws(APIError) in try backend.grantToken(call.request) },
    ] + [
        emulator("DELETE", "accounts") { backend, call throws(APIError) in
            backend.forgetAllAccounts(tenantId: call.tenant)
            return [:]
        },
        emulator("GET", "config", tenants: false) { backend, _ throws(APIError) in backend.emulatorConfig },
        emulator("PATCH", "config", fields: ["signIn", "emailPrivacyConfig"], tenants: false) { backend, call throws(APIError) in try backend.updateEmulatorConfig(call.body) },
        emulator("GET", "oobCodes") { backend, call throws(APIError) in backend.listedOobCodes(tenantId: call.tenant) },
        emulator("DELETE", "oobCodes") { backend, call throws(APIError) in
            backend.oobCodes = backend.oobCodes.filter { $0.value.tenantId != call.tenant }
            return [:]
        },
        emulator("GET", "verificationCodes") { backend, call throws(APIError) in backend.verificationCodes(tenantId: call.tenant) },
        emulator("DELETE", "verificationCodes") { backend, call throws(APIError) in
            backend.phoneVerifications = backend.phoneVerifications.filter { $0.value.tenantId != call.tenant }
            return [:]
        },
    ].flatMap { $0 }

    static let adminRoutes: [Route] = [
        admin("POST", "/accounts:lookup", ["idToken", "localId", "email", "phoneNumber", "federatedUserId", "tenantId", "initialEmail", "targetProjectId"]) { backend, call throws(APIError) in
            try backend.adminLookup(call.body, tenant: call.tenant)
        },
        admin("POST", "/accounts", adminCreateFields) { backend, call throws(APIError) in try backend.adminCreate(call.body, tenant: call.tenant) },
        admin("POST", "/accounts:update", updateFields) { backend, call throws(APIError) in try backend.adminUpdate(call.body, tenant: call.tenant) },
        admin("POST", "/accounts:delete", deleteFields) { backend, call throws(APIError) in try backend.adminDelete(call.body, tenant: call.tenant) },
        admin("GET", "/accounts:batchGet", []) { backend, call throws(APIError) in backend.batchGet(call.query, tenant: call.tenant) },
        admin("POST", "/accounts:query", ["returnUserInfo", "limit", "offset", "sortBy", "order", "expression", "tenantId"]) { backend, call throws(APIError) in
            let named = try call.body.string("tenantId")
            return try backend.queryAccounts(call.body, tenant: call.tenant ?? named)
        },
        admin("POST", "/accounts:batchDelete", ["localIds", "force", "tenantId"]) { backend, call throws(APIError) in try backend.batchDelete(call.body, tenant: call.tenant) },
        admin("POST", "/accounts:batchCreate", batchCreateFields) { backend, call throws(APIError) in
            let named = try call.body.string("tenantId")
            return try backend.batchCreate(call.body, tenant: call.tenant ?? named)
        },
        admin("POST", "/accounts:sendOobCode", sendOobCodeFields) { backend, call throws(APIError) in
            try backend.sendOobCode(call.body, privileged: true, tenant: call.tenant)
        },
        admin("POST", ":createSessionCookie", ["idToken", "validDuration", "tenantId"]) { backend, call throws(APIError) in
            try backend.createSessionCookie(call.body, tenant: call.tenant)
        },
    ].flatMap { $0 } + [
        resource("GET", "/config") { backend, _ throws(APIError) in backend.projectConfiguration },
        resource("PATCH", "/config") { backend, call throws(APIError) in try backend.updateProjectConfiguration(call.request, mask: call.query["updateMask"]) },
        resource("POST", "/tenants") { backend, call throws(APIError) in try backend.createTenant(call.request) },
        resource("GET", "/tenants") { backend, call throws(APIError) in backend.listTenants(query: call.query) },
        resource("GET", "/tenants/{tenantId}") { backend, call throws(APIError) in try backend.tenantResource(call.parameters["tenantId"] ?? "") },
        resource("PATCH", "/tenants/{tenantId}") { backend, call throws(APIError) in
            try backend.updateTenant(call.parameters["tenantId"] ?? "", call.request, mask: call.query["updateMask"])
        },
        resource("DELETE", "/tenants/{tenantId}") { backend, call throws(APIError) in try backend.deleteTenant(call.parameters["tenantId"] ?? "") },
    ] + providerConfigRoutes

    /// OpenID Connect and SAML provider configurations, of the project and of each tenant.
    private static var providerConfigRoutes: [Route] {
        ["oauthIdpConfigs", "inboundSamlConfigs"].flatMap { collection in
            ["", "/tenants/{tenantId}"].flatMap { scope in
                let collectionPath = scope + "/" + collection
                let itemPath = collectionPath + "/{\(collection)Id}"
                return [
                    resource("POST", collectionPath) { backend, call throws(APIError) in
                        try backend.createProviderConfig(collection, parent: Self.parent(call), call.request, query: call.query)
                    },
                    resource("GET", collectionPath) { backend, call throws(APIError) in backend.listProviderConfigs(collection, parent: Self.parent(call), query: call.query) },
                    resource("GET", itemPath) { backend, call throws(APIError) in
                        try backend.providerConfig(collection, name: Self.name(call, collection), call.request, query: call.query)
                    },
                    resource("PATCH", itemPath) { backend, call throws(APIError) in
                        try backend.providerConfig(collection, name: Self.name(call, collection), call.request, query: call.query)
                    },
                    resource("DELETE", itemPath) { backend, call throws(APIError) in
                        try backend.providerConfig(collection, name: Self.name(call, collection), call.request, query: call.query)
                    },
                ]
            }
        }
    }

    /// `projects/P` or `projects/P/tenants/T`, as resources name their parent.
    private static func parent(_ call: RouteCall) -> String {
        "projects/\(call.parameters["targetProjectId"] ?? "")" + (call.tenant.map { "/tenants/\($0)" } ?? "")
    }

    private static func name(_ call: RouteCall, _ collection: String) -> String {
        parent(call) + "/\(collection)/\(call.parameters[collection + "Id"] ?? "")"
    }

    /// The operation `request` asks for among `routes`, answered; nil when no route has its path.
    /// A path served with another method is not found, after the path's checks, as before.
    func answer(_ request: HTTPRequest, from routes: [Route]) throws(APIError) -> [String: Any]? {
        var matched: [(route: Route, parameters: [String: String])] = []
        for route in routes where route.onlyWith.map(configuration.profile.has) ?? true {
            if let parameters = route.parameters(of: request.path) { matched.append((route, parameters)) }
        }
        guard let checks = matched.first?.route.checks else { return nil }
        if checks.contains(.apiKey) { try checkAPIKey(request) }
        if checks.contains(.tenants) {
            try refuseTenantMismatch(request, pathTenant: matched.first?.parameters["tenantId"])
            try refuseDisabledTenant(request)
        }
        if checks.contains(.administrator) { try requireAdmin(request) }
        guard let (route, parameters) = matched.first(where: { $0.route.method == request.method }) else { throw .notFound }
        if let project = parameters["targetProjectId"], project != configuration.projectId {
            throw .blocked("The caller does not have permission", reason: "PERMISSION_DENIED")
        }
        let body: JSONBody
        if request.method == "GET" {
            var query: [String: Any] = [:]
            for item in request.queryItems where query[item.name] == nil { query[item.name] = item.value }
            body = JSONBody(fields: query)
        } else if request.method == "DELETE" || route.fields == nil || (route.bodyMayBeEmpty && request.body.isEmpty) {
            body = JSONBody(fields: [:])
        } else {
            body = try JSONBody(request, allowed: route.fields ?? [])
        }
        return try route.handle(self, RouteCall(request: request, body: body, parameters: parameters))
    }
}

extension StandIn {
    /// Every operation of the route table, for the test that holds them to Google's API
    /// description: the path under its server (`/emulator/…` for the emulator's own).
    package static var servedOperations: [(method: String, path: String, fields: Set<String>?)] {
        (Backend.clientRoutes + Backend.adminRoutes).map { ($0.method, $0.path, $0.fields) }
    }
}
