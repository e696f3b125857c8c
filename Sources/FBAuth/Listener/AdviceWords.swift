/// How the advice a sign-in gives its observer (a browser that cannot be reached, a wait that
/// ended) names the other ways to sign in. The library describes them; a program replaces each
/// with what its user types, as fbauth names its options.
package struct AdviceWords: Sendable, Equatable {
    /// The provider redirecting straight to the listener (a loopback redirect URI).
    package var loopback = "the loopback redirect"
    /// Starting a sign-in now and completing it later with the address the browser ends on.
    package var twoStep = "a sign-in in two steps (the provider's address now, the address the browser ends on later)"
    /// Starting again with the address shown instead of a browser launched.
    package var noBrowser = "sign in again without launching a browser, to be shown the address to open"
    /// The sign-ins that need no browser.
    package var browserless = "a provider's ID token, a custom token or a password"
    /// Giving the email of the account a sign-in is for.
    package var accountEmail = "an email of your choice"
    /// A copy of the Firebase JS SDK served from elsewhere.
    package var sdkCopy = "a copy of the SDK"
    /// Giving the project's auth domain (`PROJECT.firebaseapp.com`).
    package var authDomain = "the project's auth domain"
    /// An emulator whose fake providers consent at once, with which a provider's sign-in
    /// needs no browser at all.
    package var autoConsent = "an Auth emulator whose fake providers consent at once needs no browser at all"

    package init() {}
}
