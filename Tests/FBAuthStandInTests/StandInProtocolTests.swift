import FBAuthStandIn
import Foundation
import LoopbackHTTP
import Testing

/// The stand-in must answer like the production service as documented
/// (the Firebase Auth REST API reference and the SDKs), or fbauth's tests would prove nothing about the real thing.
@Suite struct StandInProtocolTests {
    let standIn: StandIn
    let client: StandInClient

    init() throws {
        standIn = try StandIn()
        standIn.start()
        client = StandInClient(standIn: standIn)
    }

    @Test func createAuthUriReturnsAnOAuth2AuthorizationURLAtAFakeProvider() throws {
        let answer = client.accounts("createAuthUri", [
            "providerId": "yahoo.com", "continueUri": "http://localhost:9/__/auth/handler",
            "customParameter": ["prompt": "login"], "oauthScope": "mail-r sdct-w",
        ])
        #expect(answer.status == 200)
        #expect(answer.contentType?.hasPrefix("application/json") == true)
        let authUri = try #require(answer.json["authUri"] as? String)
        let items = Dictionary(uniqueKeysWithValues: FormEncoding.decode(String(authUri.split(separator: "?")[1])).map { ($0.name, $0.value) })
        #expect(authUri.hasPrefix(standIn.baseURL + "/fake-idp/yahoo.com/authorize?"))
        #expect(items["redirect_uri"] == "http://localhost:9/__/auth/handler")
        #expect(items["response_type"] == "code")
        #expect(items["scope"] == "openid email profile mail-r sdct-w")
        #expect(items["prompt"] == "login")
        #expect(items["state"]?.isEmpty == false)
        #expect(answer.json["sessionId"] as? String != nil)
    }

    @Test func theCodeFlowExchangesOnceAndChecksSessionAndRedirect() throws {
        let (sessionId, redirect) = try #require(client.authorize(provider: "yahoo.com"))
        #expect(redirect.hasPrefix("http://localhost:9/__/auth/handler?code="))
        #expect(redirect.contains("&state="))

        // Another session id (session fixation) is refused.
        let fixated = client.accounts("signInWithIdp", ["requestUri": redirect, "sessionId": "attacker", "returnSecureToken": true])
        #expect(fixated.status == 400)
        #expect(fixated.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true)

        // Another redirect endpoint is refused.
        let elsewhere = redirect.replacingOccurrences(of: "/__/auth/handler", with: "/other")
        #expect(client.accounts("signInWithIdp", ["requestUri": elsewhere, "sessionId": sessionId]).errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true)

        let signedIn = client.accounts("signInWithIdp", ["requestUri": redirect, "sessionId": sessionId, "returnSecureToken": true, "returnIdpCredential": true])
        #expect(signedIn.status == 200)
        #expect(signedIn.json["idToken"] as? String != nil)
        #expect(signedIn.json["refreshToken"] as? String != nil)
        #expect(signedIn.json["expiresIn"] as? String == "3600")
        #expect(signedIn.json["isNewUser"] as? Bool == true)
        #expect(signedIn.json["rawUserInfo"] is String, "rawUserInfo is stringified JSON")

        // The code is single-use.
        let again = client.accounts("signInWithIdp", ["requestUri": redirect, "sessionId": sessionId, "returnSecureToken": true])
        #expect(again.status == 400)
        #expect(again.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true)
    }

    @Test func twitterUsesOAuth1TokensAndVerifiers() throws {
        let answer = client.accounts("createAuthUri", ["providerId": "twitter.com", "continueUri": "http://localhost:9/cb"])
        let authUri = try #require(answer.json["authUri"] as? String)
        #expect(authUri.contains("/oauth/authenticate?oauth_token="))
        let (sessionId, redirect) = try #require(client.authorize(provider: "twitter.com", continueUri: "http://localhost:9/cb"))
        #expect(redirect.contains("oauth_token=") && redirect.contains("oauth_verifier="))
        let signedIn = client.accounts("signInWithIdp", ["requestUri": redirect, "sessionId": sessionId, "returnSecureToken": true])
        #expect(signedIn.json["oauthTokenSecret"] as? String != nil)
        #expect(signedIn.json["screenName"] as? String == "a")
        #expect((signedIn.json["federatedId"] as? String)?.hasPrefix("http://twitter.com/") == true)
    }

