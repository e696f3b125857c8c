import FBAuth
import Foundation

/// What a sign-in, link or reauthentication gives, as the SDK's `AuthDataResult`.
open class AuthDataResult: NSObject, NSSecureCoding, @unchecked Sendable {
    /// The signed-in user.
    public let user: User
    /// What the provider said of the user.
    public let additionalUserInfo: AdditionalUserInfo?
    /// The provider's credential, with its tokens: `authResult.credential?.accessToken`, as the
    /// SDK types it.
    public let credential: OAuthCredential?

    /// `withoutProvider`: a sign-in of no provider (anonymous, a custom token), whose result
    /// the SDK still gives an `AdditionalUserInfo` of, with an empty `providerID`.
    convenience init(_ result: AuthOutcome, auth: Auth, withoutProvider: Bool = false) {
        self.init(result, user: User(result.user, auth: auth), withoutProvider: withoutProvider)
    }

    init(_ result: AuthOutcome, user: User, withoutProvider: Bool = false) {
        self.user = user
        additionalUserInfo = result.additionalUserInfo.map(AdditionalUserInfo.init)
            ?? (withoutProvider ? AdditionalUserInfo(providerID: "", isNewUser: result.isNewUser) : nil)
        credential = result.credential.map(OAuthCredential.init(pending:))
        super.init()
    }

    // MARK: NSSecureCoding, with the SDK's keys (AuthDataResult.swift)

    /// Archives are decoded with their classes checked.
    public static let supportsSecureCoding = true

    /// Archives the user, what the provider said, and the provider's credential.
    public func encode(with coder: NSCoder) {
        coder.encode(user, forKey: "user")
        coder.encode(additionalUserInfo, forKey: "additionalUserInfo")
        coder.encode(credential, forKey: "credential")
    }

    /// A result from an archive; nil when its user is not signed in on this machine.
    public required init?(coder: NSCoder) {
        guard let user = coder.decodedIfPresent(User.self, forKey: "user") else { return nil }
        self.user = user
        additionalUserInfo = coder.decodedIfPresent(AdditionalUserInfo.self, forKey: "additionalUserInfo")
        credential = coder.decodedIfPresent(OAuthCredential.self, forKey: "credential")
        super.init()
    }
}

/// What the provider said of the user, as the SDK's `AdditionalUserInfo`.
open class AdditionalUserInfo: NSObject, NSSecureCoding, @unchecked Sendable {
    /// The provider of the sign-in.
    public let providerID: String
    /// The provider's profile of the user (Yahoo's, Microsoft's, X's own fields).
    public let profile: [String: NSObject]?
    /// The provider's user name (X's screen name, GitHub's login).
    public let username: String?
    /// Whether the sign-in made a new user.
    public let isNewUser: Bool
    /// `isNewUser`, as Objective-C reads it (the SDK keeps both).
    open func newUser() -> Bool { isNewUser }

    /// What the SDK gives a sign-in of no provider: an empty `providerID`, and whether the user is new.
    init(providerID: String, isNewUser: Bool) {
        (self.providerID, profile, username, self.isNewUser) = (providerID, nil, nil, isNewUser)
        super.init()
    }

    init(_ info: SignInProviderDetails) {
        providerID = info.providerID
        profile = info.profile.flatMap { FoundationJSON.object($0) as? [String: NSObject] }
        username = info.username
        isNewUser = info.isNewUser
        super.init()
    }

    // MARK: NSSecureCoding, with the SDK's keys (AdditionalUserInfo.swift)

    /// Archives are decoded with their classes checked.
    public static let supportsSecureCoding = true

    /// Archives the provider, profile, user name and whether the user was new.
    public func encode(with coder: NSCoder) {
        coder.encode(providerID, forKey: "providerID")
        coder.encode(profile.map { NSDictionary(dictionary: $0) }, forKey: "profile")
        coder.encode(username, forKey: "username")
        coder.encode(NSNumber(value: isNewUser ? 1 : 0), forKey: "newUser")
    }

    /// What the provider said, from an archive; nil without a provider.
    public required init?(coder: NSCoder) {
        guard let providerID = coder.decodedIfPresent(NSString.self, forKey: "providerID") else { return nil }
        self.providerID = String(providerID)
        let classes: [AnyClass] = [NSDictionary.self, NSArray.self, NSString.self, NSNumber.self, NSNull.self]
        profile = coder.decodedIfPresent(of: classes, forKey: "profile") as? [String: NSObject]
        username = coder.decodedIfPresent(NSString.self, forKey: "username").map { String($0) }
        isNewUser = coder.decodedIfPresent(NSNumber.self, forKey: "newUser")?.boolValue ?? false
        super.init()
    }
}

/// fbauth's JSON values as Foundation's objects (NSString, NSNumber, NSArray, NSDictionary,
/// NSNull), as the SDK hands JSON to Swift.
enum FoundationJSON {
    static func object(_ value: JSONValue) -> NSObject {
        switch value {
        case .string(let text): return NSString(string: text)
        case .bool(let flag): return NSNumber(value: flag)
        case .integer(let number): return NSNumber(value: number)
        case .number(let number): return NSNumber(value: number)
        case .array(let values): return NSArray(array: values.map(object))
        case .object(let members):
            let dictionary = NSMutableDictionary()
            for (key, member) in members { dictionary[NSString(string: key)] = object(member) }
            return dictionary
        case .null: return NSNull()
        }
    }

    static func object(_ members: [String: JSONValue]) -> NSObject { object(.object(members)) }
}
