@testable import FBAuth
import FBAuthStandIn
import Foundation
import Testing
@testable import FBAuthSupport

/// A keyring in memory that answers as gnome-keyring does (`KeyringRecordings`): items keep
/// every attribute they were given and gain the keyring's own on a restart (`xdg:schema`), a
/// search matches by subset, and fbauth's items are told by fbauth's attributes alone. What it
/// holds, what was asked of it, and a switch that makes it answer as an absent (or locked)
/// one. `KeyringContractTests` runs the same calls on it and on the real keyring.
final class MemoryKeyring: SecretKeeper, @unchecked Sendable {
    private let lock = NSLock()
    private var items: [(attributes: [String: String], secret: String)] = []
    private var failure: FBAuthError?
    private(set) var calls = 0

    func fail(with error: FBAuthError?) { lock.withLock { failure = error } }
    var secrets: [String] { lock.withLock { items.map(\.secret) } }
    var itemCount: Int { lock.withLock { items.count } }
    func remove(kind: String) { lock.withLock { items.removeAll { $0.attributes["kind"] == kind } } }
    /// An item written by another program (with the attributes it gave).
    func plant(_ attributes: [String: String], _ secret: String) { lock.withLock { items.append((attributes, secret)) } }
    /// The daemon restarted: every item carries the attributes the keyring adds of its own.
    func restart() { lock.withLock { items = items.map { ($0.attributes.merging(KeyringRecordings.addedByTheKeyring) { old, _ in old }, $0.secret) } } }

    private func answer<T>(_ body: () -> T) throws(FBAuthError) -> T {
        lock.lock()
        defer { lock.unlock() }
        calls += 1
        if let failure { throw failure }
        return body()
    }

    private func isItem(_ attributes: [String: String], _ item: KeyringItem) -> Bool { KeyringItem.own(attributes) == item.attributes }

    func probe() throws(FBAuthError) -> String { try answer { "the memory keyring" } }
    func store(_ secret: String, as item: KeyringItem) throws(FBAuthError) {
        try answer {
            items.removeAll { isItem($0.attributes, item) }
            items.append((item.attributes, secret))
        }
    }
    func secret(of item: KeyringItem) throws(FBAuthError) -> String? { try answer { items.last { isItem($0.attributes, item) }?.secret } }
    func delete(_ item: KeyringItem) throws(FBAuthError) { try answer { items.removeAll { isItem($0.attributes, item) } } }
    func listed() throws(FBAuthError) -> [[String: String]] {
        try answer { items.filter { $0.attributes["service"] == KeyringItem.service }.map { KeyringItem.own($0.attributes) } }
    }
}

/// Issue 30: what the store keeps in the keyring and what in sessions.json, and the ways back.
@Suite struct SecretKeepingStoreTests {
    let directory = NSTemporaryDirectory() + "fbauth-secrets-" + UUID().uuidString
    let project = ProjectKey(apiKey: "AIzaKey123456", emulatorHost: nil)
    let keyring = MemoryKeyring()
    let notices = Notices()

    final class Notices: @unchecked Sendable {
        private let lock = NSLock()
        private var said: [String] = []
        var lines: [String] { lock.withLock { said } }
        func add(_ line: String) { lock.withLock { said.append(line) } }
    }

    func store(_ choice: SecretStorage? = nil, keeper: (any SecretKeeper)?? = nil) -> SecretKeepingStore {
        SecretKeepingStore(file: FileSessionStore(directory: directory), keeper: keeper ?? keyring, choice: choice,
                           notice: { [notices] in notices.add($0) })
    }

    func session(_ uid: String, refreshToken: String = "AMf-refresh", secret: String? = nil) -> Session {
        var session = Session(uid: uid, email: "\(uid)@example.com", idToken: "id-\(uid)", refreshToken: refreshToken,
                              expirationTime: Date(timeIntervalSince1970: 2_000_000_000), lastSignInTime: Date(timeIntervalSince1970: 1_900_000_000))
        if let secret { session.remember(ProviderCredential(providerId: "twitter.com", accessToken: "x-access", secret: secret, obtainedAt: Date())) }
        return session
    }

    /// "CODE: message" of what `body` throws; nil when it throws nothing.
    func failure(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as FBAuthError {
            return "\(error.code): \(error.message)"
        } catch {
            return "\(error)"
        }
    }

