#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

// The Admin API's v2 resources of a project (the Identity Toolkit v2 REST reference): tenants,
// and OpenID Connect and SAML provider configurations, which Google's Auth emulator answers
// with "not implemented". Created, read, listed, changed (`updateMask`) and deleted as
// firebase-admin's tenant_mgt and `*_provider_config` calls make them.
extension Backend {
    static let adminV2Prefix = "/identitytoolkit.googleapis.com/v2/projects/"
    static let providerCollections: [String: (idParameter: String, prefix: String)] = [
        "oauthIdpConfigs": ("oauthIdpConfigId", "oidc."), "inboundSamlConfigs": ("inboundSamlConfigId", "saml."),
    ]

    /// The project's configuration as Google's Auth emulator keeps it (firebase-tools state.ts,
    /// `AgentProjectState.config`): duplicate emails, email privacy, blocking functions.
    var projectConfiguration: [String: Any] {
        var settings = projectSettings.object
        var signIn: [String: Any] = ["allowDuplicateEmails": !configuration.oneAccountPerEmail]
        if !phoneNumberSignIn.isEmpty { signIn["phoneNumber"] = phoneNumberSignIn.json }
        if let hashConfig = configuration.passwordHashConfig { signIn["hashConfig"] = hashConfig.hashConfig }
        settings["signIn"] = signIn
        settings["blockingFunctions"] = blockingFunctions.json
        settings["emailPrivacyConfig"] = ["enableImprovedEmailPrivacy": configuration.emailEnumerationProtection]
        return settings
    }

    /// The settings of the project's configuration that the stand-in keeps as given.
    static let keptProjectSettings: Set<String> = ["mfa", "recaptchaConfig", "passwordPolicyConfig", "smsRegionConfig", "mobileLinksConfig"]

    /// `PATCH projects/P/config`: the fields `updateMask` names, or, without a mask, all of it
    /// (what is not given goes back to its default), as Google's emulator updates it.
    func updateProjectConfiguration(_ request: HTTPRequest, mask: String?) throws(APIError) -> [String: Any] {
        let change = try Self.resource(request)
        _ = try BlockingFunctionsConfig(json: change["blockingFunctions"])  // refused before anything changes
        // Production's own scrypt parameters, output only there: the emulator takes them, so that
        // a `firebase auth:export` file's hashes sign in (they name no algorithm of their own).
        let masked = mask.map { $0.isEmpty || $0.split(separator: ",").contains { $0 == "signIn" || $0.hasPrefix("signIn.hashConfig") } } ?? true
        let hashConfig = try (masked ? (change["signIn"] as? [String: Any])?["hashConfig"] as? [String: Any] : nil).flatMap { (object: [String: Any]) throws(APIError) in
            try PasswordHashConfig(fields: PasswordHashConfig.requestFields(hashConfig: object))
        }
        var updated = projectConfiguration
        if let mask, !mask.isEmpty {
            Self.apply(change, to: &updated, mask: mask)
        } else {
            // A full update: what is not given goes back to its default.
            updated = ["signIn": change["signIn"] ?? [:], "blockingFunctions": change["blockingFunctions"] ?? [:],
                       "emailPrivacyConfig": change["emailPrivacyConfig"] ?? [:]]
            for key in Self.keptProjectSettings { updated[key] = change[key] }
        }
        let phoneNumber = (updated["signIn"] as? [String: Any])?["phoneNumber"] as? [String: Any] ?? [:]
        try Self.checkTestPhoneNumbers(phoneNumber["testPhoneNumbers"], field: "signIn.phoneNumber.testPhoneNumbers")
        // Everything is checked before anything changes.
        let functions = try BlockingFunctionsConfig(json: updated["blockingFunctions"])
        phoneNumberSignIn = PhoneSignInConfig(json: phoneNumber)
        projectSettings = JSONValue.members(updated.filter { Self.keptProjectSettings.contains($0.key) }) ?? [:]
        configuration.oneAccountPerEmail = !((updated["signIn"] as? [String: Any])?["allowDuplicateEmails"] as? Bool ?? false)
        configuration.emailEnumerationProtection = (updated["emailPrivacyConfig"] as? [String: Any])?["enableImprovedEmailPrivacy"] as? Bool ?? false
        blockingFunctions = functions
        if let hashConfig { configuration.passwordHashConfig = hashConfig }
        return projectConfiguration
    }

