import FBAuthStandIn
import FirebaseAuth
import FirebaseCore
import Foundation
import TestSupport
import Testing

/// Issue 48: `FirebaseConfiguration.shared.setLoggerLevel(.debug)` makes FirebaseAuth log each
/// exchange with Firebase (through `LinuxSeams.log`), with no secret in it; below, nothing.
@Suite(.serialized) struct LoggingTests {
    @Test func theDebugLevelLogsEachExchangeWithoutSecrets() async throws {
        let lines = CollectedLines()
        LinuxSeams.log = { lines.add($0) }
        defer { FirebaseConfiguration.shared.setLoggerLevel(.error) }
        let setup = try StandInApp()
        FirebaseConfiguration.shared.setLoggerLevel(.error)
        _ = try await setup.auth.signInAnonymously()
        #expect(lines.all.isEmpty, "\(lines.all)")
        FirebaseConfiguration.shared.setLoggerLevel(.debug)
        #expect(FirebaseConfiguration.shared.loggerLevel() == .debug)
        let user = try await setup.auth.createUser(withEmail: "pat@example.com", password: "correct horse battery").user
        let token = try await user.getIDToken()
        let signUp = try #require(lines.all.first { $0.contains("accounts:signUp") }, "\(lines.all)")
        #expect(signUp.hasPrefix("[FirebaseAuth] POST http://127.0.0.1:") && signUp.contains("→ HTTP 200"), "\(signUp)")
        #expect(!lines.all.contains { $0.contains("test-api-key") || $0.contains("correct horse") || $0.contains(token) }, "\(lines.all)")
    }
}
