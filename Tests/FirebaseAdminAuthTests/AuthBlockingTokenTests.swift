import FBAuthStandIn
import FirebaseAdminAuth
import Foundation
import Testing

/// Issue 57: `_verifyAuthBlockingToken`, as firebase-admin-node verifies the token Identity
/// Platform sends a blocking function (`token-verifier.ts`, `AUTH_BLOCKING_TOKEN_INFO`), on the
/// token firebase-tools' Auth emulator builds (`operations.ts`, `generateBlockingFunctionJwt`).
@Suite struct AuthBlockingTokenTests {
    static let function = "http://127.0.0.1:5001/demo-fbauth/us-central1/beforecreated"

    /// The payload firebase-tools' emulator posts to a `beforeCreate` function.
    static func payload(now: Date = Date(), changes: [String: (any Sendable)?] = [:]) -> [String: any Sendable] {
        let issued = Int(now.timeIntervalSince1970)
        var claims: [String: any Sendable] = [
            "iss": "https://securetoken.google.com/demo-fbauth", "aud": function, "iat": issued, "exp": issued + 60,
            "event_id": "ZXZlbnQtaWQ", "event_type": "beforeCreate", "user_agent": "NotYetSupportedInFirebaseAuthEmulator",
            "ip_address": "127.0.0.1", "locale": "en", "sub": "new-user", "sign_in_method": "password",
            "user_record": ["uid": "new-user", "email": "ada@example.com", "email_verified": false, "provider_data": [[String: String]]()] as [String: any Sendable],
        ]
        for (name, value) in changes { claims[name] = value }
        return claims
    }

    @Test func theTokenOfABlockingFunctionIsVerifiedAsFirebaseAdminVerifiesIt() async throws {
        let standIn = try StandIn(configuration: .googleEmulator(projectId: "demo-fbauth", signsTokens: true))
        standIn.start()
        defer { standIn.stop() }
        let auth = AdminAuth(projectID: "demo-fbauth", emulatorHost: standIn.hostAndPort, log: { _ in })
        for signed in [false, true] {
            let token = standIn.mintSecuretokenJWT(Self.payload(), signed: signed)
            let decoded = try await auth.verifyAuthBlockingToken(token, audience: Self.function)
            #expect(decoded.uid == "new-user" && decoded.eventType == "beforeCreate" && decoded.signInMethod == "password" && decoded.ipAddress == "127.0.0.1"
                        && decoded.locale == "en" && decoded.audience == Self.function && decoded.userRecord?["email"] as? String == "ada@example.com", "\(decoded.claims)")
        }
        // A mail's or an SMS's token has no user; any other must name one.
        let mail = standIn.mintSecuretokenJWT(Self.payload(changes: ["event_type": "beforeSendEmail", "sub": nil, "user_record": nil]), signed: true)
        #expect(try await auth.verifyAuthBlockingToken(mail, audience: Self.function).uid == "")

        let docs = " See https://cloud.google.com/identity-platform/docs/blocking-functions for details on how to retrieve an Auth Blocking token."
        let refused: [(String, String?, String, String)] = [
            (standIn.mintSecuretokenJWT(Self.payload(), signed: true), "https://example.com/other", "auth/argument-error",
             "Firebase Auth Blocking token has incorrect \"aud\" (audience) claim. Expected \"https://example.com/other\" but got \"\(Self.function)\"." + docs),
            // Without an audience, the project's functions' domain is expected.
            (standIn.mintSecuretokenJWT(Self.payload(), signed: true), nil, "auth/argument-error",
             "Firebase Auth Blocking token has incorrect \"aud\" (audience) claim. Expected \"demo-fbauth.cloudfunctions.net/\" but got \"\(Self.function)\"." + docs),
            (standIn.mintSecuretokenJWT(Self.payload(changes: ["iss": "https://session.firebase.google.com/demo-fbauth"]), signed: true), Self.function, "auth/argument-error",
             "Firebase Auth Blocking token has incorrect \"iss\" (issuer) claim. Expected \"https://securetoken.google.com/demo-fbauth\" but got \"https://session.firebase.google.com/demo-fbauth\". Make sure the Auth Blocking token comes from the same Firebase project as the service account used to authenticate this SDK." + docs),
            (standIn.mintSecuretokenJWT(Self.payload(changes: ["sub": nil]), signed: true), Self.function, "auth/argument-error",
             "Firebase Auth Blocking token has no \"sub\" (subject) claim." + docs),
            (standIn.mintSecuretokenJWT(Self.payload(now: Date().addingTimeInterval(-3600)), signed: true), Self.function, "auth/auth-blocking-token-expired",
             "Firebase Auth Blocking token has expired. Get a fresh Auth Blocking token from your client app and try again (auth/auth-blocking-token-expired)." + docs),
        ]
        for (token, audience, code, message) in refused {
            await #expect { _ = try await auth.verifyAuthBlockingToken(token, audience: audience) } throws: { error in
                (error as? AdminAuthError)?.code == code && (error as? AdminAuthError)?.message == message
            }
        }
        // A tampered signed token is refused for its signature.
        let good = standIn.mintSecuretokenJWT(Self.payload(), signed: true)
        let parts = good.split(separator: ".").map(String.init)
        let tampered = parts[0] + "." + standIn.mintSecuretokenJWT(Self.payload(changes: ["sub": "someone-else"]), signed: true).split(separator: ".")[1] + "." + parts[2]
        await #expect { _ = try await auth.verifyAuthBlockingToken(tampered, audience: Self.function) } throws: { error in
            (error as? AdminAuthError)?.message.contains("invalid signature") == true
        }
    }
}
