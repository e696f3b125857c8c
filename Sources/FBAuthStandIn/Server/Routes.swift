/// The Identity Toolkit operations the emulator serves, each once: its method and its path as
/// Google's API description names them (firebase-tools `src/emulator/auth/apiSpec.js`, served by
/// Google's emulator at `/emulator/openapi.json`; paths under `identitytoolkit.googleapis.com`),
/// the request fields it takes (any other is refused, as Google's emulator refuses it), and its
/// handler. Routing, methods and allowed fields all come from here; a test holds every path to
/// Google's description.
struct Route: Sendable {
    let method: String
    let path: String
    let fields: Set<String>
    /// Answers the body; `tenant` is the path's `tenants/{tenantId}`, if it has one.
    let handle: @Sendable (Backend, JSONBody, _ tenant: String?) throws(APIError) -> [String: Any]
    /// Served only where the profile has this difference (passkeys: Google's emulator's).
    var onlyWith: EmulatorProfile.Difference? = nil

    /// The route of `method` at `path` (its template), if one is served for `profile`.
    static func find(_ method: String, _ path: String, in table: [String: Route], profile: EmulatorProfile) -> Route? {
        guard let route = table[method + " " + path], route.onlyWith.map(profile.has) ?? true else { return nil }
        return route
    }

