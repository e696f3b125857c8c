import FBAuthStandIn
import FirebaseAdminAuth
import FirebaseAuth
import FirebaseCore
import Foundation
import TestSupport
import Testing

/// FirebaseAdminAuth as a Swift server uses it: the ID tokens an app's `FirebaseAuth` signs in
/// with, verified against the same emulator (the stand-in), as firebase-admin verifies them.
@Suite(.serialized) struct AdminAuthTests {
    @Test func anAppsIDTokenIsVerifiedAndABadOneRefusedWithItsCause() async throws {
        // Signed as `fbauth emulator` signs (the in-process default is random bytes).
        var configuration = StandInConfiguration()
        configuration.signsIDTokens = true
        let standIn = try StandIn(configuration: configuration)
        standIn.start()
        defer { standIn.stop() }
        let directory = NSTemporaryDirectory() + "fbauth-admin-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let options = FirebaseOptions(googleAppID: "1:123456789:ios:0a1b2c3d", gcmSenderID: "123456789")
        options.apiKey = "test-api-key"
        options.projectID = "fbauth-stand-in"
        let name = "admin-" + UUID().uuidString
        FirebaseApp.configure(name: name, options: options)
        let app = try #require(FirebaseApp.app(name: name))
        let auth = linuxSeamsLock.withLock {
            LinuxSeams.sessionsDirectory = directory
            let auth = Auth.auth(app: app)
            auth.useEmulator(withHost: "127.0.0.1", port: Int(standIn.port))
            return auth
        }
        let user = try await auth.signInAnonymously().user
        let token = try await user.getIDToken()

        let log = CollectedLines()
        let admin = AdminAuth(projectID: "fbauth-stand-in", emulatorHost: standIn.hostAndPort, log: { log.add($0) })
        let decoded = try await admin.verifyIDToken(token)
        #expect(decoded.uid == user.uid && decoded.signInProvider == "anonymous")
        #expect(log.all.isEmpty, "a signed token is no unsigned one")

        // Another project's audience is the token's fault: 401, not 503.
        let other = AdminAuth(projectID: "another-project", emulatorHost: standIn.hostAndPort, log: { log.add($0) })
        await #expect { try await other.verifyIDToken(token) } throws: { error in
            (error as? AdminAuthError)?.cause == .invalidToken && (error as? AdminAuthError)?.code == "auth/argument-error"
        }
        // An emulator that cannot be reached: the token could not be checked now.
        let gone = AdminAuth(projectID: "fbauth-stand-in", emulatorHost: "127.0.0.1:9", log: { log.add($0) })
        await #expect { try await gone.verifyIDToken(token) } throws: { error in (error as? AdminAuthError)?.cause == .unavailable }
        // No project at all: the server's own setup.
        #expect(throws: AdminAuthError.self) { try AdminAuth(projectID: "", emulatorHost: standIn.hostAndPort).verifyIDToken(token) }
    }
}
