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

        // Issue 58: an exchange for another project (an emulator serves any) is that project's token.
        let elsewhere = try EmulatorHTTP.call("POST", standIn.hostAndPort,
                                              "/content-firebaseappcheck.googleapis.com/v1/projects/another-project/apps/1:42:web:cafe:exchangeDebugToken?key=k",
                                              ["debugToken": "debug-1"])
        let theirs = try #require(elsewhere["token"] as? String)
        #expect(try await other.verifyToken(theirs).token.audience == ["projects/another-project"])
        await #expect { try await appCheck.verifyToken(theirs) } throws: { ($0 as? AdminAuthError)?.code == "app-check/invalid-argument" }
    }
}

/// Issue 57: `AppCheck.createToken`, as firebase-admin-node makes one: a custom token for the
/// App Check exchange (`app-check/token-generator.ts`), exchanged for the app's token, which
/// `verifyToken` then takes; bad options are refused before any request.
@Suite struct AppCheckCreateTokenTests {
    @Test func aTokenMadeForAnAppIsOneItsServerTakes() async throws {
        let standIn = try StandIn(configuration: StandInConfiguration())
        standIn.start()
        defer { standIn.stop() }
        let appCheck = AppCheck(projectID: "fbauth-stand-in", emulatorHost: standIn.hostAndPort, log: { _ in })
        let made = try await appCheck.createToken("1:42:web:cafe", options: AppCheckTokenOptions(ttlMillis: 1_800_001))
        #expect(made.ttlMillis == 1_800_000 && !made.token.isEmpty)
        let verified = try await appCheck.verifyToken(made.token)
        #expect(verified.appID == "1:42:web:cafe" && verified.token.claims["provider"] as? String == "custom")

        // The custom token is firebase-admin-node's: the exchange's audience, the app, five
        // minutes, its ttl in seconds and nanoseconds, signed (here unsigned) by its signer.
        let exchange = try #require(standIn.requests.last { $0.path.hasSuffix(":exchangeCustomToken") })
        #expect(exchange.path == "/firebaseappcheck.googleapis.com/v1/projects/fbauth-stand-in/apps/1:42:web:cafe:exchangeCustomToken", "\(exchange.path)")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(exchange.body.utf8)) as? [String: Any])
        let custom = try #require(body["customToken"] as? String).split(separator: ".", omittingEmptySubsequences: false)
        #expect(custom.count == 3 && custom[2].isEmpty)
        var payload = String(custom[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        let claims = try #require(try JSONSerialization.jsonObject(with: Data(base64Encoded: payload)!) as? [String: Any])
        #expect(claims["aud"] as? String == "https://firebaseappcheck.googleapis.com/google.firebase.appcheck.v1.TokenExchangeService")
        #expect(claims["app_id"] as? String == "1:42:web:cafe" && claims["ttl"] as? String == "1800.001000000s")
        #expect(claims["iss"] as? String == "firebase-auth-emulator@example.com" && claims["sub"] as? String == "firebase-auth-emulator@example.com")
        #expect((claims["exp"] as? Int).map { $0 - (claims["iat"] as? Int ?? 0) } == 300)

        // A limited-use token is consumed once.
        let once = try await appCheck.createToken("1:42:web:cafe", options: AppCheckTokenOptions(limitedUse: true))
        #expect(once.ttlMillis == 3_600_000)
        #expect(try await appCheck.verifyToken(once.token, options: VerifyAppCheckTokenOptions(consume: true)).alreadyConsumed == false)
        #expect(try await appCheck.verifyToken(once.token, options: VerifyAppCheckTokenOptions(consume: true)).alreadyConsumed == true)

        let before = standIn.requests.count
        for (appId, options, message) in [
            ("", AppCheckTokenOptions(), "`appId` must be a non-empty string."),
            ("1:42:web:cafe", AppCheckTokenOptions(ttlMillis: 1_799_999), "ttlMillis must be a duration in milliseconds between 30 minutes and 7 days (inclusive)."),
            ("1:42:web:cafe", AppCheckTokenOptions(ttlMillis: 604_800_001), "ttlMillis must be a duration in milliseconds between 30 minutes and 7 days (inclusive)."),
            ("1:42:web:cafe", AppCheckTokenOptions(jti: "j"), "`jti` cannot be specified without setting `limitedUse` to `true`."),
            ("../x", AppCheckTokenOptions(), "`appId` must be a Firebase app id (digits, letters, colons)."),
        ] {
            await #expect { _ = try await appCheck.createToken(appId, options: options) } throws: { error in
                (error as? AdminAuthError)?.code == "app-check/invalid-argument" && (error as? AdminAuthError)?.message == message
            }
        }
        #expect(standIn.requests.count == before)
    }
}
