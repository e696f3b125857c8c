/// A JSON value, as the emulator keeps the resources it reads back as they were set (a tenant's,
/// a provider configuration, the project's other settings; Google's emulator keeps them as
/// given too): typed, so that its state holds nothing but JSON, and is `Equatable` and `Sendable`.
/// Answers are still built as free-form dictionaries (`any`), as a server builds them.
enum JSONValue: Equatable, Sendable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null

    /// The free-form value (JSONText's), or nil for one that is no JSON.
    init?(_ value: Any) {
        switch value {
        case let flag as Bool: self = .bool(flag)
        case let number as Int: self = .int(number)
        case let number as any BinaryInteger: self = Int(exactly: number).map(JSONValue.int) ?? .double(Double(number))
        case let number as Double: self = .double(number)
        case let text as String: self = .string(text)
        case is JSONNull: self = .null
        case let array as [Any]:
            var values: [JSONValue] = []
            for element in array {
                guard let value = JSONValue(element) else { return nil }
                values.append(value)
            }
            self = .array(values)
        case let object as [String: Any]:
            guard let members = Self.members(object) else { return nil }
            self = .object(members)
        default: return nil
        }
    }

    /// An object's members, or nil when one of them is no JSON.
    static func members(_ object: [String: Any]) -> [String: JSONValue]? {
        var members: [String: JSONValue] = [:]
        for (name, value) in object {
            guard let value = JSONValue(value) else { return nil }
            members[name] = value
        }
        return members
    }

    /// As JSONText writes and the handlers read it.
    var any: Any {
        switch self {
        case .object(let members): members.mapValues(\.any)
        case .array(let values): values.map(\.any)
        case .string(let text): text
        case .int(let number): number
        case .double(let number): number
        case .bool(let flag): flag
        case .null: JSONNull()
        }
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    /// The members as a free-form object.
    var object: [String: Any] { mapValues(\.any) }
}
