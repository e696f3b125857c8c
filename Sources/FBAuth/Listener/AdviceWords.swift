/// How the advice a sign-in gives its observer (a browser that cannot be reached, a wait that
/// ended) names the other ways to sign in. The library describes them; a program replaces each
/// with what its user types, as fbauth names its options.
public struct AdviceWords: Sendable, Equatable {
    /// The provider redirecting straight to the listener (a loopback redirect URI).
    public var loopback = "the loopback redirect"
    /// Starting a sign-in now and completing it later with the address the browser ends on.
    public var twoStep = "a sign-in in two steps (the provider's address now, the address the browser ends on later)"
    /// Starting again with the address shown instead of a browser launched.
    public var noBrowser = "sign in again without launching a browser, to be shown the address to open"
    /// The sign-ins that need no browser.
    public var browserless = "a provider's ID token, a custom token or a password"
    /// Giving the email of the account a sign-in is for.
    public var accountEmail = "an email of your choice"
    /// A copy of the Firebase JS SDK served from elsewhere.
    public var sdkCopy = "a copy of the SDK"
    /// Giving the project's auth domain (`PROJECT.firebaseapp.com`).
    public var authDomain = "the project's auth domain"

    public init() {}
}
