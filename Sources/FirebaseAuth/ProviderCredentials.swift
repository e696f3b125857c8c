import FBAuth
import Foundation

// The SDK's provider classes: a credential from a token the provider's own SDK gave (Google
// Sign-In, Facebook Login, the X SDK) or an OAuth app's access token (GitHub), to sign in,
// link or reauthenticate with (firebase-ios-sdk FirebaseAuth/Sources/Swift/AuthProvider/).

/// Google's, as the SDK's `GoogleAuthProvider`.
open class GoogleAuthProvider: NSObject {
    /// `google.com`.
    public static let id = "google.com"

    /// A credential of Google Sign-In's ID token and access token.
    open class func credential(withIDToken idToken: String, accessToken: String) -> AuthCredential {
        OAuthProvider.tokens(id, idToken: idToken, accessToken: accessToken)
    }
}

/// GitHub's, as the SDK's `GitHubAuthProvider`.
open class GitHubAuthProvider: NSObject {
    /// `github.com`.
    public static let id = "github.com"

    /// A credential of a GitHub OAuth app's access token.
    open class func credential(withToken token: String) -> AuthCredential {
        OAuthProvider.tokens(id, accessToken: token)
    }
}

/// X's (Twitter's), as the SDK's `TwitterAuthProvider`: OAuth 1.0a, a token and its secret.
open class TwitterAuthProvider: NSObject {
    /// `twitter.com`.
    public static let id = "twitter.com"

    /// A credential of an OAuth 1.0a token and its secret.
    open class func credential(withToken token: String, secret: String) -> AuthCredential {
        OAuthProvider.tokens(id, accessToken: token, secret: secret)
    }
}

/// Facebook's, as the SDK's `FacebookAuthProvider`.
open class FacebookAuthProvider: NSObject {
    /// `facebook.com`.
    public static let id = "facebook.com"

    /// A credential of Facebook Login's access token.
    open class func credential(withAccessToken accessToken: String) -> AuthCredential {
        OAuthProvider.tokens(id, accessToken: accessToken)
    }
}

/// The SDK's provider ids, as constants.
public let GoogleAuthProviderID = GoogleAuthProvider.id
/// `github.com`.
public let GitHubAuthProviderID = GitHubAuthProvider.id
/// `twitter.com`.
public let TwitterAuthProviderID = TwitterAuthProvider.id
/// `facebook.com`.
public let FacebookAuthProviderID = FacebookAuthProvider.id
