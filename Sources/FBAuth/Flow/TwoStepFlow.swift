#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP
import FBAuthSupport

/// The browser flow split over two commands, for scripts, agents and machines where nothing
/// can wait: `--print-url` asks Firebase for the authorization URL and saves the pending flow;
/// `--complete URL` takes the address the browser ended on (the redirect to the loopback
/// address, which need not have loaded) and finishes the flow it belongs to.
internal struct TwoStepFlow {
    internal var flow: BrowserSignInFlow
    let store: SessionStore
    let project: ProjectKey
    let clock: WallClock

    internal init(flow: BrowserSignInFlow, store: SessionStore, project: ProjectKey, clock: WallClock) {
        self.flow = flow
        self.store = store
        self.project = project
        self.clock = clock
    }

    /// Starts a flow for `command`; returns the authorization URL.
    internal func start(_ options: FlowOptions, command: String, user: SessionReference?) throws(FBAuthError) -> String {
        var options = options
        if options.port == 0, flow.client.endpoints.emulatorHost != nil {
            // An emulator's fake providers take any loopback port (nothing is registered with
            // them), and nothing listens on it between the two steps: any port of the ephemeral
            // range names the redirect.
            options.port = UInt16(49_152 + Int(UInt16(flow.secrets.make(bytes: 2), radix: 16) ?? 0) % 16_384)
        }
        guard options.port != 0 else {
            throw .usage("a sign-in completed later needs a fixed port: the redirect URI registered with the provider names it")
        }
        let redirectURI = "http://\(options.redirectHost.rawValue):\(options.port)\(RedirectReceiver.callbackPath)"
        guard let authorization = try flow.authorize(options, redirectURI: redirectURI) else {
            throw .failed(.operationNotAllowed, "the Auth emulator does not run browser flows, so there is no authorization URL to give; sign in in one step instead")
        }
        let pending = PendingFlow(
            command: command, providerId: options.providerId, authURI: authorization.authURI, sessionId: authorization.sessionId,
            redirectURI: redirectURI, tenantId: flow.tenantId, user: user, startedAt: clock.now())
        let now = clock.now()
        try store.update { (contents: inout StoreContents) throws(FBAuthError) in
            contents.modifyProject(project) { state in
                state.pendingFlows = (state.pendingFlows ?? []).filter { now.timeIntervalSince($0.startedAt) <= PendingFlow.lifetime } + [pending]
            }
        }
        return authorization.authURI
    }

    /// Takes the pending flow `address` belongs to out of the store, with the callback the
    /// address carries. An address that is not that flow's redirect leaves it pending; once
    /// claimed, the flow is used up, since an authorization code works once.
    internal func claim(_ address: String, command: String) throws(FBAuthError) -> ClaimedFlow {
        let query = URLComponents(string: address.trimmed())?.percentEncodedQuery ?? ""
        let values = Set(FormEncoding.decode(query).filter { ["state", "oauth_token", "denied"].contains($0.name) }.map(\.value))
        let now = clock.now()
        let (pending, callback) = try store.update { (contents: inout StoreContents) throws(FBAuthError) -> (PendingFlow, ReceivedCallback?) in
            let flows = contents.project(project)?.pendingFlows ?? []
            guard let match = flows.first(where: { flow in
                switch flow.binding {
                case .state(let value), .oauthToken(let value): values.contains(value)
                case .none: false
                }
            }) else {
                throw .flowIncomplete("that address does not belong to a pending sign-in (unknown, or already completed); start the sign-in again")
            }
            guard match.command == command else {
                throw .usage("that address belongs to a pending `\(match.command)`, not to this one: complete it there")
            }
            let fresh = now.timeIntervalSince(match.startedAt) <= PendingFlow.lifetime
            var callback: ReceivedCallback?
            if fresh {
                switch PastedRedirect.callback(from: address, redirectURI: match.redirectURI, matcher: match.authorization.matcher) {
                case .success(let received): callback = received
                case .failure(let problem): throw .usage("that is not the redirect of this sign-in (\(problem.reason))")
                }
            }
            contents.modifyProject(project) { state in
                state.pendingFlows = flows.filter { $0 != match && now.timeIntervalSince($0.startedAt) <= PendingFlow.lifetime }
            }
            return (match, callback)
        }
        guard let callback else {
            throw .flowIncomplete("that sign-in was started \(Int(now.timeIntervalSince(pending.startedAt) / 60)) minutes ago and has expired; start the sign-in again")
        }
        return ClaimedFlow(pending: pending, callback: callback)
    }

    /// Lets Firebase exchange a claimed flow's code for `purpose`.
    internal func exchange(_ claimed: ClaimedFlow, purpose: FlowPurpose) throws(FBAuthError) -> BrowserSignInFlow.Result {
        try flow.exchange(claimed.callback, authorization: claimed.pending.authorization, providerId: claimed.providerId, purpose: purpose)
    }
}

/// A pending flow taken out of the store together with the redirect it was waiting for: only
/// the exchange is left.
internal struct ClaimedFlow {
    let pending: PendingFlow
    let callback: ReceivedCallback

    internal var providerId: String { pending.providerId }
    /// The session the flow was started for (link, reauth); nil for a sign-in.
    internal var user: SessionReference? { pending.user }
}