    var fileText: String { (try? String(contentsOfFile: directory + "/sessions.json", encoding: .utf8)) ?? "" }

    @Test func aSignInKeepsItsRefreshTokenInTheKeyringAndSaysSoOnce() throws {
        try store().update { $0.save(session("ada", refreshToken: "AMf-ada"), in: project, makeCurrent: true) }
        try store().update { $0.save(session("bob", refreshToken: "AMf-bob"), in: project, makeCurrent: true) }
        #expect(keyring.secrets.sorted() == ["AMf-ada", "AMf-bob"])
        #expect(!fileText.contains("AMf-ada") && !fileText.contains("AMf-bob"), "no refresh token in the file: \(fileText)")
        #expect(fileText.contains("\"refreshToken\" : \"@keyring\"") && fileText.contains("\"secretStore\" : \"keyring\""))
        #expect(notices.lines == ["refresh tokens are kept in the memory keyring"], "said once, on the first sign-in")
        let saved = try #require(try store().load().currentSession(of: project))
        #expect(try store().refreshToken(of: saved, in: project) == "AMf-bob")
    }

    @Test func withoutAKeyringTheFileKeepsThemAndSaysWhy() throws {
        keyring.fail(with: .store("no keyring: no D-Bus session: DBUS_SESSION_BUS_ADDRESS is not set"))
        try store().update { $0.save(session("ada", refreshToken: "AMf-ada"), in: project, makeCurrent: true) }
        #expect(fileText.contains("AMf-ada") && fileText.contains("\"secretStore\" : \"file\""))
        #expect(notices.lines == ["no keyring found (no D-Bus session: DBUS_SESSION_BUS_ADDRESS is not set): refresh tokens are kept in \(directory)/sessions.json (0600)"])
        try store().update { $0.save(session("bob"), in: project, makeCurrent: true) }
        #expect(notices.lines.count == 1, "the choice is remembered")
    }

    @Test func theKeyringChosenByTheUserIsNeverASilentFallback() throws {
        keyring.fail(with: .store("the keyring is locked: unlock it and try again"))
        #expect(failure { try store(.keyring).checkWritable() } == "keychainError: the keyring is locked: unlock it and try again")
        #expect(throws: FBAuthError.self) { try store(.keyring).update { $0.save(session("ada"), in: project, makeCurrent: true) } }
        #expect(!fileText.contains("AMf-refresh"), "nothing saved: \(fileText)")
        let none = SecretKeepingStore(file: FileSessionStore(directory: directory), keeper: nil, choice: .keyring)
        #expect(failure { try none.checkWritable() } == "keychainError: this system has no OS keyring to keep secrets in")
    }

