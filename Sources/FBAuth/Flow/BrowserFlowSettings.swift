import FBAuthSupport

/// What a browser flow is made with besides its client: how its pages load the SDK and which
/// domain they use, what the user is told, whom its listeners admit. Read once by the caller
/// (the command line from its settings, `AuthService` from its own) and passed to the flow's `init`.
internal struct BrowserFlowSettings: Sendable {
    /// Whether to report a live "waiting" line (`SignInEvent.waiting`), where it can be redrawn.
    internal var showsWaitingLine = false
    /// Where the hosted flow's page loads the Firebase JS SDK from.
    internal var firebaseJSBase: String = HostedPage.defaultSDKBase
    /// The hosted handler's domain when configured.
    internal var authDomain: String?
    /// The project id, when known (it gives the default auth domain).
    internal var projectId: String?
    /// The page's one-time values.
    internal var secrets: SecretTokens = SystemSecretTokens()
    /// A private directory (the config directory) for the `LaunchPage` a launched browser is
    /// given; nil: a new private temporary directory.
    internal var launchDirectory: String?
    /// What to tell a user whose browser is elsewhere (SSH, containers, CI).
    internal var headless = HeadlessAdvice(environment: [:])
    /// Who may connect to the flow's listeners.
    internal var listenerGuard = ListenerGuard.ownConnectionsOnly

    internal init(showsWaitingLine: Bool = false, firebaseJSBase: String? = nil, authDomain: String? = nil, projectId: String? = nil,
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
