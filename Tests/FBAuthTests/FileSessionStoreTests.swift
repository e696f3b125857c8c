@testable import FBAuth
@testable import FBAuthCLI
import Foundation
import TestSupport
import Testing
@testable import FBAuthSupport

@Suite struct FileSessionStoreTests {
    let directory = NSTemporaryDirectory() + "fbauth-store-" + UUID().uuidString + "/nested/fbauth"
    var store: FileSessionStore { FileSessionStore(directory: directory) }
    let project = ProjectKey(apiKey: "key", emulatorHost: nil)

    func session(_ uid: String, email: String? = nil) -> Session {
        Session(uid: uid, email: email, idToken: "id-\(uid)", refreshToken: "refresh-\(uid)",
                expirationTime: Date(timeIntervalSince1970: 2_000_000_000), lastSignInTime: Date(timeIntervalSince1970: 1_900_000_000))
    }

    @Test func anEmptyStoreLoadsEmptyAndWritesNothing() throws {
        #expect(try store.load() == StoreContents())
        #expect(!FileManager.default.fileExists(atPath: store.filePath))
    }

    @Test func savesRoundTripAndKeepOtherSessions() throws {
        try store.update { $0.save(session("a", email: "a@x"), in: project, makeCurrent: true) }
        try store.update { $0.save(session("b"), in: project, makeCurrent: true) }
        var replaced = session("a", email: "a@x")
        replaced.idToken = "new"
        try store.update { $0.save(replaced, in: project, makeCurrent: false) }

        let contents = try store.load()
        #expect(contents.project(project)?.sessions.map(\.uid) == ["a", "b"])
        #expect(contents.currentSession(of: project)?.uid == "b")
        #expect(contents.project(project)?.sessions.first?.idToken == "new")
        #expect(contents.project(ProjectKey(apiKey: "key", emulatorHost: "127.0.0.1:9099")) == nil, "emulator sessions are kept apart")
    }

    @Test func writesArePrivateAndAtomic() throws {
        try store.update { $0.save(session("a"), in: project, makeCurrent: true) }
        let attributes = try FileManager.default.attributesOfItem(atPath: store.filePath)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let directoryAttributes = try FileManager.default.attributesOfItem(atPath: directory)
        #expect((directoryAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["sessions.json", "sessions.lock"])
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: store.filePath))) as? [String: Any]
        #expect(json?["version"] as? Int == 1)
    }

    @Test func anUnchangedUpdateDoesNotRewrite() throws {
        try store.update { $0.save(session("a"), in: project, makeCurrent: true) }
        // A write replaces the file (a new inode); no write keeps it.
        let before = try FileManager.default.attributesOfItem(atPath: store.filePath)[.systemFileNumber] as? NSNumber
        try store.update { _ in }
        #expect(try FileManager.default.attributesOfItem(atPath: store.filePath)[.systemFileNumber] as? NSNumber == before)
        try store.update { $0.save(session("b"), in: project, makeCurrent: true) }
        #expect(try FileManager.default.attributesOfItem(atPath: store.filePath)[.systemFileNumber] as? NSNumber != before, "the check can fail")
    }

    @Test(arguments: [
        ("not json at all", "not valid JSON"),
        (#"{"projects": {}}"#, "no \"version\""),
        (#"{"version": 99, "projects": {}}"#, "a newer version wrote it (store format 99; this version reads format 1). Either upgrade to use it, or move it aside"),
        (#"{"version": 1, "projects": {"k": {"apiKey": "a", "sessions": 3}}}"#, "the value at projects.k.sessions should be a list. Either correct that value, or move the file aside"),
        (#"{"version": 1, "projects": {"k": {"apiKey": "a", "sessions": [{"uid": 5}]}}}"#, "the value at projects.k.sessions[0].uid should be text"),
        (#"{"version": 1, "projects": {"k": {"sessions": []}}}"#, "the field projects.k.apiKey is missing"),
    ])
    func unusableFilesAreErrorsAndStayAsTheyWere(text: String, message: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: store.filePath, contents: Data(text.utf8))
        #expect {
            try store.update { $0.save(session("a"), in: project, makeCurrent: true) }
        } throws: { error in
            guard let error = error as? FBAuthError, case .store(let text, _) = error else { return false }
            return text.contains(message) && error.exitCode == .store
        }
        #expect(FileManager.default.contents(atPath: store.filePath) == Data(text.utf8))
    }

    @Test func aFailedChangeWritesNothing() throws {
        try store.update { $0.save(session("a"), in: project, makeCurrent: true) }
        let before = FileManager.default.contents(atPath: store.filePath)
        #expect(throws: FBAuthError.self) {
            try store.update { (contents: inout StoreContents) throws(FBAuthError) in
                contents.save(session("b"), in: project, makeCurrent: true)
                throw .failed(.internalError, "midway")
            }
        }
        #expect(FileManager.default.contents(atPath: store.filePath) == before)
    }

    @Test func directoryFollowsTheDocumentedOrder() {
        #expect(FileSessionStore.directory(option: "/opt", environment: ["FBAUTH_CONFIG_DIR": "/e"]) == "/opt")
        #expect(FileSessionStore.directory(option: nil, environment: ["FBAUTH_CONFIG_DIR": "/e", "XDG_CONFIG_HOME": "/x"]) == "/e")
        #expect(FileSessionStore.directory(option: nil, environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]) == "/x/fbauth")
        #expect(FileSessionStore.directory(option: nil, environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]) == "/h/.config/fbauth")
        #expect(FileSessionStore.directory(option: nil, environment: ["HOME": "/h"]) == "/h/.config/fbauth")
    }
    /// Another process holding the lock forever cannot hang fbauth: it waits, says so once, and
    /// gives up with exit 7.
    @Test func aLockHeldTooLongIsAnErrorAfterABoundedWait() throws {
        try store.update { $0.save(session("a"), in: project, makeCurrent: true) }
        let holder = try #require(try TrustedDirectory.open(directory)).lock("sessions.lock")
        defer { holder.unlock() }
        let told = Told()
        let impatient = FileSessionStore(directory: directory, lockTimeout: .milliseconds(200), waiting: { told.add($0) })
        #expect {
            try impatient.update { $0.save(session("b"), in: project, makeCurrent: true) }
        } throws: { error in
            (error as? FBAuthError)?.exitCode == .store && (error as? FBAuthError)?.message.contains("stayed locked by another process") == true
        }
        #expect(told.lines == ["another process is using the sessions in \(directory); waiting"])
        #expect(try store.load().project(project)?.sessions.map(\.uid) == ["a"])
    }
}

