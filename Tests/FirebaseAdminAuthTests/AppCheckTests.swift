import FBAuthStandIn
import FirebaseAdminAuth
import Foundation
import TestSupport
import Testing

/// FirebaseAdminAuth's `AppCheck` as a Swift server uses it on the `X-Firebase-AppCheck`
/// header: the token the stand-in exchanged for an app's debug token, verified with its
/// published key set; refusals with firebase-admin's codes and causes; replay protection.
@Suite struct AppCheckTests {
    @Test func anAppsTokenIsVerifiedConsumedOnceAndABadOneRefused() async throws {
        var configuration = StandInConfiguration()
        configuration.appCheck = AppCheckEnforcement(debugTokens: ["debug-1"], enforced: false, anyProject: true)
        let standIn = try StandIn(configuration: configuration)
        standIn.start()
        defer { standIn.stop() }
        // The exchange a client SDK makes with its debug token.
        let exchange = try EmulatorHTTP.call("POST", standIn.hostAndPort,
                                             "/content-firebaseappcheck.googleapis.com/v1/projects/fbauth-stand-in/apps/1:42:web:cafe:exchangeDebugToken?key=k",
                                             ["debugToken": "debug-1"])
        let token = try #require(exchange["token"] as? String)

        let log = CollectedLines()
        let appCheck = AppCheck(projectID: "fbauth-stand-in", emulatorHost: standIn.hostAndPort, log: { log.add($0) })
        let verified = try await appCheck.verifyToken(token)
        #expect(verified.appID == "1:42:web:cafe" && verified.token.appID == "1:42:web:cafe" && verified.alreadyConsumed == nil)
        #expect(verified.token.audience == ["projects/123456789012", "projects/fbauth-stand-in"])
        #expect(verified.token.issuer == "https://firebaseappcheck.googleapis.com/123456789012")
        #expect(verified.token.expirationTime > Date() && verified.token.issuedAt <= Date())
        #expect(log.all.count == 1 && log.all[0].contains("keys of an emulator"), "said once: \(log.all)")

        #expect(try await appCheck.verifyToken(token, options: VerifyAppCheckTokenOptions(consume: true)).alreadyConsumed == false)
        #expect(try await appCheck.verifyToken(token, options: VerifyAppCheckTokenOptions(consume: true)).alreadyConsumed == true)
        #expect(log.all.count == 1)

        // Another project's token is the token's fault; an unreachable key set is no one's now.
        let other = AppCheck(projectID: "another-project", emulatorHost: standIn.hostAndPort, log: { _ in })
        await #expect { try await other.verifyToken(token) } throws: { error in
            let error = error as? AdminAuthError
            return error?.code == "app-check/invalid-argument" && error?.cause == .invalidToken && error?.message.contains("projects/another-project") == true
        }
        let expired = standIn.mintAppCheckToken(appID: "1:42:web:cafe", changes: ["exp": Int(Date().timeIntervalSince1970) - 5])
        await #expect { try await appCheck.verifyToken(expired) } throws: { error in
            (error as? AdminAuthError)?.code == "app-check/app-check-token-expired" && (error as? AdminAuthError)?.cause == .invalidToken
        }
        let gone = AppCheck(projectID: "fbauth-stand-in", emulatorHost: "127.0.0.1:9", log: { _ in })
        await #expect { try await gone.verifyToken(token) } throws: { error in (error as? AdminAuthError)?.cause == .unavailable }
        #expect(throws: AdminAuthError.self) { try AppCheck(projectID: "", emulatorHost: standIn.hostAndPort).verifyToken(token) }
    }
}
