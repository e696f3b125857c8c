import FBAuthStandIn
import FirebaseAuth
import FirebaseCore
import Foundation
import Testing

/// Issue 58: the library behaves as the SDK does where an app can tell, member by member
/// (firebase-ios-sdk `FirebaseAuth/Sources/Swift/Auth/Auth.swift` and `User/User.swift`).
@Suite struct SDKBehaviourTests {
    /// The SDK keeps the stored user by app name: a sign-up on one app does not replace another
    /// app's user. `currentUser` is the same object until the user changes.
    @Test func twoAppsKeepACurrentUserEach() async throws {
        let setup = try StandInApp()
        let first = try await setup.auth.signInAnonymously().user
        #expect(setup.auth.currentUser === setup.auth.currentUser && setup.auth.currentUser === first)
        let other = setup.anotherApp()
        #expect(other.currentUser == nil, "another app starts with nobody signed in")
        let second = try await other.createUser(withEmail: "pat@example.com", password: "correct horse battery").user
        #expect(other.currentUser?.uid == second.uid)
        #expect(setup.auth.currentUser?.uid == first.uid, "the first app's user stays")
        try other.signOut()
        #expect(other.currentUser == nil && setup.auth.currentUser?.uid == first.uid)
    }

    @Test func aKeptUserStillGetsTokensAfterTheSignOut() async throws {
        try await BehaviourScenarios.aKeptUserStillGetsTokensAfterTheSignOut(try StandInApp())
    }

    /// `updateCurrentUser` throws `tenantIDMismatch` when the user's tenant is not the Auth's.
    @Test func updateCurrentUserAcrossTenantsIsRefused() async throws {
        let setup = try StandInApp()
        setup.auth.tenantID = "tenant-a1"
        let tenantUser = try await setup.auth.signInAnonymously().user
        setup.auth.tenantID = nil
        await #expect { try await setup.auth.updateCurrentUser(tenantUser) } throws: { ($0 as? AuthErrorCode)?.code == .tenantIDMismatch }
        setup.auth.tenantID = "tenant-a1"
        try await setup.auth.updateCurrentUser(tenantUser)
        #expect(setup.auth.currentUser?.uid == tenantUser.uid)
    }

    @Test func aForcedRefreshTellsTheTokenListeners() async throws {
        try await BehaviourScenarios.aForcedRefreshTellsTheTokenListeners(try StandInApp())
    }

    /// `updateCurrentUser` with a user of another API key of the project: reloaded with this
    /// app's key, then current here, its tokens working.
    @Test func aUserOfAnotherAPIKeyIsTakenByReloadingIt() async throws {
        let setup = try StandInApp()
        let user = try await setup.auth.createUser(withEmail: "keys@example.com", password: "correct horse battery").user
        let other = setup.anotherApp(apiKey: "another-key-of-the-project")
        #expect(other.currentUser == nil)
        try await other.updateCurrentUser(user)
        #expect(other.currentUser?.uid == user.uid && other.currentUser?.email == "keys@example.com")
        let lookups = setup.standIn.requests(to: "accounts:lookup").filter { $0.query?.contains("key=another-key-of-the-project") == true }
        #expect(!lookups.isEmpty, "reloaded with the app's own API key")
        #expect(try await other.currentUser?.getIDToken(forcingRefresh: true).isEmpty == false)
        #expect(setup.auth.currentUser?.uid == user.uid, "the first app's user stays its own")
    }

    /// A provider account that is another user's already: `credentialAlreadyInUse` carries its
    /// email and the provider's credential, which signs in to that user.
    @Test func aCredentialInUseCarriesTheCredentialAndTheEmail() async throws {
        let setup = try StandInApp()
        let minted = setup.standIn.mintProviderCredential(providerId: "google.com", email: "g@example.com")
        let owner = try await setup.auth.signIn(with: GoogleAuthProvider.credential(withIDToken: minted.idToken, accessToken: minted.accessToken)).user
        let other = try await setup.auth.signInAnonymously().user
        do {
            _ = try await other.link(with: GoogleAuthProvider.credential(withIDToken: minted.idToken, accessToken: minted.accessToken))
            Issue.record("linked a credential that is another user's")
        } catch let error as NSError where error.code == AuthErrorCode.credentialAlreadyInUse.rawValue {
            #expect(error.userInfo[AuthErrorUserInfoEmailKey] as? String == "g@example.com", "\(error.userInfo)")
            let updated = try #require(error.userInfo[AuthErrorUserInfoUpdatedCredentialKey] as? OAuthCredential, "\(error.userInfo)")
            #expect(updated.provider == "google.com")
            #expect(try await setup.auth.signIn(with: updated).user.uid == owner.uid)
        }
    }