    /// A place chosen automatically gives way when the keyring has gone (an SSH session without
    /// D-Bus), and says so each time, rather than lose a sign-in.
    @Test func aRememberedKeyringThatIsGoneKeepsTheNewTokenInTheFileAndSaysSo() throws {
        try store().update { $0.save(session("ada", refreshToken: "AMf-ada"), in: project, makeCurrent: true) }
        keyring.fail(with: .store("no keyring: no D-Bus session: DBUS_SESSION_BUS_ADDRESS is not set"))
        try store().update { $0.save(session("bob", refreshToken: "AMf-bob"), in: project, makeCurrent: true) }
        #expect(fileText.contains("AMf-bob"))
        #expect(notices.lines.last == "no D-Bus session: DBUS_SESSION_BUS_ADDRESS is not set; the refresh token of bob@example.com is kept in \(directory)/sessions.json (0600) this time")
        let ada = try #require(try store().load().project(project)?.sessions.first)
        #expect(failure { _ = try store().refreshToken(of: ada, in: project) }
                == "keychainError: no keyring: no D-Bus session: DBUS_SESSION_BUS_ADDRESS is not set; the refresh token of ada@example.com is kept there")
    }

    @Test func aSessionThatIsGoneTakesItsItemsWithIt() throws {
        try store().update {
            $0.save(session("ada", secret: "x-secret"), in: project, makeCurrent: true)
            $0.save(session("bob"), in: project, makeCurrent: false)
        }
        #expect(keyring.itemCount == 3 && !fileText.contains("x-secret"))
        let ada = try #require(try store().load().currentSession(of: project))
        #expect(try store().revealingCredentials(of: ada, in: project).providerCredentials.first?.secret == "x-secret")
        try store().update { $0.modifyProject(project) { $0.sessions.removeAll { $0.uid == "ada" } } }
        #expect(keyring.secrets == ["AMf-refresh"], "only bob's token is left")
        try store().update { $0.projects = [:] }
        #expect(keyring.itemCount == 0)
    }

    /// The provider credential an "account exists" sign-in leaves: its tokens in one item.
    @Test func aPendingCredentialKeepsItsTokensInTheKeyring() throws {
        try store().update { $0.save(session("ada"), in: project, makeCurrent: true) }
        let pending = PendingCredential(providerId: "twitter.com", pendingToken: nil, accessToken: "x-access-token", idToken: nil,
                                        secret: "x-token-secret", email: "ada@example.com", savedAt: Date(timeIntervalSince1970: 1_900_000_000))
        try store().update { $0.modifyProject(project) { $0.pendingCredential = pending } }
        #expect(!fileText.contains("x-access-token") && !fileText.contains("x-token-secret") && keyring.itemCount == 2, "\(fileText)")
        let saved = try #require(try store().load().project(project)?.pendingCredential)
        #expect(saved.isInKeyring && saved.accessToken == nil)
        #expect(try store().revealing(saved, in: project) == pending)
        try store().update { $0.modifyProject(project) { $0.pendingCredential = nil } }
        #expect(keyring.itemCount == 1, "linked or dropped: its item goes")
    }

    /// The Apple access token, kept to revoke it when the account is deleted, is a secret too.
    @Test func anAppleAccessTokenIsKeptInTheKeyring() throws {
        var ada = session("ada")
        ada.remember(ProviderCredential(providerId: "apple.com", accessToken: "apple-access-token", idToken: "eyJapple", obtainedAt: Date()))
        ada.remember(ProviderCredential(providerId: "yahoo.com", accessToken: "yahoo-access-token", obtainedAt: Date()))
        try store().update { $0.save(ada, in: project, makeCurrent: true) }
        #expect(!fileText.contains("apple-access-token") && fileText.contains("yahoo-access-token") && keyring.itemCount == 2, "\(fileText)")
        let saved = try #require(try store().load().currentSession(of: project))
        #expect(try store().revealingCredentials(of: saved, in: project).providerCredentials.map(\.accessToken) == ["apple-access-token", "yahoo-access-token"])
        var relinked = saved
        relinked.providerCredentials.removeAll { $0.providerId == "apple.com" }
        try store().update { $0.save(relinked, in: project, makeCurrent: true) }
        #expect(keyring.itemCount == 1, "unlinked: its item goes")
    }

    @Test func tokensTheServerRefusedLeaveTheKeyringToo() throws {
        try store().update { $0.save(session("ada"), in: project, makeCurrent: true) }
        try store().update { contents in
            var ada = contents.project(project)!.sessions[0]
            ada.forgetTokens()
            contents.save(ada, in: project, makeCurrent: true)
        }
        #expect(keyring.itemCount == 0)
        #expect(try store().load().currentSession(of: project)?.refreshTokenStorage == nil)
    }

    /// Today's sessions.json keeps working, and moves into the keyring session by session as
    /// sessions change (a refresh), or all at once; and back.
    @Test func anOldStoreMovesInWhenASessionChangesOrAllAtOnce() throws {
        let file = FileSessionStore(directory: directory)
        try file.update {
            $0.save(session("ada", refreshToken: "AMf-ada"), in: project, makeCurrent: true)
            $0.save(session("bob", refreshToken: "AMf-bob"), in: project, makeCurrent: false)
            $0.secretStorage = .keyring
        }
        let ada = try #require(try store().load().currentSession(of: project))
        #expect(try store().refreshToken(of: ada, in: project) == "AMf-ada", "an old session still refreshes")
        try store().update { contents in
            var ada = contents.project(project)!.sessions[0]
            ada.idToken = "id-refreshed"
            contents.save(ada, in: project, makeCurrent: true)
        }
        #expect(keyring.secrets == ["AMf-ada"] && !fileText.contains("AMf-ada") && fileText.contains("AMf-bob"), "bob waits for his refresh")
        #expect(try store().moveSecrets(to: .keyring) == SecretMove(moved: 1, alreadyThere: 1, missing: []))
        #expect(!fileText.contains("AMf-ada") && !fileText.contains("AMf-bob") && keyring.itemCount == 2)
        keyring.remove(kind: "refresh-token")
        try store().update { $0.save(session("cy", refreshToken: "AMf-cy"), in: project, makeCurrent: false) }
        #expect(try store().moveSecrets(to: .file) == SecretMove(moved: 1, missing: ["ada@example.com", "bob@example.com"]))
        #expect(fileText.contains("AMf-cy") && fileText.contains("\"secretStore\" : \"file\"") && keyring.itemCount == 0)
    }

    @Test func theAuditFindsMissingAndOrphanedItems() throws {
        try store().update {
            $0.save(session("ada"), in: project, makeCurrent: true)
            $0.save(session("bob"), in: project, makeCurrent: false)
        }
        let bob = try #require(try store().load().project(project)?.sessions.last)
        try keyring.delete(KeyringItem(.refreshToken, of: bob, in: project.storageKey, projectId: nil))
        let orphan = ["service": "fbauth", "username": "gone", "project": project.storageKey, "kind": "refresh-token"]
        keyring.plant(orphan, "AMf-gone")
        // The keyring restarted: every item carries its `xdg:schema` now, ada's too; she is
        // neither missing nor orphaned, and the orphan is named by fbauth's attributes alone.
        keyring.restart()
        let audit = try store().audit()
        #expect(audit.missing.map { $0["username"] } == ["bob"] && audit.orphaned == [orphan] && audit.leftover.isEmpty, "\(audit)")
        let ada = try #require(try store().load().project(project)?.sessions.first)
        #expect(try store().refreshToken(of: ada, in: project) == "AMf-refresh")
        #expect(failure { _ = try store().refreshToken(of: bob, in: project) }
                == "\(FBAuthError.signInAgain("").code): the refresh token of bob@example.com is no longer in the keyring (its item was deleted); sign in again")
    }

    /// Through the library: a refresh reads the token from the keyring and puts the new one
    /// there; a fresh token is read from the file without asking the keyring.
    @Test func aRefreshReadsTheTokenFromTheKeyring() async throws {
        let standIn = try StandIn()
        standIn.start()
        defer { standIn.stop() }
        var host = AuthHost(clock: SystemClock(), interrupts: NoInterrupts(), secrets: SystemSecretTokens(), environment: [:])
        host.keyring = keyring
        let auth = AuthService(settings: AuthServiceSettings(apiKey: "keyring-key", emulatorHost: standIn.hostAndPort, configDirectory: directory), host: host)
        let signedIn = try await auth.signInAnonymously()
        let token = try #require(signedIn.user.refreshToken)
        #expect(keyring.secrets == [token] && !fileText.contains(token))
        let user = try #require(auth.currentUser)
        #expect(user.refreshTokenStorage == .keyring)
        let kept = try #require(keyring.secrets.first)
        let calls = keyring.calls
        _ = try await user.idToken()
        #expect(keyring.calls == calls, "a fresh token needs no keyring")
        let refreshed = try await user.idToken(forcingRefresh: true)
        #expect(refreshed != signedIn.user.savedIDToken?.token && keyring.calls > calls)
        #expect(standIn.requests(to: "token").last?.body.contains(kept) == true, "the keyring's token was sent")
        #expect(keyring.secrets == [token] && !fileText.contains(token), "the answer's token is kept in the keyring")
        try auth.signOut()
        #expect(keyring.itemCount == 0)
    }

    /// The Keychain (macOS) names an item by its account: the attributes come back from it.
    @Test func aKeychainAccountNamesTheAttributes() {
        let item = KeyringItem(kind: .refreshToken, uid: "u1", tenantId: "t-1", project: "AIzaKey@emulator:127.0.0.1:9099",
                               userLabel: "ada@example.com", projectLabel: "p")
        #expect(KeychainAccount.name(of: item) == "refresh-token u1 t-1 AIzaKey@emulator:127.0.0.1:9099")
        #expect(KeychainAccount.attributes(of: KeychainAccount.name(of: item)) == item.attributes)
        var plain = item
        plain.tenantId = nil
        #expect(KeychainAccount.attributes(of: KeychainAccount.name(of: plain)) == plain.attributes)
        #expect(KeychainAccount.attributes(of: "refresh-token u1") == nil && KeychainAccount.attributes(of: "a  b c") == nil)
    }
}
