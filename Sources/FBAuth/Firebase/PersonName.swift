import FBAuthHTTP

/// A user's given and family names, as Sign in with Apple hands them to an app once; Firebase
/// takes them with the ID token as `user` `{"name":{"firstName","lastName"}}` in `postBody`
/// (firebase-ios-sdk Backend/RPC/VerifyAssertionRequest.swift).
package struct PersonName: Sendable, Equatable {
    package var givenName: String?
    package var familyName: String?

    package init(givenName: String?, familyName: String?) {
        self.givenName = givenName
        self.familyName = familyName
    }

    /// The `user` parameter, or nil when there is no name to send.
    var userParameter: String? {
        var name: [String: JSONValue] = [:]
        if let givenName { name["firstName"] = .string(givenName) }
        if let familyName { name["lastName"] = .string(familyName) }
        guard !name.isEmpty else { return nil }
        return JSONValue.object(["name": .object(name)]).compactText
    }
}
