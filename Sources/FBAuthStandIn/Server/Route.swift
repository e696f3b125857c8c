#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// The operations the emulator serves, each once: its method and its path as Google's API
/// description names them (firebase-tools `src/emulator/auth/apiSpec.js`, served by Google's
/// emulator at `/emulator/openapi.json`), the request fields it takes (any other is refused, as
/// production refuses it), what is checked before it, and its handler. Routing, methods and
/// allowed fields all come from here; a test holds every path to Google's description.
struct Route: Sendable {
    enum Server: String, Sendable {
        case identityToolkit = "/identitytoolkit.googleapis.com"
        case secureToken = "/securetoken.googleapis.com"
        case emulator = ""
    }

    /// What is checked before the handler, in this order.
    struct Checks: OptionSet, Sendable {
        let rawValue: Int
        /// `refuseTenantMismatch` and `refuseDisabledTenant`.
        static let tenants = Checks(rawValue: 1)
        /// The Admin API's authority (`requireAdmin`).
        static let administrator = Checks(rawValue: 2)
        /// An API key (`checkAPIKey`), before the method is looked at.
        static let apiKey = Checks(rawValue: 4)
    }

    let server: Server
    let method: String
    /// Under the server; `{name}` stands for one segment (up to a `/` or a `:`).
    let path: String
    /// The JSON body's fields; nil where the handler reads the request itself (a resource kept
    /// as given, a form). A GET's fields are its query's.
    let fields: Set<String>?
    var checks: Checks = []
    /// Served only where the profile has this difference (passkeys: Google's emulator's).
    var onlyWith: EmulatorProfile.Difference? = nil
    /// A POST that may come with no body at all (`passkeySignIn:start`, which names nothing).
    var bodyMayBeEmpty = false
    let handle: @Sendable (Backend, RouteCall) throws(APIError) -> [String: Any]

    /// The path's `{name}`s in `path` when it is one of this route's; nil otherwise.
    func parameters(of requested: String) -> [String: String]? {
        guard requested.hasPrefix(server.rawValue) else { return nil }
        var rest = requested.dropFirst(server.rawValue.count)[...]
        var template = path[...]
        var found: [String: String] = [:]
        while let next = template.first {
            if next == "{" {
                guard let close = template.firstIndex(of: "}") else { return nil }
                let value = rest.prefix { $0 != "/" && $0 != ":" }
                guard !value.isEmpty else { return nil }
                found[String(template[template.index(after: template.startIndex)..<close])] = String(value)
                rest = rest.dropFirst(value.count)
                template = template[template.index(after: close)...]
            } else {
                guard rest.first == next else { return nil }
                rest = rest.dropFirst()
                template = template.dropFirst()
            }
        }
        return rest.isEmpty ? found : nil
    }
}

/// One call of a route: the request, its body read with the route's fields, the path's names.
struct RouteCall {
    let request: HTTPRequest
    let body: JSONBody
    let parameters: [String: String]
    /// The path's `tenants/{tenantId}`, if it has one.
    var tenant: String? { parameters["tenantId"] }
    /// The query, the first value of each name.
    var query: [String: String] {
        var query: [String: String] = [:]
        for item in request.queryItems where query[item.name] == nil { query[item.name] = item.value }
        return query
    }
}
