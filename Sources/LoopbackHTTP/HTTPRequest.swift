/// One HTTP/1.1 request as received from a client.
package struct HTTPRequest: Sendable, Equatable {
    package var method: String
    /// The request-target exactly as sent: `/path?query` (origin form) or `http://host/path?query`
    /// (absolute form, as sent to a proxy).
    package var target: String
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]

    package init(method: String, target: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }

    /// The path and query of the target, with any `scheme://authority` prefix removed.
    package var originForm: String {
        guard !target.hasPrefix("/"), let schemeEnd = target.firstRange(of: "://") else { return target }
        let afterAuthority = target[schemeEnd.upperBound...].firstIndex(where: { $0 == "/" || $0 == "?" })
        guard let afterAuthority else { return "/" }
        let rest = String(target[afterAuthority...])
        return rest.hasPrefix("?") ? "/" + rest : rest
    }

    /// The path, still percent-encoded, without the query.
    package var path: String {
        let origin = originForm
        return origin.firstIndex(of: "?").map { String(origin[..<$0]) } ?? origin
    }

    /// The raw query string (without `?`), or nil when the target has none.
    package var rawQuery: String? {
        let origin = originForm
        return origin.firstIndex(of: "?").map { String(origin[origin.index(after: $0)...]) }
    }

    /// The query parameters, decoded as `application/x-www-form-urlencoded`.
    package var queryItems: [(name: String, value: String)] { FormEncoding.decode(rawQuery ?? "") }

    /// The body decoded as a form, when the request says it is one.
    package var formItems: [(name: String, value: String)] {
        guard header("Content-Type")?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else { return [] }
        return FormEncoding.decode(String(decoding: body, as: UTF8.self))
    }

    /// The first header with this name (case-insensitive).
    package func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    package static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.body == rhs.body
            && lhs.headers.map(\.name) == rhs.headers.map(\.name) && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }
}

extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool {
        utf8.count == other.utf8.count && lowercased() == other.lowercased()
    }
}
