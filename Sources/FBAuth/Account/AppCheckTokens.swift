#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport
import LoopbackHTTP

/// The App Check token every request carries, when App Check is configured: the one saved with
/// the project's sessions while it has more than five minutes left (the JS SDK's refresh
/// offset, packages/app-check `TOKEN_REFRESH_TIME`), else a new one from the debug-token
/// exchange, saved for the next request and the next process. So the exchange happens once per
/// token lifetime, not once per command.
internal final class AppCheckTokens: @unchecked Sendable {
    let settings: AppCheckDebugSettings
    let store: SessionStore
    let project: ProjectKey
    let projectID: @Sendable () -> String?
    let clock: WallClock
    /// A client without App Check (the exchange carries no token of its own).
    let exchangeClient: @Sendable () -> FirebaseAuthClient
    private let lock = Lock()
    private var current: ExchangedAppCheckToken?

    static let refreshOffset: TimeInterval = 5 * 60

    internal init(settings: AppCheckDebugSettings, store: SessionStore, project: ProjectKey, projectID: @escaping @Sendable () -> String?,
                 clock: WallClock, exchangeClient: @escaping @Sendable () -> FirebaseAuthClient) {
        self.settings = settings
        self.store = store
        self.project = project
        self.projectID = projectID
        self.clock = clock
        self.exchangeClient = exchangeClient
    }

    /// A token with more than five minutes left.
    internal func token() throws(FBAuthError) -> ExchangedAppCheckToken {
        do {
            return try lock.withLock { try fetch() }
        } catch let error as FBAuthError {
            throw error
        } catch {
            throw .failed(.internalError, "\(error)")
        }
    }

    private func fetch() throws(FBAuthError) -> ExchangedAppCheckToken {
        if let current, usable(current) { return current }
        if let saved = (try? store.load())?.project(project)?.appCheck, usable(saved) {
            current = saved
            return saved
        }
        var fresh = try exchangeClient().exchangeDebugToken(settings, project: projectID() ?? settings.projectNumber, now: clock.now())
        fresh.debugTokenDigest = SHA256.hex(settings.debugToken)
        // Kept for the next process; a store that cannot be written costs only a later exchange.
        try? store.update { (contents: inout StoreContents) throws(FBAuthError) in
            contents.modifyProject(project) { $0.appCheck = fresh }
        }
        current = fresh
        return fresh
    }

    private func usable(_ token: ExchangedAppCheckToken) -> Bool {
        token.appID == settings.appID && token.debugTokenDigest == SHA256.hex(settings.debugToken)
            && token.expirationTime.timeIntervalSince(clock.now()) > Self.refreshOffset
    }
}