    @Test func anErrorIsCaughtAsAnNSError() async throws {
        try await BehaviourScenarios.anErrorIsCaughtAsAnNSError(try StandInApp())
    }
}


/// The scenarios that run against Google's Auth emulator too, as an app would call them.
enum BehaviourScenarios {
    /// `signOut()` clears `currentUser`; a `User` the app kept still gets tokens.
    static func aKeptUserStillGetsTokensAfterTheSignOut(_ setup: some EmulatorApp) async throws {
        // Google's emulator is shared by the whole run: an address of this test's own.
        let email = "kept-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let user = try await setup.auth.createUser(withEmail: email, password: "correct horse battery").user
        try setup.auth.signOut()
        #expect(setup.auth.currentUser == nil)
        let token = try await user.getIDToken(forcingRefresh: true)
        #expect(token.split(separator: ".", omittingEmptySubsequences: false).count == 3, "a JWT (unsigned from Google's emulator)")
        #expect(try await user.getIDTokenResult().claims["email"] as? String == email)
        // Nothing of the session stays on disk: it went on in this process only.
        let saved = (try? String(contentsOfFile: setup.directory + "/sessions.json", encoding: .utf8)) ?? ""
        #expect(!saved.contains(user.uid), "\(saved)")
    }

    /// Every token change tells the ID-token listeners, a forced refresh included.
    static func aForcedRefreshTellsTheTokenListeners(_ setup: some EmulatorApp) async throws {
        let user = try await setup.auth.signInAnonymously().user
        let told = Told()
        let handle = setup.auth.addIDTokenDidChangeListener { _, user in told.add(user?.uid) }
        try await told.wait(for: 1)
        _ = try await user.getIDTokenResult(forcingRefresh: true)
        try await told.wait(for: 2)
        #expect(told.values == [user.uid, user.uid])
        setup.auth.removeIDTokenDidChangeListener(handle)
    }

    /// The iOS idioms for errors: `catch let error as NSError where error.code == …`, with the
    /// resolver in its `userInfo`, and `AuthErrorCode(rawValue:)` on its code.
    static func anErrorIsCaughtAsAnNSError(_ setup: some EmulatorApp) async throws {
        let email = "wrong-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        _ = try await setup.auth.createUser(withEmail: email, password: "correct horse battery")
        do {
            _ = try await setup.auth.signIn(withEmail: email, password: "wrong password")
            Issue.record("signed in with a wrong password")
        } catch let error as NSError where error.code == AuthErrorCode.wrongPassword.rawValue || error.code == AuthErrorCode.invalidCredential.rawValue {
            #expect(error.domain == AuthErrorDomain && AuthErrorCode(rawValue: error.code) != nil)
            // An NSError of the domain casts back to the code, and the code prints as the NSError.
            #expect((error as Error as? AuthErrorCode)?.code.rawValue == error.code)
            #expect("\(AuthErrorCode.userNotFound)".hasPrefix("Error Domain=FIRAuthErrorDomain Code=17011 \"There is no user record"))
        } catch {
            Issue.record("not caught as an NSError: \(type(of: error)) \(error)")
        }
    }
}

@Suite(.enabled(if: GoogleEmulatorApp.host != nil, GoogleEmulatorApp.skipReason))
struct SDKBehaviourOnGooglesEmulatorTests {
    @Test func aKeptUserStillGetsTokensAfterTheSignOut() async throws {
        try await BehaviourScenarios.aKeptUserStillGetsTokensAfterTheSignOut(try GoogleEmulatorApp())
    }

    @Test func aForcedRefreshTellsTheTokenListeners() async throws {
        try await BehaviourScenarios.aForcedRefreshTellsTheTokenListeners(try GoogleEmulatorApp())
    }

    @Test func anErrorIsCaughtAsAnNSError() async throws {
        try await BehaviourScenarios.anErrorIsCaughtAsAnNSError(try GoogleEmulatorApp())
    }
}

/// Values told to a listener on the main queue.
private final class Told: @unchecked Sendable {
    private let lock = NSLock()
    private var told: [String?] = []
    var values: [String?] { lock.withLock { told } }
    func add(_ value: String?) { lock.withLock { told.append(value) } }

    /// Waits (at most 10 s of the main queue's turns) until `count` values are in.
    func wait(for count: Int) async throws {
        for _ in 0..<1000 where values.count < count {
            await withCheckedContinuation { done in DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(10)) { done.resume() } }
        }
        try #require(values.count >= count, "told \(values)")
    }
}