    @Test func aDenialRedirectsWithTheProvidersError() throws {
        let (_, denied) = try #require(client.authorize(provider: "yahoo.com", decision: "deny"))
        #expect(denied.contains("error=access_denied") && denied.contains("state="))
        let (_, twitterDenied) = try #require(client.authorize(provider: "twitter.com", decision: "deny"))
        #expect(twitterDenied.contains("?denied="))
    }

    @Test func theErrorEnvelopeMatchesGoogles() throws {
        let answer = client.accounts("signInWithIdp", ["requestUri": ""])
        #expect(answer.status == 400)
        let error = try #require(answer.json["error"] as? [String: Any])
        #expect(error["code"] as? Int == 400)
        #expect(error["message"] as? String == "MISSING_REQUEST_URI")
        let item = try #require((error["errors"] as? [[String: Any]])?.first)
        #expect(item["domain"] as? String == "global" && item["reason"] as? String == "invalid")
        #expect(error["status"] == nil, "plain 400s carry no status")
    }

    @Test func unknownFieldsAreRefusedAndSnakeCaseAccepted() {
        let unknown = client.accounts("createAuthUri", ["providerId": "yahoo.com", "continueUri": "http://localhost:9/", "redirectUri": "x"])
        #expect(unknown.status == 400)
        #expect(unknown.errorMessage == "Invalid JSON payload received. Unknown name \"redirectUri\": Cannot find field.")
        let snake = client.accounts("createAuthUri", ["provider_id": "yahoo.com", "continue_uri": "http://localhost:9/"])
        #expect(snake.status == 200)
    }

    @Test func apiKeysAreRequired() {
        var keyless = client
        keyless.apiKey = nil
        let answer = keyless.accounts("lookup", ["idToken": "x"])
        #expect(answer.status == 403)
        #expect(answer.errorMessage == "The request is missing a valid API key.")
        #expect((answer.json["error"] as? [String: Any])?["status"] as? String == "PERMISSION_DENIED")
        let header = keyless.post("/identitytoolkit.googleapis.com/v1/accounts:lookup", json: ["idToken": "x"], headers: ["x-goog-api-key: k"])
        #expect(header.errorMessage == "INVALID_ID_TOKEN")
    }

    @Test func continueUrisWithFragmentsOrStateAreRefused() {
        #expect(client.accounts("createAuthUri", ["providerId": "yahoo.com", "continueUri": "http://localhost:9/#x"]).errorMessage?.hasPrefix("INVALID_CONTINUE_URI") == true)
        #expect(client.accounts("createAuthUri", ["providerId": "yahoo.com", "continueUri": "http://localhost:9/?state=1"]).errorMessage?.hasPrefix("INVALID_CONTINUE_URI") == true)
        #expect(client.accounts("createAuthUri", ["providerId": "yahoo.com"]).errorMessage == "MISSING_CONTINUE_URI")
        #expect(client.accounts("createAuthUri", ["providerId": "yahoo.com", "continueUri": "http://localhost:9/", "customParameter": ["state": "x"]]).status == 400)
    }

    @Test func linkingAnAccountOwnedByAnotherUserIsAnHTTP200ErrorWithTheCredential() throws {
        let (firstSession, firstRedirect) = try #require(client.authorize(provider: "yahoo.com", email: "owner@example.com"))
        #expect(client.accounts("signInWithIdp", ["requestUri": firstRedirect, "sessionId": firstSession, "returnSecureToken": true]).status == 200)
        let (otherSession, otherRedirect) = try #require(client.authorize(provider: "github.com", email: "other@example.com"))
        let other = client.accounts("signInWithIdp", ["requestUri": otherRedirect, "sessionId": otherSession, "returnSecureToken": true])
        let otherToken = try #require(other.json["idToken"] as? String)

        // The second user tries to link the first user's Yahoo account.
        let (linkSession, linkRedirect) = try #require(client.authorize(provider: "yahoo.com", email: "owner@example.com"))
        let linked = client.accounts("signInWithIdp", [
            "requestUri": linkRedirect, "sessionId": linkSession, "idToken": otherToken,
            "returnSecureToken": true, "returnIdpCredential": true,
        ])
        #expect(linked.status == 200)
        #expect(linked.json["errorMessage"] as? String == "FEDERATED_USER_ID_ALREADY_LINKED")
        #expect(linked.json["oauthAccessToken"] as? String != nil)
        #expect(linked.json["idToken"] == nil)
    }

