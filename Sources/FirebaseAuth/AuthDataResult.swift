import FBAuth
import Foundation

/// What a sign-in, link or reauthentication gives, as the SDK's `AuthDataResult`.
open class AuthDataResult: NSObject, @unchecked Sendable {
    /// The signed-in user.
    public let user: User
    /// What the provider said of the user.
    public let additionalUserInfo: AdditionalUserInfo?
    /// The provider's credential, with its tokens: `authResult.credential?.accessToken`, as the
    /// SDK types it.
    public let credential: OAuthCredential?

    init(_ result: AuthOutcome, auth: Auth) {
        user = User(result.user, auth: auth)
        additionalUserInfo = result.additionalUserInfo.map(AdditionalUserInfo.init)
        credential = result.credential.map(OAuthCredential.init(pending:))
        super.init()
    }
}

/// What the provider said of the user, as the SDK's `AdditionalUserInfo`.
open class AdditionalUserInfo: NSObject, @unchecked Sendable {
    /// The provider of the sign-in.
    public let providerID: String
    /// The provider's profile of the user (Yahoo's, Microsoft's, X's own fields).
    public let profile: [String: NSObject]?
    /// The provider's user name (X's screen name, GitHub's login).
    public let username: String?
    /// Whether the sign-in made a new user.
    public let isNewUser: Bool

    init(_ info: SignInProviderDetails) {
        providerID = info.providerID
        profile = info.profile.flatMap { FoundationJSON.object($0) as? [String: NSObject] }
        username = info.username
        isNewUser = info.isNewUser
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