    static func table(_ routes: [Route]) -> [String: Route] {
        Dictionary(routes.map { ($0.method + " " + $0.path, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

extension Backend {
    /// The client API (`?key=`): `v1/accounts:*` and `v2/accounts/*`.
    static let clientRoutes: [Route] = [
        Route(method: "POST", path: "/v1/accounts:createAuthUri", fields: createAuthUriFields) { backend, body, _ throws(APIError) in try backend.createAuthUri(body) },
        Route(method: "POST", path: "/v1/accounts:signInWithIdp", fields: signInWithIdpFields) { backend, body, _ throws(APIError) in try backend.signInWithIdp(body) },
        Route(method: "POST", path: "/v1/accounts:lookup", fields: lookupFields) { backend, body, _ throws(APIError) in try backend.lookup(body) },
        Route(method: "POST", path: "/v1/accounts:signInWithPassword", fields: signInWithPasswordFields) { backend, body, _ throws(APIError) in try backend.signInWithPassword(body) },
        Route(method: "POST", path: "/v1/accounts:signUp", fields: signUpFields) { backend, body, _ throws(APIError) in try backend.signUp(body) },
        Route(method: "POST", path: "/v1/accounts:signInWithCustomToken", fields: signInWithCustomTokenFields) { backend, body, _ throws(APIError) in try backend.signInWithCustomToken(body) },
        Route(method: "POST", path: "/v1/accounts:update", fields: updateFields) { backend, body, _ throws(APIError) in try backend.update(body) },
        Route(method: "POST", path: "/v1/accounts:sendOobCode", fields: sendOobCodeFields) { backend, body, _ throws(APIError) in try backend.sendOobCode(body) },
        Route(method: "POST", path: "/v1/accounts:resetPassword", fields: resetPasswordFields) { backend, body, _ throws(APIError) in try backend.resetPassword(body) },
        Route(method: "POST", path: "/v1/accounts:signInWithEmailLink", fields: signInWithEmailLinkFields) { backend, body, _ throws(APIError) in try backend.signInWithEmailLink(body) },
        Route(method: "POST", path: "/v1/accounts:delete", fields: deleteFields) { backend, body, _ throws(APIError) in try backend.delete(body) },
        Route(method: "POST", path: "/v1/accounts:sendVerificationCode", fields: sendVerificationCodeFields) { backend, body, _ throws(APIError) in try backend.sendVerificationCode(body) },
        Route(method: "POST", path: "/v1/accounts:signInWithPhoneNumber", fields: signInWithPhoneNumberFields) { backend, body, _ throws(APIError) in try backend.signInWithPhoneNumber(body) },
        Route(method: "POST", path: "/v2/accounts/mfaSignIn:start", fields: mfaSignInStartFields) { backend, body, _ throws(APIError) in try backend.mfaSignInStart(body) },
        Route(method: "POST", path: "/v2/accounts/mfaSignIn:finalize", fields: mfaSignInFinalizeFields) { backend, body, _ throws(APIError) in try backend.mfaSignInFinalize(body) },
        Route(method: "POST", path: "/v2/accounts/mfaEnrollment:start", fields: mfaEnrollmentStartFields) { backend, body, _ throws(APIError) in try backend.mfaEnrollmentStart(body) },
        Route(method: "POST", path: "/v2/accounts/mfaEnrollment:finalize", fields: mfaEnrollmentFinalizeFields) { backend, body, _ throws(APIError) in try backend.mfaEnrollmentFinalize(body) },
        Route(method: "POST", path: "/v2/accounts/mfaEnrollment:withdraw", fields: mfaWithdrawFields) { backend, body, _ throws(APIError) in try backend.mfaEnrollmentWithdraw(body) },
        Route(method: "POST", path: "/v2/accounts/passkeyEnrollment:start", fields: passkeyEnrollmentStartFields, handle: { backend, body, _ throws(APIError) in try backend.passkeyEnrollmentStart(body) }, onlyWith: .passkeysByCredentialId),
        Route(method: "POST", path: "/v2/accounts/passkeyEnrollment:finalize", fields: passkeyEnrollmentFinalizeFields, handle: { backend, body, _ throws(APIError) in try backend.passkeyEnrollmentFinalize(body) }, onlyWith: .passkeysByCredentialId),
        Route(method: "POST", path: "/v2/accounts/passkeySignIn:start", fields: passkeySignInStartFields, handle: { backend, _, _ throws(APIError) in backend.passkeySignInStart() }, onlyWith: .passkeysByCredentialId),
        Route(method: "POST", path: "/v2/accounts/passkeySignIn:finalize", fields: passkeySignInFinalizeFields, handle: { backend, body, _ throws(APIError) in try backend.passkeySignInFinalize(body) }, onlyWith: .passkeysByCredentialId),
    ]

    /// The Admin API's calls on users, each at `projects/{P}/…` and `projects/{P}/tenants/{T}/…`.
    static let adminRoutes: [Route] = [
        admin("POST", "/accounts:lookup", ["idToken", "localId", "email", "phoneNumber", "federatedUserId", "tenantId", "initialEmail", "targetProjectId"]) { backend, body, tenant throws(APIError) in
            try backend.adminLookup(body, tenant: tenant)
        },
        admin("POST", "/accounts", adminCreateFields) { backend, body, tenant throws(APIError) in try backend.adminCreate(body, tenant: tenant) },
        admin("POST", "/accounts:update", updateFields) { backend, body, tenant throws(APIError) in try backend.adminUpdate(body, tenant: tenant) },
        admin("POST", "/accounts:delete", deleteFields) { backend, body, tenant throws(APIError) in try backend.adminDelete(body, tenant: tenant) },
        admin("GET", "/accounts:batchGet", []) { backend, query, tenant throws(APIError) in
            backend.batchGet(query.fields.compactMapValues { $0 as? String }, tenant: tenant)
        },
        admin("POST", "/accounts:query", ["returnUserInfo", "limit", "offset", "sortBy", "order", "expression", "tenantId"]) { backend, body, tenant throws(APIError) in
            let named = try body.string("tenantId")
            return try backend.queryAccounts(body, tenant: tenant ?? named)
        },
        admin("POST", "/accounts:batchDelete", ["localIds", "force", "tenantId"]) { backend, body, tenant throws(APIError) in try backend.batchDelete(body, tenant: tenant) },
        admin("POST", "/accounts:batchCreate", batchCreateFields) { backend, body, tenant throws(APIError) in
            let named = try body.string("tenantId")
            return try backend.batchCreate(body, tenant: tenant ?? named)
        },
        admin("POST", "/accounts:sendOobCode", sendOobCodeFields) { backend, body, tenant throws(APIError) in
            try backend.sendOobCode(body, privileged: true, tenant: tenant)
        },
        admin("POST", ":createSessionCookie", ["idToken", "validDuration", "tenantId"]) { backend, body, tenant throws(APIError) in
            try backend.createSessionCookie(body, tenant: tenant)
        },
    ].flatMap { $0 }

    /// The operation `name` of the project's users and of a tenant's.
    private static func admin(_ method: String, _ name: String, _ fields: Set<String>,
                              _ handle: @escaping @Sendable (Backend, JSONBody, String?) throws(APIError) -> [String: Any]) -> [Route] {
        ["/v1/projects/{targetProjectId}", "/v1/projects/{targetProjectId}/tenants/{tenantId}"].map {
            Route(method: method, path: $0 + name, fields: fields, handle: handle)
        }
    }

    static let clientRouteTable = Route.table(clientRoutes)
    static let adminRouteTable = Route.table(adminRoutes)
}

extension StandIn {
    /// Every operation of the route table, for the test that holds them to Google's API description.
    package static var servedOperations: [(method: String, path: String, fields: Set<String>)] {
        (Backend.clientRoutes + Backend.adminRoutes).map { ($0.method, $0.path, $0.fields) }
    }
}