    @Test func anUnverifiedEmailOfAnExistingAccountNeedsConfirmation() throws {
        let (yahooSession, yahooRedirect) = try #require(client.authorize(provider: "yahoo.com", email: "same@example.com"))
        #expect(client.accounts("signInWithIdp", ["requestUri": yahooRedirect, "sessionId": yahooSession, "returnSecureToken": true]).status == 200)
        let (msSession, msRedirect) = try #require(client.authorize(provider: "microsoft.com", email: "same@example.com"))
        let answer = client.accounts("signInWithIdp", ["requestUri": msRedirect, "sessionId": msSession, "returnSecureToken": true, "returnIdpCredential": true])
        #expect(answer.status == 200)
        #expect(answer.json["needConfirmation"] as? Bool == true)
        #expect(answer.json["verifiedProvider"] as? [String] == ["yahoo.com"])
        #expect(answer.json["pendingToken"] as? String != nil)
        #expect(answer.json["idToken"] == nil)
        #expect(answer.json["email"] as? String == "same@example.com")
    }

    @Test func lookupDescribesTheUserWithRawIds() throws {
        let (sessionId, redirect) = try #require(client.authorize(provider: "google.com", email: "g@example.com", extra: ["authFlowType": "CODE_FLOW"]))
        let signedIn = client.accounts("signInWithIdp", ["requestUri": redirect, "sessionId": sessionId, "returnSecureToken": true])
        let idToken = try #require(signedIn.json["idToken"] as? String)
        let lookup = client.accounts("lookup", ["idToken": idToken])
        let user = try #require((lookup.json["users"] as? [[String: Any]])?.first)
        #expect(user["localId"] as? String == signedIn.json["localId"] as? String)
        let provider = try #require((user["providerUserInfo"] as? [[String: Any]])?.first)
        #expect((provider["federatedId"] as? String)?.hasPrefix("https://accounts.google.com/") == true)
        #expect(provider["rawId"] as? String == String((provider["federatedId"] as? String ?? "").dropFirst("https://accounts.google.com/".count)))
        #expect(client.accounts("lookup", ["idToken": "forged"]).errorMessage == "INVALID_ID_TOKEN")
    }

    /// Google starts the ID-token flow unless asked for the code flow; its answer is in the
    /// fragment, which a loopback listener never receives.
    @Test func googleWithoutCodeFlowAnswersInTheFragment() throws {
        let (_, redirect) = try #require(client.authorize(provider: "google.com", email: "g@example.com"))
        #expect(redirect.hasPrefix("http://localhost:9/__/auth/handler#id_token="))
        let (_, codeFlow) = try #require(client.authorize(provider: "google.com", email: "g@example.com", extra: ["authFlowType": "CODE_FLOW"]))
        #expect(codeFlow.hasPrefix("http://localhost:9/__/auth/handler?code="))
    }

    @Test func theProjectConfigurationNamesTheProjectAndItsDomains() throws {
        let answer = client.send("GET", "/identitytoolkit.googleapis.com/v1/projects")
        #expect(answer.status == 200)
        #expect(answer.json["projectId"] as? String == "fbauth-stand-in")
        #expect((answer.json["authorizedDomains"] as? [String])?.contains("localhost") == true)
        let keyless = StandInClient(standIn: standIn, apiKey: nil)
        #expect(keyless.send("GET", "/identitytoolkit.googleapis.com/v1/projects").status == 403, "the key is required")
    }