    func createTenant(_ request: HTTPRequest) throws(APIError) -> [String: Any] {
        let parent = "projects/\(configuration.projectId)"
        var resource = try Self.resource(request)
        let id = "\(((resource["displayName"] as? String) ?? "tenant").lowercased().filter { $0.isLetter || $0.isNumber }.prefix(20))-\(RandomToken.make(bytes: 4).lowercased().filter { $0.isLetter || $0.isNumber }.prefix(5))"
        resource["name"] = "\(parent)/tenants/\(id)"
        resource["tenantId"] = id
        // Production's defaults where the request says nothing (firebase-tools operations.ts, createTenant).
        for (flag, value) in ["allowPasswordSignup": false, "enableEmailLinkSignin": false, "disableAuth": false, "enableAnonymousUser": false] where resource[flag] == nil {
            resource[flag] = value
        }
        var mfa = resource["mfaConfig"] as? [String: Any] ?? [:]
        if mfa["state"] == nil { mfa["state"] = "DISABLED" }
        if mfa["enabledProviders"] == nil { mfa["enabledProviders"] = [String]() }
        resource["mfaConfig"] = mfa
        tenants[id] = try TenantRecord(resource: resource)
        return resource
    }

    func listTenants(query: [String: String]) -> [String: Any] { list("tenants", tenants.values.map(\.resource), query: query) }

    func tenantResource(_ id: String) throws(APIError) -> [String: Any] {
        guard let tenant = tenants[id] else { throw APIError(httpStatus: 404, message: "TENANT_NOT_FOUND", status: "NOT_FOUND", reason: "notFound") }
        return tenant.resource
    }

    func updateTenant(_ id: String, _ request: HTTPRequest, mask: String?) throws(APIError) -> [String: Any] {
        var resource = try tenantResource(id)
        Self.apply(try Self.resource(request), to: &resource, mask: mask)
        tenants[id] = try TenantRecord(resource: resource)
        return resource
    }

    /// The tenant and its users.
    func deleteTenant(_ id: String) throws(APIError) -> [String: Any] {
        _ = try tenantResource(id)
        tenants[id] = nil
        accounts.removeAll(inTenant: id)
        return [:]
    }

    /// Only the parent's own: a project's list holds none of its tenants' configurations.
    func listProviderConfigs(_ collection: String, parent: String, query: [String: String]) -> [String: Any] {
        list(collection, (providerConfigs[collection] ?? [:]).filter { $0.key.hasPrefix("\(parent)/\(collection)/") }.values.map(\.object), query: query)
    }

    func createProviderConfig(_ collection: String, parent: String, _ request: HTTPRequest, query: [String: String]) throws(APIError) -> [String: Any] {
        guard let kind = Self.providerCollections[collection] else { throw .notFound }
        guard let id = query[kind.idParameter], id.hasPrefix(kind.prefix), id.count > kind.prefix.count else {
            throw .badRequest("INVALID_PROVIDER_ID : \(kind.idParameter) must start with \(kind.prefix)")
        }
        let name = "\(parent)/\(collection)/\(id)"
        guard providerConfigs[collection]?[name] == nil else { throw APIError(httpStatus: 409, message: "DUPLICATE_IDP_ID", status: "ALREADY_EXISTS", reason: "alreadyExists") }
        var resource = try Self.resource(request)
        resource["name"] = name
        providerConfigs[collection, default: [:]][name] = try Self.kept(resource)
        return resource
    }

    func providerConfig(_ collection: String, name: String, _ request: HTTPRequest, query: [String: String]) throws(APIError) -> [String: Any] {
        guard var resource = providerConfigs[collection]?[name]?.object else {
            throw APIError(httpStatus: 404, message: "CONFIGURATION_NOT_FOUND", status: "NOT_FOUND", reason: "notFound")
        }
        switch request.method {
        case "GET": return resource
        case "DELETE":
            providerConfigs[collection]?[name] = nil
            return [:]
        case "PATCH":
            Self.apply(try Self.resource(request), to: &resource, mask: query["updateMask"])
            providerConfigs[collection]?[name] = try Self.kept(resource)
            return resource
        default: throw .notFound
        }
    }

    /// A page of resources by name (`pageSize`, `pageToken`: the last name of the page before).
    private func list(_ key: String, _ resources: [[String: Any]], query: [String: String]) -> [String: Any] {
        let size = min(max(Int(query["pageSize"] ?? "") ?? 100, 1), 100)
        let after = query["pageToken"] ?? ""
        let sorted = resources.sorted { ($0["name"] as? String ?? "") < ($1["name"] as? String ?? "") }.filter { ($0["name"] as? String ?? "") > after }
        var answer: [String: Any] = [key: Array(sorted.prefix(size))]
        if sorted.count > size, let last = sorted.prefix(size).last?["name"] as? String { answer["nextPageToken"] = last }
        return answer
    }

