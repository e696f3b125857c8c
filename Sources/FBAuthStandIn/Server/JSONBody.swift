#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// A request's JSON body, checked the way Google's REST front end checks it: snake_case names
/// are accepted as camelCase, and any field the method does not define is refused.
struct JSONBody {
    let fields: [String: Any]

    init(_ request: HTTPRequest, allowed: Set<String>) throws(APIError) {
        guard let object = JSONText.parse(request.body) as? [String: Any] else {
            throw .invalidArgument("Invalid JSON payload received. Unexpected token.")
        }
        var fields: [String: Any] = [:]
        for (name, value) in object {
            let camel = Self.camelCase(name)
            guard allowed.contains(camel) else {
                throw .invalidArgument("Invalid JSON payload received. Unknown name \"\(name)\": Cannot find field.")
            }
            fields[camel] = value
        }
        // Production refuses a malformed tenant id on every method; an unchecked one would end
        // up in the name of an export file.
        if let tenant = fields["tenantId"] as? String, !tenant.isEmpty, !TenantID.isValid(tenant) {
            throw .badRequest("INVALID_TENANT_ID : The tenant id must be \(TenantID.form).")
        }
        self.fields = fields
    }

    init(fields: [String: Any]) {
        self.fields = fields
    }

    func string(_ name: String) throws(APIError) -> String? {
        guard let value = fields[name], !(value is JSONNull) else { return nil }
        guard let text = value as? String else {
            throw .invalidArgument("Invalid value at '\(name)' (TYPE_STRING), \(value)")
        }
        return text
    }

    /// An int64 field, as proto3's JSON mapping takes one: a whole number, or its digits in a string.
    func int64(_ name: String) throws(APIError) -> Int64? {
        guard let value = fields[name], !(value is JSONNull) else { return nil }
        switch value {
        case let number as Int: return Int64(number)
        case let number as Double where number.rounded() == number && abs(number) < 9.2e18: return Int64(number)
        case let text as String where Int64(text) != nil: return Int64(text)
        default: throw .invalidArgument("Invalid value at '\(name)' (TYPE_INT64), \(value)")
        }
    }

    func bool(_ name: String) throws(APIError) -> Bool? {
        guard let value = fields[name], !(value is JSONNull) else { return nil }
        if let flag = value as? Bool { return flag }
        throw .invalidArgument("Invalid value at '\(name)' (TYPE_BOOL), \(value)")
    }

    func strings(_ name: String) throws(APIError) -> [String]? {
        guard let value = fields[name], !(value is JSONNull) else { return nil }
        guard let list = value as? [String] else { throw .invalidArgument("Invalid value at '\(name)', \(value)") }
        return list
    }

    /// A nested object, as a body of its own.
    func object(_ name: String) throws(APIError) -> JSONBody? {
        guard let value = fields[name], !(value is JSONNull) else { return nil }
        guard let object = value as? [String: Any] else { throw .invalidArgument("Invalid value at '\(name)' (TYPE_MESSAGE), \(value)") }
        return JSONBody(fields: object)
    }

    func stringMap(_ name: String) throws(APIError) -> [String: String]? {
        guard let value = fields[name], !(value is JSONNull) else { return nil }
        guard let map = value as? [String: String] else {
            throw .invalidArgument("Invalid value at '\(name)' (map<string, string>), \(value)")
        }
        return map
    }

    static func camelCase(_ name: String) -> String {
        let parts = name.split(separator: "_", omittingEmptySubsequences: true)
        guard parts.count > 1 else { return name }
        return String(parts[0]) + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
