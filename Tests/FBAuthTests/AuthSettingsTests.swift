import FBAuth  // not @testable: only what a Swift program can use
import FBAuthStandIn
import Foundation
import Testing

/// Issue 28: one `AuthServiceSettings` value configures `AuthService` (what the command line resolves once),
/// and the completion-handler calls let blocking code use the API without Swift concurrency.
@Suite struct AuthSettingsTests {
    final class Exchanges: HTTPExchangeLogger, @unchecked Sendable {
        private let lock = NSLock()
        private var logged: [LoggedExchange] = []
        var all: [LoggedExchange] { lock.withLock { logged } }
        func log(_ exchange: LoggedExchange) { lock.withLock { logged.append(exchange) } }
    }

    private func directory() throws -> String {
        let path = NSTemporaryDirectory() + "fbauth-settings-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Blocks on a completion handler, as fbauth's commands do.
    private func waitFor<T: Sendable>(_ start: (@escaping @Sendable (Result<T, FBAuthError>) -> Void) -> Void) throws -> T {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<T, FBAuthError>?
        start { result = $0; done.signal() }
        done.wait()
        return try result!.get()
    }

    @Test func theSettingsReachEveryRequest() async throws {
        let standIn = try StandIn()
        standIn.start()
        defer { standIn.stop() }
        let exchanges = Exchanges()
        var settings = AuthServiceSettings(apiKey: "settings-key", emulatorHost: standIn.hostAndPort, configDirectory: try directory())
        settings.clientHeaders = ClientIdentity(iosBundleId: "com.example.app", language: "fr")
        settings.logger = exchanges
        let auth = AuthService(settings: settings)
        _ = standIn.createPasswordUser(email: "lu@example.com", password: "correct horse")
        _ = try await auth.signIn(withEmail: "lu@example.com", password: "correct horse")

        let request = try #require(standIn.requests(to: "accounts:signInWithPassword").last)
        #expect(request.headers["x-ios-bundle-identifier"] == "com.example.app" && request.headers["x-firebase-locale"] == "fr")
        #expect(exchanges.all.contains { $0.url.contains("accounts:signInWithPassword") })
        #expect(!exchanges.all.contains { $0.requestBody.contains("correct horse") }, "the logger sees no password")
    }

    @Test func blockingCodeUsesTheCompletionHandlers() async throws {
        let standIn = try StandIn()
        standIn.start()
        defer { standIn.stop() }
        let auth = AuthService(settings: AuthServiceSettings(apiKey: "settings-key", emulatorHost: standIn.hostAndPort, configDirectory: try directory()))
        let uid = standIn.createPasswordUser(email: "bo@example.com", password: "correct horse")
        let user = try await auth.signIn(withEmail: "bo@example.com", password: "correct horse").user
        #expect(try auth.savedUser("BO@example.com").uid == uid && auth.savedUser(uid).uid == uid && auth.savedUser().uid == uid)
        #expect(throws: FBAuthError.self) { try auth.savedUser("nobody@example.com") }

        let renamed = try waitFor { user.updateProfile(displayName: "Bo", completion: $0) }
        #expect(renamed.displayName == "Bo" && standIn.users.first { $0.uid == uid }?.displayName == "Bo")
        #expect(try waitFor { renamed.getIDTokenResult(forcingRefresh: true, completion: $0) }.signInProvider == "password")
        #expect(try waitFor { renamed.reload(completion: $0) }.metadata.creationDate != nil)
    }

    /// A refresh token Firebase revoked: the call says to sign in again, in the settings' words,
    /// and the session keeps no tokens (the next call does not try them again).
    @Test func aRevokedSessionIsSignedOutWithTheSettingsWords() async throws {
        let standIn = try StandIn()
        standIn.start()
        defer { standIn.stop() }
        var settings = AuthServiceSettings(apiKey: "settings-key", emulatorHost: standIn.hostAndPort, configDirectory: try directory())
        settings.signInAgain = { user in "run my-tool login \(user.email ?? user.uid)" }
        let auth = AuthService(settings: settings)
        let uid = standIn.createPasswordUser(email: "cy@example.com", password: "correct horse")
        let user = try await auth.signIn(withEmail: "cy@example.com", password: "correct horse").user
        standIn.revokeTokens(uid: uid)
        standIn.advanceClock(by: 7200)

        let error = await #expect(throws: FBAuthError.self) { _ = try await user.getIDTokenResult(forcingRefresh: true) }
        #expect(error?.code == .noCurrentUser && error?.message.contains("run my-tool login cy@example.com") == true, "\(String(describing: error))")
        #expect(auth.currentUser?.refreshToken == nil && auth.currentUser?.savedIDToken == nil)
    }

    /// Ctrl-C is watched from the start of a browser sign-in: one pressed while the first advice
    /// is on the screen, before the wait, ends the sign-in (`webContextCancelled`, the command
    /// line's exit 4) instead of killing the process, which a test saw as exit 2 (SIGINT).
    @Test(arguments: [false, true]) func ctrlCDuringTheFirstAdviceEndsTheSignIn(emailLink: Bool) async throws {
        final class Interrupts: InterruptSource, InterruptWatch, SignInObserver, @unchecked Sendable {
            let lock = NSLock()
            var fds: [Int32] = [0, 0]
            var begun = false
            var watchedAtFirstNotice: Bool?
            init() { _ = pipe(&fds) }
            func begin() -> InterruptWatch? { lock.withLock { begun = true }; return self }
            var descriptor: Int32 { fds[0] }
            func end() {}
            func signIn(_ event: SignInEvent) {
                guard case .notice = event else { return }
                let first = lock.withLock { () -> Bool in
                    defer { if watchedAtFirstNotice == nil { watchedAtFirstNotice = begun } }
                    return watchedAtFirstNotice == nil
                }
                if first { var byte: UInt8 = 2; _ = write(fds[1], &byte, 1) }  // the user presses Ctrl-C now
            }
            var pasteInput: PasteInput? { nil }
        }
        let standIn = try StandIn()
        standIn.start()
        defer { standIn.stop() }
        let interrupts = Interrupts()
        var settings = AuthServiceSettings(apiKey: "settings-key", emulatorHost: standIn.hostAndPort, configDirectory: try directory())
        settings.redirect = .loopback
        settings.opensBrowser = false
        settings.timeout = .seconds(20)
        let auth = AuthService(settings: settings, observer: interrupts,
                        host: AuthHost(clock: SystemClock(), interrupts: interrupts, secrets: SystemSecretTokens(), environment: [:]))
        let error = await #expect(throws: FBAuthError.self) {
            // A browser flow, or an email link sent and waited for on a listener.
            _ = emailLink ? try await auth.signIn(with: EmailPassword.credential(awaitingLinkSentTo: "ada@example.com"))
                          : try await auth.signIn(with: BrowserProvider(providerID: "yahoo.com"))
        }
        #expect(error?.code == .webContextCancelled, "\(String(describing: error))")
        #expect(interrupts.watchedAtFirstNotice == true)
    }
}