    /// `resource` as it is kept: JSON (what a request gave always is).
    private static func kept(_ resource: [String: Any]) throws(APIError) -> [String: JSONValue] {
        guard let members = JSONValue.members(resource) else { throw .internalError("INTERNAL : a resource that is no JSON") }
        return members
    }

    /// The request's JSON object, without `name` (the server names resources).
    private static func resource(_ request: HTTPRequest) throws(APIError) -> [String: Any] {
        guard var object = JSONText.parse(request.body) as? [String: Any] else {
            throw .invalidArgument("Invalid JSON payload received. Unexpected token.")
        }
        object["name"] = nil
        return object
    }

    /// A PATCH: the fields `mask` names (dotted paths to their first part), else all given.
    /// A PATCH: with `updateMask`, each dotted path the change has (firebase-tools state.ts,
    /// applyMask: a path through a list or a plain value changes nothing); without, every field
    /// the change has.
    static func apply(_ change: [String: Any], to resource: inout [String: Any], mask: String?) {
        guard let mask, !mask.isEmpty else {
            for (field, value) in change { resource[field] = value }
            return
        }
        for path in mask.split(separator: ",") {
            let fields = path.split(separator: ".").map(String.init)
            guard !fields.isEmpty else { continue }
            resource = assign(fields[...], from: change, into: resource)
        }
    }

    /// `into` with `path` set to its value in `from`, where `from` has one along that path.
    private static func assign(_ path: ArraySlice<String>, from change: [String: Any], into resource: [String: Any]) -> [String: Any] {
        guard let field = path.first, let value = change[field], !(value is JSONNull) else { return resource }
        var resource = resource
        guard path.count > 1 else {
            resource[field] = value
            return resource
        }
        guard let inner = value as? [String: Any] else { return resource }
        resource[field] = assign(path.dropFirst(), from: inner, into: resource[field] as? [String: Any] ?? [:])
        return resource
    }
}

extension Backend {
    /// A tenant made with `disableAuth` serves no sign-in and no user (`PROJECT_DISABLED`), and
    /// one whose `mfaConfig` does not enable SMS serves no second factor
    /// (`OPERATION_NOT_ALLOWED`), whether its id is in the path or the body, before anything
    /// else is checked.
    func refuseDisabledTenant(_ request: HTTPRequest) throws(APIError) {
        guard !tenants.isEmpty else { return }
        var tenant = Self.pathTenant(of: request.path)
        if tenant == nil, let body = JSONText.parse(request.body) as? [String: Any] { tenant = body["tenantId"] as? String }
        guard let tenant, let settings = tenants[tenant]?.settings else { return }
        if settings.disablesAuth { throw .badRequest("PROJECT_DISABLED") }
        try refuseDisabledSignInMethod(request, of: settings)
        // A tenant's second factors by SMS, as its mfaConfig says (firebase-tools operations.ts).
        if request.path.contains("/v2/accounts/mfa"), !settings.allowsSMSSecondFactors {
            throw .badRequest("OPERATION_NOT_ALLOWED : SMS based MFA not enabled.")
        }
    }

    /// A tenant's sign-in methods, off unless it was made with them (firebase-tools
    /// operations.ts: `allowPasswordSignup`, `enableEmailLinkSignin`, `enableAnonymousUser`).
    /// An administrator's calls are not sign-ins.
    private func refuseDisabledSignInMethod(_ request: HTTPRequest, of tenant: TenantRecord.Settings) throws(APIError) {
        guard let method = request.path.split(separator: ":").last, request.path.contains("/v1/accounts:"),
              request.header("Authorization") == nil || (try? requireAdmin(request)) == nil else { return }
        let body = JSONText.parse(request.body) as? [String: Any] ?? [:]
        switch method {
        case "signUp" where body["idToken"] != nil || body["email"] != nil || body["password"] != nil:
            if !tenant.allowsPasswords { throw .badRequest("OPERATION_NOT_ALLOWED") }
        case "signUp":
            if !tenant.allowsAnonymousUsers { throw .badRequest("ADMIN_ONLY_OPERATION") }
        case "signInWithPassword", "resetPassword":
            if !tenant.allowsPasswords { throw .badRequest("PASSWORD_LOGIN_DISABLED") }
        case "signInWithEmailLink":
            if !tenant.allowsEmailLinks { throw .badRequest("OPERATION_NOT_ALLOWED") }
        case "sendOobCode" where body["requestType"] as? String == "EMAIL_SIGNIN":
            if !tenant.allowsEmailLinks { throw .badRequest("OPERATION_NOT_ALLOWED") }
        default:
            break
        }
    }
}
