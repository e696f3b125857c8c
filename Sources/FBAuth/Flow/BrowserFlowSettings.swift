import FBAuthSupport

/// What a browser flow is made with besides its client: how its pages load the SDK and which
/// domain they use, what the user is told, whom its listeners admit. Read once by the caller
/// (the command line from its settings, `Auth` from its own) and passed to the flow's `init`.
package struct BrowserFlowSettings: Sendable {
    /// Whether to report a live "waiting" line (`SignInEvent.waiting`), where it can be redrawn.
    package var showsWaitingLine = false
    /// Where the hosted flow's page loads the Firebase JS SDK from.
    package var firebaseJSBase: String = HostedPage.defaultSDKBase
    /// The hosted handler's domain when configured.
    package var authDomain: String?
    /// The project id, when known (it gives the default auth domain).
    package var projectId: String?
    /// The page's one-time values.
    package var secrets: SecretTokens = SystemSecretTokens()
    /// A private directory (the config directory) for the `LaunchPage` a launched browser is
    /// given; nil: a new private temporary directory.
    package var launchDirectory: String?
    /// What to tell a user whose browser is elsewhere (SSH, containers, CI).
    package var headless = HeadlessAdvice(environment: [:])
    /// Who may connect to the flow's listeners.
    package var listenerGuard = ListenerGuard.ownConnectionsOnly

    package init(showsWaitingLine: Bool = false, firebaseJSBase: String? = nil, authDomain: String? = nil, projectId: String? = nil,
                 secrets: SecretTokens = SystemSecretTokens(), launchDirectory: String? = nil,
                 headless: HeadlessAdvice = HeadlessAdvice(environment: [:]), listenerGuard: ListenerGuard = .ownConnectionsOnly) {
        self.showsWaitingLine = showsWaitingLine
        self.firebaseJSBase = firebaseJSBase ?? HostedPage.defaultSDKBase
        self.authDomain = authDomain
        self.projectId = projectId
        self.secrets = secrets
        self.launchDirectory = launchDirectory
        self.headless = headless
        self.listenerGuard = listenerGuard
    }
}
