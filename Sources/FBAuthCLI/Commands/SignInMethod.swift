import FBAuth

/// What signin, link and reauth need to know of the way they were asked to sign in, to set up
/// the one `Auth` they run with (`CommandContext.signInSetup`).
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

extension CommandContext {
    /// The one preamble of the sign-in commands: the browser flow checked and set up when the
    /// method has one, and the `Auth` it runs with (the flow's options, the second-factor
    /// prompt, how to sign in again).
    func signInSetup(_ method: some SignInMethod, project: ProjectContext, secondFactor: SecondFactorOptions,
                     signInArguments: [String]? = nil) throws(FBAuthError) -> (auth: Auth, flow: BrowserFlowRequest?) {
        let flow = try method.browserRequest.map { (requested: BrowserFlowRequest) throws(FBAuthError) in try browserRun(requested, project: project) }
        let auth = try signInAuth(for: project, flow: flow, opensBrowser: method.opensBrowser, secondFactor: secondFactor,
                                  stdinTaken: method.readsAllOfStandardInput, signInArguments: flow?.repeatArguments ?? signInArguments)
        return (auth, flow)
    }
}
