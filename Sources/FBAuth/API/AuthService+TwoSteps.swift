/// What a browser sign-in started now and completed later is for.
package enum DeferredSignInPurpose: String, Sendable {
    case signIn = "signin"
    case link
    case reauthenticate = "reauth"
}

/// The browser sign-in in two steps, for scripts, agents and machines where nothing can wait
/// for a browser: `startSignIn` asks Firebase for the provider's authorization URL and keeps the
/// pending sign-in with the sessions; a later process gives `completeSignIn` the address the
/// browser ended on (the loopback redirect, which need not have loaded) and it finishes as it
/// was started. The SDK has no such step: an app's web view never leaves it. The redirect is
/// the loopback one, on the fixed `AuthServiceSettings.port` registered with the provider.
extension AuthService {
    /// Starts a sign-in, or a link or reauthentication of `user`; the authorization URL to open.
    package func startSignIn(with provider: BrowserProvider, purpose: DeferredSignInPurpose, user: SignedInUser? = nil) async throws(FBAuthError) -> String {
        try await inBackground(starting(provider, purpose: purpose, user: user))
    }

    /// The same with a completion handler.
    package func startSignIn(with provider: BrowserProvider, purpose: DeferredSignInPurpose, user: SignedInUser? = nil,
                            completion: @escaping @Sendable (Result<String, FBAuthError>) -> Void) {
        onBackground(starting(provider, purpose: purpose, user: user), completion)
    }

    /// Completes the started sign-in that `address` (where the browser ended) belongs to, which
    /// must have been started for `purpose`. An address of no pending sign-in is
    /// `webContextCancelled`; one that is not the sign-in's redirect, `invalidArgument`.
    package func completeSignIn(withRedirectURL address: String, purpose: DeferredSignInPurpose) async throws(FBAuthError) -> AuthOutcome {
        try await inBackground(completing(address, purpose: purpose))
    }

    /// The same with a completion handler.
    package func completeSignIn(withRedirectURL address: String, purpose: DeferredSignInPurpose,
                               completion: @escaping @Sendable (Result<AuthOutcome, FBAuthError>) -> Void) {
        onBackground(completing(address, purpose: purpose), completion)
    }

    /// The redirect URI the provider sends a started sign-in's browser to.
    package var loopbackRedirectURI: String { "http://\(settings.redirectHost.rawValue):\(settings.port)\(RedirectReceiver.callbackPath)" }

    private func twoSteps() -> TwoStepFlow { TwoStepFlow(flow: flow(secondFactor: secondFactorHandling), store: store, project: project, clock: clock) }

    private func starting(_ provider: BrowserProvider, purpose: DeferredSignInPurpose, user: SignedInUser?) -> @Sendable () throws(FBAuthError) -> String {
        { () throws(FBAuthError) in try self.twoSteps().start(self.options(for: provider), command: purpose.rawValue, user: user?.reference) }
    }

    private func completing(_ address: String, purpose: DeferredSignInPurpose) -> @Sendable () throws(FBAuthError) -> AuthOutcome {
        { () throws(FBAuthError) in
            let twoSteps = self.twoSteps()
            let claimed = try twoSteps.claim(address, command: purpose.rawValue)
            let providerId = claimed.providerId
            guard purpose != .signIn else {
                let result = try twoSteps.exchange(claimed, purpose: .signIn)
                return try self.saving { () throws(FBAuthError) in try self.signedIn(result, providerId: providerId) }()
            }
            guard let reference = claimed.user else {
                throw .failed(.internalError, "the started \(purpose == .link ? "link" : "reauthentication") names no user; start it again")
            }
            guard purpose == .link else {
                return try self.renew(reference, purpose: .reauthenticate, providerId: providerId) { () throws(FBAuthError) in
                    try twoSteps.exchange(claimed, purpose: .reauthenticate)
                }
            }
            let refresher = self.refresher()
            let session = try refresher.session(.exactly(reference), minValid: 60)
            do throws(FBAuthError) {
                return try self.renew(reference, purpose: .link(idToken: session.idToken), providerId: providerId) { () throws(FBAuthError) in
                    try twoSteps.exchange(claimed, purpose: .link(idToken: session.idToken))
                }
            } catch where error.rejectsSession {
                try refresher.reject(session, because: error)
            } catch {
                throw error.explainingLink(of: providerId)
            }
        }
    }
}
