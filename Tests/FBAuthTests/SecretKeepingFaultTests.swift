@testable import FBAuth
import Foundation
import Testing
@testable import FBAuthSupport

/// The steps of a change to the store (keyring writes and reads, the file's write, keyring
/// deletions), numbered as they happen; one of them fails, alone (`.error`: a locked keyring,
/// a full disk) or with every step after it (`.crash`: SIGKILL).
final class FaultPlan: @unchecked Sendable {
    enum Mode { case error, crash }
    private let lock = NSLock()
    private var failAt = Int.max
    private var mode = Mode.error
    private(set) var steps = 0
    private var crashed = false

    func arm(at step: Int, _ mode: Mode) { lock.withLock { (failAt, self.mode, steps, crashed) = (step, mode, 0, false) } }
    func disarm() { lock.withLock { (failAt, crashed) = (.max, false) } }
    var reachedFault: Bool { lock.withLock { steps >= failAt } }

    /// Counts a step; throws when it is the one that fails, or comes after a crash.
    func step(_ what: String) -> String? {
        lock.withLock {
            steps += 1
            if crashed { return "the process died before \(what)" }
            guard steps == failAt else { return nil }
            if mode == .crash { crashed = true }
            return "fault at step \(steps): \(what)"
        }
    }
}

/// The memory keyring, failing as the plan says.
final class FaultyKeyring: SecretKeeper, @unchecked Sendable {
    let inner = MemoryKeyring()
    let plan: FaultPlan
    init(plan: FaultPlan) { self.plan = plan }

    private func check(_ what: String) throws(FBAuthError) {
        if let fault = plan.step(what) { throw .store(fault) }
    }

    func probe() throws(FBAuthError) -> String { try inner.probe() }
    func store(_ secret: String, as item: KeyringItem) throws(FBAuthError) { try check("keyring store"); try inner.store(secret, as: item) }
    func secret(of item: KeyringItem) throws(FBAuthError) -> String? { try check("keyring read"); return try inner.secret(of: item) }
    func delete(_ item: KeyringItem) throws(FBAuthError) { try check("keyring delete"); try inner.delete(item) }
    func listed() throws(FBAuthError) -> [[String: String]] { try check("keyring list"); return try inner.listed() }
}

/// Issue 37, item 4: a fault at any step of a sign-in, refresh, migration or sign-out loses
/// nothing. After each, sessions.json parses, every session's secret is in the file or the
/// keyring (none in neither), each refreshes once the keyring is back, and the audit that
/// `status` prints names no session as missing its secret.
@Suite struct SecretKeepingFaultTests {
    let project = ProjectKey(apiKey: "AIzaKey123456", emulatorHost: nil)

    struct Operation: Sendable, CustomStringConvertible {
        let description: String
        /// Sessions kept in the keyring (else the file) before the operation.
        let setupInKeyring: Bool
        let run: @Sendable (SecretKeepingStore, ProjectKey) throws -> Void
    }

    static let operations: [Operation] = [
        Operation(description: "sign-in", setupInKeyring: true) { store, project in
            try store.update { $0.save(session("cy"), in: project, makeCurrent: true) }
        },
        Operation(description: "refresh", setupInKeyring: true) { store, project in
            try store.update { contents in
                var ada = contents.project(project)!.sessions.first { $0.uid == "ada" }!
                ada.idToken = "id-ada-refreshed"
                ada.refreshToken = "AMf-ada"  // the exchange answers with the refresh token
                contents.save(ada, in: project, makeCurrent: false)
            }
        },
        Operation(description: "migration to the file", setupInKeyring: true) { store, _ in _ = try store.moveSecrets(to: .file) },
        Operation(description: "migration to the keyring", setupInKeyring: false) { store, _ in _ = try store.moveSecrets(to: .keyring) },
        Operation(description: "sign-out", setupInKeyring: true) { store, project in
            try store.update { $0.modifyProject(project) { $0.sessions.removeAll { $0.uid == "bob" } } }
        },
    ]

    static func session(_ uid: String) -> Session {
        var session = Session(uid: uid, email: "\(uid)@example.com", idToken: "id-\(uid)", refreshToken: "AMf-\(uid)",
                              expirationTime: Date(timeIntervalSince1970: 2_000_000_000), lastSignInTime: Date(timeIntervalSince1970: 1_900_000_000))
        if uid == "bob" { session.remember(ProviderCredential(providerId: "twitter.com", accessToken: "x-access", secret: "x-secret-bob", obtainedAt: Date())) }
        return session
    }

    @Test(arguments: operations, [FaultPlan.Mode.error, .crash])
    func aFaultAtAnyStepLosesNothing(operation: Operation, mode: FaultPlan.Mode) throws {
        var step = 1
        while true {
            let directory = NSTemporaryDirectory() + "fbauth-faults-" + UUID().uuidString
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let plan = FaultPlan()
            let keyring = FaultyKeyring(plan: plan)
            var file = FileSessionStore(directory: directory)
            file.writeFile = { data, directory, name throws(Platform.FileProblem) in
                if plan.step("the file's write") != nil { throw .failed(operation: "cannot write", path: directory.path + "/" + name, code: ENOSPC) }
                try directory.writeAtomically(data, to: name)
            }
            let store = SecretKeepingStore(file: file, keeper: keyring, choice: nil)
            try store.update {
                $0.secretStorage = operation.setupInKeyring ? .keyring : .file
                $0.save(Self.session("ada"), in: project, makeCurrent: true)
                $0.save(Self.session("bob"), in: project, makeCurrent: false)
            }
            plan.arm(at: step, mode)
            try? operation.run(store, project)
            let faulted = plan.reachedFault
            plan.disarm()

            let where_ = "\(operation), \(mode) at step \(step)"
            let contents = try #require(try? store.load(), "sessions.json parses: \(where_)")
            for session in contents.project(project)?.sessions ?? [] {
                #expect(try store.refreshToken(of: session, in: project) == "AMf-\(session.uid)", "\(session.uid)'s token: \(where_)")
                if session.uid == "bob" {
                    let revealed = try store.revealingCredentials(of: session, in: project)
                    #expect(revealed.providerCredentials.first?.secret == "x-secret-bob", "bob's X secret: \(where_)")
                }
            }
            let uids = Set(contents.project(project)?.sessions.map(\.uid) ?? [])
            #expect(uids.isSuperset(of: ["ada"]) && (operation.description == "sign-out" || uids.contains("bob")), "\(uids): \(where_)")
            #expect(try store.audit().missing.isEmpty, "status names no secret as missing: \(where_)")
            guard faulted else { break }
            step += 1
        }
        #expect(step > 1, "\(operation) took at least one step")
    }
}
