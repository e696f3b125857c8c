@testable import FBAuth
import Foundation
import Testing

/// Google's Auth emulator's own answers, recorded (`Fixtures/GoogleAuthEmulator`), read by
/// fbauth's client: what it must take as Google's emulator sends it, on machines where the
/// emulator cannot be built (issue 38, item 8). Where it is built, `GoogleAuthEmulatorTests`
/// runs against the emulator itself.
@Suite struct GoogleAuthEmulatorRecordingsTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/GoogleAuthEmulator")

    /// The recorded answer as the transport hands it over.
    static func answer(_ name: String) throws -> Result<HTTPClientResponse, TransportError> {
        let data = try Data(contentsOf: directory.appendingPathComponent(name + ".json"))
        let recorded = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let status = try #require(recorded["status"] as? Int)
        let body = try JSONSerialization.data(withJSONObject: try #require(recorded["body"]))
        return .success(HTTPClientResponse(status: status, headers: ["Content-Type": "application/json"], body: body))
    }

    func client(_ answers: [String]) throws -> (FirebaseAuthClient, ScriptedTransport) {
        let transport = ScriptedTransport(try answers.map(Self.answer))
        return (FirebaseAuthClient(endpoints: .emulator("127.0.0.1:9099"), apiKey: "fake-key", transport: transport, sleeper: RecordingSleeper()), transport)
    }

    @Test func aSignUpItsRefreshAndItsLookUpAreRead() throws {
        let (client, transport) = try client(["signUp", "refresh", "lookup"])
        let signedUp = try client.signUp(email: "pat@example.com", password: "correct horse", tenantId: nil)
        let uid = "Mkz8eHRENd1HhgHY0EZ3c8AEslw4"
        #expect(signedUp.localId == uid && signedUp.expiresIn == 3600, "expiresIn comes as the string \"3600\"")
        let idToken = try #require(signedUp.idToken)
        #expect(idToken.hasPrefix("eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.") && idToken.hasSuffix("."), "an unsigned token (alg none)")
        #expect(IDTokenClaims.projectId(of: idToken) == "demo-fbauth", "its claims are read all the same")
        // A refresh token of the emulator's own making: base64 JSON with = padding.
        let refreshToken = try #require(signedUp.refreshToken)
        #expect(refreshToken.hasSuffix("=="))
        let refreshed = try client.refresh(refreshToken: refreshToken)
        #expect(refreshed.userId == uid && refreshed.expiresIn == 3600 && refreshed.refreshToken == refreshToken && refreshed.idToken?.hasSuffix(".") == true)
        let account = try client.lookup(idToken: idToken)
        #expect(account.localId == uid && account.email == "pat@example.com" && account.providerUserInfo.map(\.providerId) == ["password"])
        #expect(account.createdAt == "1795697413776", "milliseconds, as a string")
        #expect(transport.count == 3)
    }

    @Test(arguments: [("wrongPassword", "the password is wrong [INVALID_PASSWORD]"), ("unknownEmail", "there is no user with this email address [EMAIL_NOT_FOUND]")])
    func passwordRefusalsAreWorded(recording: String, words: String) throws {
        let (client, _) = try client([recording])
        do {
            _ = try client.signInWithPassword(email: "pat@example.com", password: "wrong", tenantId: nil)
            Issue.record("refused")
        } catch {
            #expect(error.message.hasSuffix(words), "\(error.message)")
        }
    }

    @Test func aRefreshTokenItDoesNotKnowEndsTheSession() throws {
        let (client, _) = try client(["badRefresh"])
        do {
            _ = try client.refresh(refreshToken: "not-a-token")
            Issue.record("refused")
        } catch {
            #expect(error.rejectsSession, "\(error)")
        }
    }

    /// The emulator serves no identity-provider redirect: a 501 fbauth recognises (and then
    /// signs in with fake claims instead).
    @Test func createAuthUriIsNotImplemented() throws {
        let (client, _) = try client(["createAuthUri"])
        do {
            _ = try client.createAuthUri(CreateAuthUriRequest(providerId: "yahoo.com", continueUri: "http://localhost:8977/__/auth/handler"))
            Issue.record("refused")
        } catch {
            guard case .server(let refusal, _) = error else { Issue.record("\(error)"); return }
            #expect(refusal.httpStatus == 501 && refusal.message == "Sign-in with IDP is not yet supported.")
        }
    }
}