    @Test func theHandlerNeedsItsParametersAndStartsTheProvidersFlow() throws {
        let missing = try #require(client.get(standIn.baseURL + "/emulator/auth/handler?apiKey=k"))
        #expect(missing.status == 400 && missing.bodyText.contains("missing apiKey or providerId"))
        let start = try #require(client.get(standIn.baseURL + "/emulator/auth/handler?apiKey=k&appName=a&authType=signInViaPopup&eventId=1&providerId=yahoo.com&scopes=mail-r,sdct-w&customParameters=%7B%22prompt%22%3A%22login%22%7D"))
        #expect(start.status == 302)
        let location = try #require(start.header("Location"))
        #expect(location.contains("/fake-idp/yahoo.com/authorize?") && location.contains("prompt=login"))
        #expect(location.contains("redirect_uri=" + FormEncoding.percentEncode(standIn.baseURL + "/emulator/auth/handler")))
        #expect(location.contains("scope=openid%20email%20profile%20mail-r%20sdct-w"))
    }

    @Test func theOfficialEmulatorSwitchAnswers501AndAcceptsFakeClaims() throws {
        var configuration = StandInConfiguration()
        configuration.profile.differences.formUnion(EmulatorProfile.limitsOfGoogleEmulator)
        let emulator = try StandIn(configuration: configuration)
        emulator.start()
        let client = StandInClient(standIn: emulator)
        let answer = client.accounts("createAuthUri", ["providerId": "yahoo.com", "continueUri": "http://localhost:9/"])
        #expect(answer.status == 501)
        #expect((answer.json["error"] as? [String: Any])?["status"] as? String == "NOT_IMPLEMENTED")
        let claims = FormEncoding.percentEncode(#"{"sub":"123","email":"e@example.com","email_verified":true}"#)
        let signedIn = client.accounts("signInWithIdp", ["requestUri": "http://localhost", "postBody": "providerId=yahoo.com&id_token=\(claims)", "returnSecureToken": true])
        #expect(signedIn.status == 200)
        #expect(signedIn.json["federatedId"] as? String == "123")
        #expect(signedIn.json["oauthAccessToken"] as? String == "FirebaseAuthEmulatorFakeAccessToken_yahoo.com")
        emulator.stop()
    }

    @Test func securetokenRefreshesWithFormOrJSONBodies() throws {
        let (sessionId, redirect) = try #require(client.authorize(provider: "yahoo.com"))
        let signedIn = client.accounts("signInWithIdp", ["requestUri": redirect, "sessionId": sessionId, "returnSecureToken": true])
        let refreshToken = try #require(signedIn.json["refreshToken"] as? String)
        let form = client.send("POST", "/securetoken.googleapis.com/v1/token", body: Array("grant_type=refresh_token&refresh_token=\(refreshToken)".utf8),
                               contentType: "application/x-www-form-urlencoded")
        #expect(form.status == 200)
        #expect(form.json["id_token"] as? String != nil && form.json["expires_in"] as? String == "3600")
        #expect(form.json["user_id"] as? String == signedIn.json["localId"] as? String)
        let json = client.post("/securetoken.googleapis.com/v1/token", json: ["grantType": "refresh_token", "refreshToken": refreshToken])
        #expect(json.status == 200)
        let bad = client.send("POST", "/securetoken.googleapis.com/v1/token", body: Array("grant_type=refresh_token&refresh_token=nope".utf8),
                              contentType: "application/x-www-form-urlencoded")
        #expect(bad.errorMessage == "INVALID_REFRESH_TOKEN")
        standIn.revokeTokens(uid: try #require(signedIn.json["localId"] as? String))
        let revoked = client.post("/securetoken.googleapis.com/v1/token", json: ["grantType": "refresh_token", "refreshToken": refreshToken])
        #expect(revoked.errorMessage == "TOKEN_EXPIRED")
    }

    @Test func faultsCanBeInjected() {
        standIn.inject(Fault("accounts:lookup", .status(503, message: "UNAVAILABLE"), count: 1))
        #expect(client.accounts("lookup", ["idToken": "x"]).status == 503)
        #expect(client.accounts("lookup", ["idToken": "x"]).status == 400)
        #expect(standIn.requests(to: "accounts:lookup").count == 2)
    }
}
