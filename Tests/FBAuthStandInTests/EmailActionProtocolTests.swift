@testable import FBAuthStandIn
import Foundation
import FBAuthSupport
import LoopbackHTTP
import Testing

/// The stand-in's email and password lifecycle, email links and credential sign-in, over HTTP,
/// against what production and the Auth emulator answer (firebase-tools
/// `src/emulator/auth/operations.ts`: sendOobCode, resetPassword, setAccountInfo,
/// signInWithEmailLink, signInWithIdp).
@Suite struct EmailActionProtocolTests {
    private func started(_ configure: (inout StandInConfiguration) -> Void = { _ in }) throws -> (StandIn, StandInClient) {
        var configuration = StandInConfiguration()
        configure(&configuration)
        let standIn = try StandIn(configuration: configuration)
        standIn.start()
        return (standIn, StandInClient(standIn: standIn))
    }

    private func oobCode(in link: String?) -> String? {
        link.flatMap { URLComponents(string: $0)?.queryItems?.first { $0.name == "oobCode" }?.value }
    }

    @Test func sha256MatchesFIPS180() {
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(String(repeating: "a", count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        // Every padding case (lengths 0–199 cross 55, 56, 63 and 64 mod 64 three times): the
        // digest of their hex digests, as Python's hashlib computes it.
        let digests = (0..<200).map { SHA256.hex(String(repeating: "a", count: $0)) }.joined()
        #expect(SHA256.hex(digests) == "019f2b9f1af27a53a1f046da7e98af2c179f431e4b5bebb000e74040917a4123")
    }

    @Test func passwordResetCodeWorksOnceAndRevokesSessions() throws {
        // Without enumeration protection, so that an unknown address is named as such.
        let (standIn, client) = try started { $0.emailEnumerationProtection = false }
        let uid = standIn.createPasswordUser(email: "Pat@Example.com", password: "secret-1")
        let old = client.accounts("signInWithPassword", ["email": "pat@example.com", "password": "secret-1"]).json["idToken"] as? String
        #expect(client.accounts("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "nobody@example.com"]).errorMessage == "EMAIL_NOT_FOUND")
        let sent = client.accounts("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "PAT@example.com"])
        #expect(sent.json["email"] as? String == "pat@example.com")
        let link = try #require(standIn.latestOobLink(sentTo: "pat@example.com", requestType: "PASSWORD_RESET"))
        #expect(link.contains("/emulator/action?mode=resetPassword&lang=en&oobCode="))
        let code = try #require(oobCode(in: link))
        let listed = try #require(client.send("GET", "/emulator/v1/projects/fbauth-stand-in/oobCodes").json["oobCodes"] as? [[String: Any]])
        #expect(listed.contains { $0["oobCode"] as? String == code && $0["requestType"] as? String == "PASSWORD_RESET" })

        let inspected = client.accounts("resetPassword", ["oobCode": code])
        #expect(inspected.json["requestType"] as? String == "PASSWORD_RESET" && inspected.json["email"] as? String == "pat@example.com")
        #expect(client.accounts("resetPassword", ["oobCode": code, "newPassword": "123"]).errorMessage?.hasPrefix("WEAK_PASSWORD") == true)
        #expect(client.accounts("resetPassword", ["oobCode": code, "newPassword": "secret-2"]).status == 200)
        #expect(standIn.password(uid: uid) == "secret-2")
        #expect(client.accounts("resetPassword", ["oobCode": code, "newPassword": "secret-3"]).errorMessage == "INVALID_OOB_CODE")
        #expect(client.accounts("lookup", ["idToken": old ?? ""]).errorMessage == "TOKEN_EXPIRED")
    }

    @Test func codesExpireAfterAnHour() throws {
        let (standIn, client) = try started()
        standIn.createPasswordUser(email: "pat@example.com", password: "secret-1")
        _ = client.accounts("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "pat@example.com"])
        let code = try #require(oobCode(in: standIn.latestOobLink(sentTo: "pat@example.com")))
        standIn.advanceClock(by: 3601)
        #expect(client.accounts("resetPassword", ["oobCode": code, "newPassword": "secret-2"]).errorMessage == "EXPIRED_OOB_CODE")
    }

    @Test func enumerationProtectionHidesUnknownAddresses() throws {
        let (_, client) = try started { $0.emailEnumerationProtection = true }
        let answer = client.accounts("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "nobody@example.com"])
        #expect(answer.status == 200 && answer.json["email"] as? String == "nobody@example.com")
    }

    @Test func verifyAndChangeEmailAppliesThroughUpdateOrTheActionPage() throws {
        let (standIn, client) = try started()
        let uid = standIn.createPasswordUser(email: "pat@example.com", password: "secret-1")
        let idToken = client.accounts("signInWithPassword", ["email": "pat@example.com", "password": "secret-1"]).json["idToken"] as? String ?? ""
        _ = client.accounts("sendOobCode", ["requestType": "VERIFY_EMAIL", "idToken": idToken])
        let verify = try #require(standIn.latestOobLink(sentTo: "pat@example.com", requestType: "VERIFY_EMAIL"))
        let page = try #require(client.get(verify))
        #expect(page.status == 200 && page.bodyText.contains("verified"))
        #expect(standIn.users.first { $0.uid == uid }?.emailVerified == true)

        #expect(client.accounts("sendOobCode", ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": idToken, "newEmail": "no-at"]).errorMessage == "INVALID_NEW_EMAIL")
        _ = client.accounts("sendOobCode", ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": idToken, "newEmail": "pat@new.example"])
        let change = try #require(oobCode(in: standIn.latestOobLink(sentTo: "pat@example.com", requestType: "VERIFY_AND_CHANGE_EMAIL")))
        let applied = client.accounts("update", ["oobCode": change])
        #expect(applied.json["email"] as? String == "pat@new.example" && applied.json["newEmail"] as? String == "pat@new.example")
        #expect(standIn.users.first { $0.uid == uid }?.email == "pat@new.example")
        #expect(client.accounts("update", ["oobCode": change]).errorMessage == "INVALID_OOB_CODE")
    }

    @Test func emailLinkSignInGoesToTheContinueURLWithTheLinksParameters() throws {
        let (standIn, client) = try started()
        #expect(client.accounts("sendOobCode", ["requestType": "EMAIL_SIGNIN", "email": "new@example.com", "continueUrl": "https://evil.example/x"]).errorMessage == "UNAUTHORIZED_DOMAIN")
        _ = client.accounts("sendOobCode", ["requestType": "EMAIL_SIGNIN", "email": "new@example.com", "continueUrl": "http://localhost:4567/__/auth/emailLink?n=abc"])
        let link = try #require(standIn.latestOobLink(sentTo: "new@example.com"))
        let redirect = try #require(client.get(link))
        #expect(redirect.status == 303)
        let location = try #require(redirect.header("Location").flatMap { URLComponents(string: $0) })
        #expect(location.host == "localhost" && location.port == 4567 && location.path == "/__/auth/emailLink")
        let names = Set(location.queryItems?.map(\.name) ?? [])
        #expect(names.isSuperset(of: ["n", "mode", "oobCode", "apiKey", "lang"]) && !names.contains("continueUrl"))
        let code = try #require(oobCode(in: link))
        #expect(client.accounts("resetPassword", ["oobCode": code]).json["email"] == nil, "an email-link code does not reveal the address")
        #expect(client.accounts("signInWithEmailLink", ["email": "other@example.com", "oobCode": code]).errorMessage?.hasPrefix("INVALID_EMAIL") == true)
        let signedIn = client.accounts("signInWithEmailLink", ["email": "new@example.com", "oobCode": code])
        #expect(signedIn.json["isNewUser"] as? Bool == true && signedIn.json["idToken"] is String)
        #expect(standIn.users.first { $0.email == "new@example.com" }.map { $0.emailVerified && $0.emailLinkSignIn } == true)
    }

    @Test func passwordPolicyIsServedAndEnforcedWithProductionsWording() throws {
        let (standIn, client) = try started { $0.passwordPolicy = .strict }
        let policy = client.send("GET", "/identitytoolkit.googleapis.com/v2/passwordPolicy").json
        #expect(policy["enforcementState"] as? String == "ENFORCE")
        #expect((policy["customStrengthOptions"] as? [String: Any])?["minPasswordLength"] as? Int == 8)
        let weak = client.accounts("signUp", ["email": "pat@example.com", "password": "password"])
        #expect(weak.errorMessage == "PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: [Password must contain an upper case character, Password must contain a numeric character, Password must contain a non-alphanumeric character]")
        #expect(standIn.users.isEmpty, "a refused sign-up creates nobody")
        #expect(client.accounts("signUp", ["email": "pat@example.com", "password": "Passw0rd!"]).json["idToken"] is String)
    }

    @Test func linkingAPasswordKeepsTheUserAndRefusesASecond() throws {
        let (standIn, client) = try started()
        let anonymous = client.accounts("signUp", [:]).json["idToken"] as? String ?? ""
        let linked = client.accounts("signUp", ["idToken": anonymous, "email": "pat@example.com", "password": "secret-1"])
        #expect(linked.json["localId"] != nil && standIn.users.count == 1 && standIn.users.first?.hasPassword == true)
        let again = client.accounts("signUp", ["idToken": linked.json["idToken"] as? String ?? "", "email": "pat@example.com", "password": "secret-2"])
        #expect(again.errorMessage == "PROVIDER_ALREADY_LINKED")
    }

    @Test func passwordChangeNeedsARecentSignInAndReturnsNewTokens() throws {
        let (standIn, client) = try started()
        standIn.createPasswordUser(email: "pat@example.com", password: "secret-1")
        let idToken = client.accounts("signInWithPassword", ["email": "pat@example.com", "password": "secret-1"]).json["idToken"] as? String ?? ""
        let changed = client.accounts("update", ["idToken": idToken, "password": "secret-2", "returnSecureToken": true])
        let fresh = try #require(changed.json["idToken"] as? String)
        #expect(client.accounts("lookup", ["idToken": idToken]).errorMessage == "TOKEN_EXPIRED")
        #expect(client.accounts("lookup", ["idToken": fresh]).status == 200)
        standIn.advanceClock(by: 301)
        let refreshed = client.send("POST", "/securetoken.googleapis.com/v1/token", body: Array("grant_type=refresh_token&refresh_token=\(changed.json["refreshToken"] as? String ?? "")".utf8), contentType: "application/x-www-form-urlencoded")
        let later = refreshed.json["id_token"] as? String ?? ""
        #expect(client.accounts("update", ["idToken": later, "password": "secret-3"]).errorMessage == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
        let profile = client.accounts("update", ["idToken": later, "displayName": "Pat", "photoUrl": "https://example.com/p.png"])
        #expect(profile.json["displayName"] as? String == "Pat" && profile.json["idToken"] == nil)
        #expect(client.accounts("update", ["idToken": later, "deleteAttribute": ["PHOTO_URL"]]).json["photoUrl"] == nil)
    }

    @Test func credentialsFromProvidersSDKsAreCheckedAsProductionChecksThem() throws {
        let (standIn, client) = try started { $0.trustedAudiences = ["ci-audience"] }
        func signIn(_ postBody: String) -> StandInClient.Answer {
            client.accounts("signInWithIdp", ["requestUri": "http://localhost", "postBody": postBody, "returnSecureToken": true])
        }
        let google = standIn.mintProviderCredential(providerId: "google.com", email: "g@example.com")
        #expect(signIn("id_token=\(google.idToken)&providerId=google.com").json["idToken"] is String)
        #expect(signIn("access_token=\(google.accessToken)&providerId=google.com").json["idToken"] is String)
        #expect(signIn("id_token=\(google.idToken)&providerId=apple.com").errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true)

        let foreign = standIn.mintProviderCredential(providerId: "oidc.ci", email: "ci@example.com", audience: "someone-else")
        #expect(signIn("id_token=\(foreign.idToken)&providerId=oidc.ci").errorMessage?.contains("audience") == true)
        let trusted = standIn.mintProviderCredential(providerId: "oidc.ci", email: "ci@example.com", audience: "ci-audience")
        #expect(signIn("id_token=\(trusted.idToken)&providerId=oidc.ci").json["idToken"] is String)
        let expired = standIn.mintProviderCredential(providerId: "oidc.ci", email: "ci@example.com", lifetime: -5)
        #expect(signIn("id_token=\(expired.idToken)&providerId=oidc.ci").errorMessage == "INVALID_IDP_RESPONSE : ID Token expired.")

        let apple = standIn.mintProviderCredential(providerId: "apple.com", email: "a@example.com", nonce: "raw-nonce")
        #expect(signIn("id_token=\(apple.idToken)&providerId=apple.com").errorMessage?.hasPrefix("MISSING_OR_INVALID_NONCE") == true)
        #expect(signIn("id_token=\(apple.idToken)&providerId=apple.com&nonce=wrong").errorMessage?.hasPrefix("MISSING_OR_INVALID_NONCE") == true)
        #expect(signIn("id_token=\(apple.idToken)&providerId=apple.com&nonce=raw-nonce").json["idToken"] is String)

        let twitter = standIn.mintProviderCredential(providerId: "twitter.com", email: "t@example.com")
        #expect(signIn("access_token=\(twitter.accessToken)&oauth_token_secret=wrong&providerId=twitter.com").errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true)
        #expect(signIn("access_token=\(twitter.accessToken)&oauth_token_secret=\(twitter.tokenSecret ?? "")&providerId=twitter.com").json["idToken"] is String)

        let yahoo = standIn.mintProviderCredential(providerId: "yahoo.com", email: "y@example.com")
        let refused = signIn("access_token=\(yahoo.accessToken)&providerId=yahoo.com")
        #expect(refused.errorMessage?.hasPrefix("INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: http://localhost?") == true)
    }

    /// Issue 58: fake claims in an `access_token` (the JS SDK's own tests give GitHub and
    /// Facebook such credentials) are read as Google's emulator reads them (firebase-tools
    /// `parseClaims(oauthIdToken) || parseClaims(oauthAccessToken)`), as JSON or an unsigned JWT,
    /// by `fbauth emulator` and by the stand-in that answers as Google's does.
    @Test func fakeClaimsInAnAccessTokenSignInAsWithGooglesEmulator() throws {
        let jwt = "eyJhbGciOiJub25lIn0." + Data(#"{"sub":"fb-1","email":"fb@example.com"}"#.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_") + "."
        for configure in [{ (configuration: inout StandInConfiguration) in configuration = .googleEmulator(projectId: "demo-fbauth") },
                          { (configuration: inout StandInConfiguration) in configuration.profile.differences.formUnion(EmulatorProfile.limitsOfGoogleEmulator) }] {
            let (standIn, client) = try started(configure)
            defer { standIn.stop() }
            func signIn(_ postBody: String) -> StandInClient.Answer {
                client.accounts("signInWithIdp", ["requestUri": "http://localhost", "postBody": postBody, "returnSecureToken": true])
            }
            let github = signIn("access_token=" + #"{"sub":"gh-1","email":"gh@example.com"}"#.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! + "&providerId=github.com")
            #expect(github.json["idToken"] is String && github.json["email"] as? String == "gh@example.com" && github.json["providerId"] as? String == "github.com", "\(github)")
            let facebook = signIn("access_token=\(jwt)&providerId=facebook.com")
            #expect(facebook.json["idToken"] is String && facebook.json["email"] as? String == "fb@example.com", "\(facebook)")
            // What is no claims at all is still refused, in Google's words.
            let opaque = signIn("access_token=opaque-token&providerId=github.com")
            #expect(opaque.json["idToken"] == nil, "\(opaque)")
        }
    }

    @Test func passwordFlowsNeedAnEnterpriseTokenForTheirActionWhenEnforced() throws {
        let (standIn, client) = try started { $0.passwordRecaptchaEnforced = true }
        standIn.createPasswordUser(email: "pat@example.com", password: "secret-1")
        let prefix = "\(Backend.enterpriseTokenPrefix).\(standIn.configuration.recaptchaSiteKey)."
        let fields: [String: Any] = ["clientType": "CLIENT_TYPE_WEB", "recaptchaVersion": "RECAPTCHA_ENTERPRISE"]
        #expect(client.accounts("signInWithPassword", ["email": "pat@example.com", "password": "secret-1"]).errorMessage == "MISSING_RECAPTCHA_TOKEN")
        #expect(client.accounts("signInWithPassword", fields.merging(["email": "pat@example.com", "password": "secret-1", "captchaResponse": prefix + "signUpPassword"]) { $1 }).errorMessage == "INVALID_RECAPTCHA_ACTION")
        #expect(client.accounts("signInWithPassword", fields.merging(["email": "pat@example.com", "password": "secret-1", "captchaResponse": prefix + "signInWithPassword"]) { $1 }).json["idToken"] is String)
        #expect(client.accounts("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "pat@example.com"]).errorMessage == "MISSING_RECAPTCHA_TOKEN")
        #expect(client.accounts("sendOobCode", fields.merging(["requestType": "PASSWORD_RESET", "email": "pat@example.com", "captchaResp": prefix + "getOobCode"]) { $1 }).status == 200)
        #expect(client.accounts("signUp", [:]).json["idToken"] is String, "anonymous sign-up needs no token")
    }
}
