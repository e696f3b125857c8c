/// Firebase's answers vary in small ways between endpoints, SDK generations and the emulator
/// (`expiresIn` is a string, `oauthExpireIn` a number that iOS reads as a string,
/// `rawUserInfo` a JSON string or an object; the Identity Toolkit v1 reference, accounts.signInWithIdp;
/// firebase-js-sdk packages/auth/src/api/authentication/idp.ts). These readers accept
/// every documented form and treat a value of the wrong type as absent, so an odd answer is
/// a clear "missing field" error later, never a crash.
extension KeyedDecodingContainer {
    func string(_ key: Key) -> String? {
        if let value = try? decodeIfPresent(String.self, forKey: key) { return value }
        if let value = try? decodeIfPresent(Int64.self, forKey: key) { return String(value) }
        return nil
    }

    func int(_ key: Key) -> Int? {
        if let value = try? decodeIfPresent(Int.self, forKey: key) { return value }
        if let text = try? decodeIfPresent(String.self, forKey: key) { return Int(text) }
        return nil
    }

    func bool(_ key: Key) -> Bool? {
        if let value = try? decodeIfPresent(Bool.self, forKey: key) { return value }
        if let text = try? decodeIfPresent(String.self, forKey: key) { return text == "true" ? true : text == "false" ? false : nil }
        return nil
    }

    func strings(_ key: Key) -> [String]? {
        if let values = try? decodeIfPresent([String].self, forKey: key) { return values }
        if let text = try? decodeIfPresent(String.self, forKey: key), case .array(let items)? = JSONValue.parse(text) {
            return items.compactMap(\.stringValue)
        }
        return nil
    }

    /// A JSON object sent either as an object or as a string holding JSON.
    func embeddedJSON(_ key: Key) -> JSONValue? {
        if let text = try? decodeIfPresent(String.self, forKey: key) { return JSONValue.parse(text) }
        return try? decodeIfPresent(JSONValue.self, forKey: key)
    }

    func list<T: Decodable>(_ type: T.Type, _ key: Key) -> [T]? {
        try? decodeIfPresent([T].self, forKey: key)
    }
}
