import FBAuth

/// What signin, link and reauth need to know of the way they were asked to sign in, to set up
/// the one `AuthService` they run with (`CommandContext.signInSetup`).
protocol SignInMethod {
    /// The browser flow to run now, when the method is one (not `--print-url`/`--complete`).
    var browserRequest: BrowserFlowRequest? { get }
    /// Whether a browser may open for the method's own page (reCAPTCHA, an email link's wait);
    /// false with `--no-browser`.
    var opensBrowser: Bool { get }
    /// Whether the method reads all of stdin (a token from `-`), so that a second factor's
    /// code cannot come from there. A password takes only the first line.
    var readsAllOfStandardInput: Bool { get }
}