@Suite struct EndpointTests {
    @Test func productionAndEmulatorLayouts() throws {
        #expect(FirebaseEndpoints.production.accounts("signInWithIdp", apiKey: "k+/").absoluteString
            == "https://identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=k%2B%2F")
        #expect(FirebaseEndpoints.production.token(apiKey: "k").absoluteString == "https://securetoken.googleapis.com/v1/token?key=k")
        let emulator = try FirebaseEndpoints.from(environment: ["FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:9099"])
        #expect(emulator.accounts("lookup", apiKey: "k").absoluteString == "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts:lookup?key=k")
        #expect(emulator.token(apiKey: "k").absoluteString == "http://127.0.0.1:9099/securetoken.googleapis.com/v1/token?key=k")
        let ipv6 = try FirebaseEndpoints.from(environment: ["FIREBASE_AUTH_EMULATOR_HOST": "[::1]:9099"])
        #expect(ipv6.token(apiKey: "k").absoluteString == "http://[::1]:9099/securetoken.googleapis.com/v1/token?key=k")
        #expect(try FirebaseEndpoints.from(environment: ["FIREBASE_AUTH_EMULATOR_HOST": ""]) == .production)
        for bad in ["http://localhost:9099", "localhost", "localhost:9099/x"] {
            #expect(throws: FBAuthError.self) { try FirebaseEndpoints.from(environment: ["FIREBASE_AUTH_EMULATOR_HOST": bad]) }
        }
    }

    @Test func fakeEmulatorClaimsAreStable() {
        let one = EmulatorClaimsSignIn.postBody(providerId: "yahoo.com", email: "a@x.com")
        #expect(one == EmulatorClaimsSignIn.postBody(providerId: "yahoo.com", email: "a@x.com"))
        #expect(EmulatorClaimsSignIn.stableSubject(providerId: "yahoo.com", email: "A@X.com") == EmulatorClaimsSignIn.stableSubject(providerId: "yahoo.com", email: "a@x.com"))
        #expect(one != EmulatorClaimsSignIn.postBody(providerId: "github.com", email: "a@x.com"))
        #expect(one.hasPrefix("providerId=yahoo.com&id_token=%7B"))
        #expect(EmulatorClaimsSignIn.stableSubject(providerId: "p", email: "e").count == 20)
    }

    @Test func resultPagesEscapeEverything() {
        let page = String(decoding: ResultPage.success(signedInAs: "<script>alert('x')</script>&\"").body, as: UTF8.self)
        #expect(page.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&quot;"))
        #expect(!page.contains("<script>"))
    }

}

private final class Told: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String] = []
    func add(_ line: String) { lock.withLock { values.append(line) } }
    var lines: [String] { lock.withLock { values } }
}

/// Issue 37, item 6: a FIFO given as an input is read once a program writes to it and closes
/// it, and given up when none does, within the wait.
@Suite struct FIFOInputTests {
    func fifo() -> String {
        let path = NSTemporaryDirectory() + "fbauth-fifo-" + UUID().uuidString
        mkfifo(path, 0o600)
        return path
    }

    @Test func aFIFOWithoutAWriterIsGivenUp() {
        let path = fifo()
        defer { unlink(path) }
        let started = ContinuousClock.now
        #expect(throws: Platform.FileProblem.self) { try Platform.readInput(path, fifoWait: .milliseconds(300)) }
        let took = ContinuousClock.now - started
        #expect(took >= .milliseconds(300) && took < .seconds(20), "\(took)")
        do {
            _ = try Platform.readInput(path, fifoWait: .milliseconds(50))
        } catch {
            #expect(error.description == "\(path) is a FIFO that no program wrote to and closed within 0 s")
        }
    }

    @Test func aFIFOThatIsWrittenIsRead() throws {
        let path = fifo()
        defer { unlink(path) }
        Thread.detachNewThread {
            // The writer comes once the reader has opened it: until then a writer that will
            // not wait is refused (ENXIO).
            var fd: Int32 = -1
            _ = eventually(within: 20) {
                fd = open(path, O_WRONLY | O_NONBLOCK)
                return fd >= 0
            }
            _ = Array("a-token\n".utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        #expect(try Platform.readInput(path, fifoWait: .seconds(20)) == Data("a-token\n".utf8))
    }
}
