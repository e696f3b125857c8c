@testable import FBAuth
import Foundation
import Testing

/// Issue 31: the values App Check's pieces accept, and the exchange's address.
@Suite struct AppCheckPiecesTests {
    @Test(arguments: [
        ("1:123456789012:web:0a1b2c3d4e5f", true), ("1:1:ios:ff", true), ("1:123:android:ABCdef09", true),
        ("2:123:web:0a1b", false), ("1:12a:web:0a1b", false), ("1:123:desktop:0a1b", false), ("1:123:web:xyz", false),
        ("1:123:web", false), ("1:123:web:0a1b:extra", false), ("", false), ("com.example.app", false),
    ])
    func appIDs(_ text: String, _ valid: Bool) {
        #expect(AppCheckDebugSettings.isAppID(text) == valid, "\(text)")
    }

    @Test func debugTokens() {
        #expect(AppCheckDebugSettings.isDebugToken("5b1a6e3c-8f0d-4c2e-9a7b-2d4f6e8a0c1e"))
        for bad in ["", "a b", "token\n", String(repeating: "a", count: 201), "tök"] { #expect(!AppCheckDebugSettings.isDebugToken(bad), "\(bad)") }
    }

    @Test(arguments: [("3600s", 3600.0), ("1.5s", 1.5), ("86400s", 86400.0)] as [(String, Double)])
    func ttlsAreProtobufDurations(_ ttl: String, _ seconds: Double) {
        #expect(AppCheckExchangeResponse(token: "t", ttl: ttl).seconds == seconds)
    }

    @Test func otherTtlsAreRefused() {
        for ttl in ["3600", "s", "-5s", "1e3s", "86401s", "0s", "12 s"] { #expect(AppCheckExchangeResponse(token: "t", ttl: ttl).seconds == nil, "\(ttl)") }
    }

    @Test func theExchangeGoesWhereTheOtherCallsGo() {
        let production = FirebaseEndpoints.production.appCheckExchange(project: "my-project", appID: "1:1:web:ab", apiKey: "KEY", overrideHost: nil)
        #expect(production.absoluteString == "https://content-firebaseappcheck.googleapis.com/v1/projects/my-project/apps/1:1:web:ab:exchangeDebugToken?key=KEY")
        let emulator = FirebaseEndpoints.emulator("127.0.0.1:9099").appCheckExchange(project: "p", appID: "1:1:web:ab", apiKey: "K", overrideHost: nil)
        #expect(emulator.absoluteString == "http://127.0.0.1:9099/content-firebaseappcheck.googleapis.com/v1/projects/p/apps/1:1:web:ab:exchangeDebugToken?key=K")
        let elsewhere = FirebaseEndpoints.production.appCheckExchange(project: "p", appID: "1:1:web:ab", apiKey: "K", overrideHost: "localhost:7000")
        #expect(elsewhere.absoluteString.hasPrefix("http://localhost:7000/content-firebaseappcheck.googleapis.com/v1/"))
    }

    /// Production refusals send the user to the Firebase console; an emulator's to the
    /// emulator, which has none (issue 41, item 3).
    @Test(arguments: [("identitytoolkit.googleapis.com", true), ("127.0.0.1:9099", false)])
    func aRefusedRequestNamesWhereTokensAreRegistered(host: String, production: Bool) {
        let refusal = FBAuthError.server(ServerError(httpStatus: 401, message: "Firebase App Check token is invalid.", host: host), action: "sign-in")
        #expect(refusal.code == .appCheckTokenInvalid)
        #expect(refusal.message == (production
            ? "sign-in failed: the project enforces Firebase App Check and refused this request's App Check token (Firebase App Check token is invalid.): register a debug token for the app in the Firebase console (App Check → Apps → the app's menu → Manage debug tokens) and configure App Check with it"
            : "sign-in failed: the Auth emulator at 127.0.0.1:9099 enforces App Check and refused this request's App Check token (Firebase App Check token is invalid.): configure App Check with a debug token the emulator registered"))
    }

    @Test(arguments: [true, false])
    func aRefusedDebugTokenNamesWhereToRegisterIt(production: Bool) {
        let transport = ScriptedTransport([ScriptedTransport.json(403, #"{"error":{"code":403,"message":"App attestation failed.","status":"PERMISSION_DENIED"}}"#)])
        let client = FirebaseAuthClient(endpoints: production ? .production : .emulator("127.0.0.1:9099"), apiKey: "k", transport: transport, sleeper: RecordingSleeper())
        let settings = AppCheckDebugSettings(debugToken: "not-registered", appID: "1:123456789012:web:0a1b2c3d4e5f")
        #expect {
            _ = try client.exchangeDebugToken(settings, project: "p", now: Date(timeIntervalSince1970: 0))
        } throws: { error in
            guard let error = error as? FBAuthError else { return false }
            return production
                ? error.message == "App Check refused the debug token for app 1:123456789012:web:0a1b2c3d4e5f (HTTP 403: App attestation failed.): register it in the Firebase console (App Check → Apps → the app's menu → Manage debug tokens)" && error.remedy == nil
                : error.message == "the Auth emulator at 127.0.0.1:9099 does not know the App Check debug token for app 1:123456789012:web:0a1b2c3d4e5f (HTTP 403: App attestation failed.): register it when the emulator starts" && error.remedy == .registerDebugTokenWithEmulator
        }
    }
}
