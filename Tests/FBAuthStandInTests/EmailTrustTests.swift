import FBAuthStandIn
import Foundation
import Testing

/// Issue 49, item 5: each fake provider vouches for an address as the real one does (Firebase's
/// "Verified email addresses"), which decides what a sign-in with the address of an account
/// that has a password does: take the account over (its unverified password dropped), or
/// answer `needConfirmation`, the guides' "account exists with different credential".
@Suite struct EmailTrustTests {
    static let cases: [(provider: String, email: String, vouches: Bool)] = [
        ("yahoo.com", "pat@yahoo.com", true), ("yahoo.com", "pat@example.com", false),
        ("google.com", "pat@gmail.com", true), ("google.com", "pat@example.com", false),
        ("microsoft.com", "pat@outlook.com", true), ("microsoft.com", "pat@example.com", false),
        ("apple.com", "pat@example.com", true),
        ("github.com", "pat@example.com", false), ("twitter.com", "pat@example.com", false), ("facebook.com", "pat@example.com", false),
    ]

    @Test(arguments: cases)
    func aSignInWithAnAccountsAddressTakesItOverOnlyWhereTheProviderVouches(_ test: (provider: String, email: String, vouches: Bool)) throws {
        var configuration = StandInConfiguration()
        configuration.emailEnumerationProtection = false
        let standIn = try StandIn(configuration: configuration)
        standIn.start()
        defer { standIn.stop() }
        let client = StandInClient(standIn: standIn)
        let uid = standIn.createPasswordUser(email: test.email, password: "correct horse")
        // The browser flow, as a user signs in (Yahoo's and Microsoft's credentials cannot be
        // checked by Firebase, so only their redirect signs in).
        let (sessionId, redirect) = try #require(client.authorize(provider: test.provider, continueUri: "http://localhost:9/cb", email: test.email,
                                                                  extra: ["authFlowType": "CODE_FLOW"]))
        let answer = client.accounts("signInWithIdp", ["requestUri": redirect, "sessionId": sessionId, "returnSecureToken": true, "returnIdpCredential": true])
        #expect(answer.status == 200, "\(answer)")
        #expect(answer.json["emailVerified"] as? Bool == test.vouches, "\(answer.json)")
        if test.vouches {
            #expect(answer.json["localId"] as? String == uid && answer.json["idToken"] is String, "\(answer.json)")
            let methods = client.accounts("createAuthUri", ["identifier": test.email, "continueUri": "http://localhost"]).json["signinMethods"] as? [String]
            #expect(methods == [test.provider], "the unverified password is dropped: \(methods ?? [])")
        } else {
            #expect(answer.json["needConfirmation"] as? Bool == true && answer.json["idToken"] == nil, "\(answer.json)")
            let methods = client.accounts("createAuthUri", ["identifier": test.email, "continueUri": "http://localhost"]).json["signinMethods"] as? [String]
            #expect(methods == ["password"], "the account is as it was: \(methods ?? [])")
        }
    }
}
