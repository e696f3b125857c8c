import FBAuthStandIn
import Foundation
import Testing

/// `fbauth signin` end to end: the real binary, the stand-in, the fake browser.
@Suite struct SignInTests {
    @Test func yahooSignInPrintsTheResultAndSavesTheSession() throws {
        let harness = try Harness()
        let result = try harness.signIn("yahoo.com", ["--email", "ada@example.com", "--scope", "mail-r", "--scope", "sdct-w", "--param", "prompt=login"])
        #expect(result.status == 0, "\(result)")

        let json = result.json
        let uid = try #require(json.string("user", "uid"))
        #expect(json.string("user", "email") == "ada@example.com")
        #expect(json[path: "user", "isAnonymous"] as? Bool == false)
        let providerData = try #require(json[path: "user", "providerData"] as? [[String: Any]])
        #expect(providerData.map { $0["providerId"] as? String } == ["yahoo.com"])
        #expect(json.string("credential", "providerId") == "yahoo.com")
        #expect(json.string("credential", "accessToken")?.hasPrefix("fake-yahoo.com-access-") == true)
        #expect(json[path: "credential", "secret"] is NSNull)
        #expect(json[path: "additionalUserInfo", "isNewUser"] as? Bool == true)
        #expect(json.string("additionalUserInfo", "profile", "email") == "ada@example.com")
        #expect(json.string("user", "idToken")?.split(separator: ".").count == 3)
        #expect(json.string("user", "refreshToken")?.isEmpty == false)
        #expect(json.string("user", "expirationTime")?.hasSuffix("Z") == true)

        // createAuthUri carried the loopback redirect URI, scopes and parameters.
        let createAuthUri = try #require(harness.bodies(of: "accounts:createAuthUri").first)
        let continueUri = try #require(createAuthUri["continueUri"] as? String)
        #expect(continueUri.hasPrefix("http://localhost:") && continueUri.hasSuffix("/__/auth/handler"))
        #expect(createAuthUri["providerId"] as? String == "yahoo.com")
        #expect(createAuthUri["oauthScope"] as? String == #"{"yahoo.com":"mail-r,sdct-w"}"#)
        #expect(createAuthUri["customParameter"] as? [String: String] == ["prompt": "login", "login_hint": "ada@example.com"])

        // signInWithIdp got the callback URL exactly as received, with the session id.
        let exchange = try #require(harness.bodies(of: "accounts:signInWithIdp").first)
        let requestUri = try #require(exchange["requestUri"] as? String)
        #expect(requestUri.hasPrefix(continueUri + "?code="))
        #expect(exchange["sessionId"] as? String != nil)
        #expect(exchange["returnSecureToken"] as? Bool == true)
        #expect(exchange["returnIdpCredential"] as? Bool == true)
        #expect(harness.standIn.requests(to: "accounts:lookup").count == 1)

        // The browser was answered after the exchange.
        let lastPage = try #require(harness.browserPages(atLeast: 4).last)
        #expect(lastPage["status"] as? Int == 200)
        #expect((lastPage["body"] as? String)?.contains("Signed in as ada@example.com") == true)

        // The session is saved and current.
        let sessions = harness.savedSessions
        #expect(sessions.map { $0["uid"] as? String } == [uid])
        #expect(sessions.first?["refreshToken"] as? String == json.string("user", "refreshToken"))
        #expect(result.stderr.contains("Signed in as ada@example.com"))
        #expect(!result.stderr.contains(json.string("user", "idToken")!), "no token on stderr")
    }

    @Test func microsoftTenantAndPromptReachTheProvider() throws {
        let harness = try Harness()
        let tenant = "8a1f1bd4-cd8a-4b9d-a2d9-000000000001"
        let result = try harness.signIn("microsoft.com", ["--param", "tenant=\(tenant)", "--param", "prompt=consent", "--email", "grace@contoso.example"])
        #expect(result.status == 0, "\(result)")
        let visit = try #require(harness.standIn.authorizations.first)
        #expect(visit.providerId == "microsoft.com")
        #expect(visit.tenant == tenant)
        #expect(visit.parameters["prompt"] == "consent")
        #expect(visit.parameters["login_hint"] == "grace@contoso.example")
        #expect(result.json.string("additionalUserInfo", "profile", "userPrincipalName") == "grace@contoso.example")
        #expect(result.json.string("credential", "idToken") != nil)
    }

    @Test func twitterUsesOAuth1AndReturnsTheSecret() throws {
        let harness = try Harness()
        let result = try harness.signIn("twitter.com", ["--email", "jack@example.com"])
        #expect(result.status == 0, "\(result)")
        let json = result.json
        #expect(json.string("credential", "secret")?.hasPrefix("fake-twitter-secret-") == true)
        #expect(json.string("additionalUserInfo", "username") == "jack")
        let requestUri = try #require(harness.bodies(of: "accounts:signInWithIdp").first?["requestUri"] as? String)
        #expect(requestUri.contains("oauth_token=") && requestUri.contains("oauth_verifier="))
        // X refuses localhost in redirect URIs: with --loopback the redirect host is 127.0.0.1.
        #expect((harness.bodies(of: "accounts:createAuthUri").first?["continueUri"] as? String)?.hasPrefix("http://127.0.0.1:") == true)
        // providerData[].uid is the provider's own id, not the federated id "http://twitter.com/…".
        let providerUID = try #require((json[path: "user", "providerData"] as? [[String: Any]])?.first?["uid"] as? String)
        #expect(!providerUID.contains("twitter.com") && Int64(providerUID) != nil)
    }

    @Test func deniedConsentEndsTheFlowWithExit4() throws {
        let harness = try Harness()
        let result = try harness.signIn("yahoo.com", environment: ["FBAUTH_FAKE_BROWSER_DECISION": "deny"])
        #expect(result.status == 4, "\(result)")
        #expect(result.stderr.contains("access_denied"))
        #expect(result.stdout.isEmpty)
        #expect(harness.standIn.requests(to: "accounts:signInWithIdp").isEmpty)
        #expect(!FileManager.default.fileExists(atPath: harness.sessionsPath))
        #expect(harness.browserSaw("Sign-in failed"))
    }

    @Test func deniedTwitterConsentEndsTheFlowWithExit4() throws {
        let harness = try Harness()
        let result = try harness.signIn("twitter.com", environment: ["FBAUTH_FAKE_BROWSER_DECISION": "deny"])
        #expect(result.status == 4, "\(result)")
        #expect(result.stderr.contains("denied"))
    }

    @Test func noCallbackWithinTheTimeoutIsExit4() throws {
        let harness = try Harness()
        let result = try harness.run(["signin", "--loopback", "--provider", "yahoo.com", "--port", "0", "--timeout", "1"],
                                     environment: ["FBAUTH_FAKE_BROWSER_ACTION": "ignore"])
        #expect(result.status == 4, "\(result)")
        #expect(result.stderr.contains("no answer from the browser within 1 s; try again, or wait longer (--timeout SECONDS)"), "\(result.stderr)")
    }

    @Test func strayRequestsBeforeTheCallbackDoNotDisturbTheFlow() throws {
        let harness = try Harness()
        let result = try harness.signIn("yahoo.com", environment: ["FBAUTH_FAKE_BROWSER_STRAY": "1"])
        #expect(result.status == 0, "\(result)")
        #expect(harness.standIn.requests(to: "accounts:signInWithIdp").count == 1)
    }

    @Test func theAuthorizationURLIsAlwaysPrintedOnStderr() throws {
        let harness = try Harness()
        let result = try harness.run(["signin", "--loopback", "--provider", "yahoo.com", "--port", "0", "--timeout", "1", "--no-browser"])
        // Nobody visits the URL, so the flow times out; the URL was on stderr for the user.
        #expect(result.status == 4, "\(result)")
        #expect(harness.browserPages.isEmpty, "--no-browser launches nothing")
        #expect(result.stderr.contains(harness.standIn.baseURL + "/fake-idp/yahoo.com/authorize?"))
    }

    /// On a terminal the address is shown and the wait stays (a browser elsewhere may finish
    /// through a forwarded port, or the address be pasted back).
    @Test func anUnlaunchableBrowserIsReportedAndTheURLStillShownOnATerminal() throws {
        let harness = try Harness()
        let running = try BackgroundProcess(["signin", "--loopback", "--provider", "yahoo.com", "--port", "0", "--timeout", "30"], harness: harness,
                                            environment: ["BROWSER": "/nonexistent/browser"], withTerminal: true)
        #expect(running.waitForStderr(containing: "/fake-idp/yahoo.com/authorize?"), "\(running.stderr)")
        #expect(running.stderr.contains("no browser can be opened here"))
        running.interrupt()
        #expect(running.finish().status == 4)
    }

    /// Issue 41, item 1: no browser and no terminal (CI): nobody could finish the sign-in, so
    /// fbauth gives up at once (not after --timeout), with the ways that work, in one line.
    @Test(arguments: [["signin", "--loopback", "--provider", "yahoo.com"], ["signin", "--provider", "yahoo.com"]])
    func withoutABrowserAndATerminalItGivesUpAtOnce(_ command: [String]) throws {
        let harness = try Harness()
        let started = Date()
        let result = try harness.run(command + ["--port", "0"], environment: ["BROWSER": "", "DISPLAY": "", "WAYLAND_DISPLAY": ""])
        #expect(result.status == 4 && result.stdout.isEmpty, "\(result)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.last?.hasPrefix("fbauth: no browser can be opened here (no display") == true
                && lines.last?.hasSuffix("and no terminal can take back the address it ends on, so nobody could finish this sign-in; use --loopback --print-url and then --complete with the address it ends on (open the address in any browser), run the command again with --no-browser, which prints the address to open, or, in CI, --id-token-file, --provider custom or --provider password; against fbauth emulator, start it with --auto-consent EMAIL and this sign-in needs no browser at all") == true,
                "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 60, "not the 300 s timeout")
        #expect(harness.savedSessions.isEmpty)
    }

    @Test func reservedParametersAreAUsageErrorWithoutAnyRequest() throws {
        let harness = try Harness()
        for reserved in ["client_id", "redirect_uri", "response_type", "scope", "state", "response_mode"] {
            let result = try harness.signIn("yahoo.com", ["--param", "\(reserved)=x"])
            #expect(result.status == 2, "\(reserved): \(result)")
            #expect(result.stderr.contains("--param \(reserved)"))
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
        #expect(harness.standIn.requests.isEmpty)
    }

    @Test func theOfficialEmulatorsNotImplementedAnswerFallsBackToFakeClaims() throws {
        var configuration = StandInConfiguration()
        configuration.profile.differences.formUnion(EmulatorProfile.limitsOfGoogleEmulator)
        let harness = try Harness(configuration: configuration)
        let first = try harness.signIn("yahoo.com", ["--email", "emu@example.com"])
        #expect(first.status == 0, "\(first)")
        #expect(first.stderr.contains("fake yahoo.com claims for emu@example.com"))
        let exchange = try #require(harness.bodies(of: "accounts:signInWithIdp").first)
        #expect(exchange["requestUri"] as? String == "http://localhost")
        let postBody = try #require(exchange["postBody"] as? String)
        #expect(postBody.hasPrefix("providerId=yahoo.com&id_token=%7B"))
        #expect(harness.browserPages.isEmpty, "no browser is opened")
        #expect(first.json.string("user", "email") == "emu@example.com")

        // The same email signs in as the same user.
        let second = try harness.signIn("yahoo.com", ["--email", "emu@example.com"])
        #expect(second.json.string("user", "uid") == first.json.string("user", "uid"))
        #expect(second.json[path: "additionalUserInfo", "isNewUser"] as? Bool == false)
    }

    @Test func theStoreIsCreatedPrivate() throws {
        let harness = try Harness()
        let result = try harness.signIn("yahoo.com")
        #expect(result.status == 0, "\(result)")
        #expect(fileMode(harness.configDirectory) == 0o700)
        #expect(fileMode(harness.sessionsPath) == 0o600)
        #expect(fileMode(harness.configDirectory + "/sessions.lock") == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: harness.configDirectory).filter { $0.contains(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func aCorruptStoreIsLeftUntouchedAndNoSignInStarts() throws {
        let harness = try Harness()
        try FileManager.default.createDirectory(atPath: harness.configDirectory, withIntermediateDirectories: true)
        let corrupt = Data("{\"version\": 1, \"projects\": [oops".utf8)
        _ = FileManager.default.createFile(atPath: harness.sessionsPath, contents: corrupt)
        let result = try harness.signIn("yahoo.com")
        #expect(result.status == 7, "\(result)")
        #expect(result.stderr.contains("not valid JSON"))
        #expect(FileManager.default.contents(atPath: harness.sessionsPath) == corrupt)
        #expect(harness.standIn.requests.isEmpty)
    }

    @Test func aSecondUserIsSavedBesideTheFirstAndBecomesCurrent() throws {
        let harness = try Harness()
        let first = try harness.signIn("yahoo.com", ["--email", "one@example.com"])
        let second = try harness.signIn("yahoo.com", ["--email", "two@example.com"])
        #expect(first.status == 0 && second.status == 0)
        #expect(Set(harness.savedSessions.compactMap { $0["email"] as? String }) == ["one@example.com", "two@example.com"])
        let project = (harness.sessionsFile?["projects"] as? [String: Any])?.values.first as? [String: Any]
        #expect((project?["current"] as? [String: Any])?["uid"] as? String == second.json.string("user", "uid"))
    }

    @Test func anExistingAccountWithAnotherMethodIsExit5() throws {
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com", ["--email", "same@example.com"]).status == 0)
        // Microsoft emails are unverified, so Firebase asks to confirm instead of linking.
        let result = try harness.signIn("microsoft.com", ["--email", "same@example.com"])
        #expect(result.status == 5, "\(result)")
        #expect(result.stderr.contains("an account already exists for same@example.com"))
        #expect(result.stderr.contains("yahoo.com"))
        #expect(result.stdout.isEmpty)
        #expect(harness.savedSessions.count == 1)
    }

    @Test(arguments: [
        (#"{"errorMessage": "INVALID_IDP_RESPONSE : bad"}"#, Int32(1), "identity provider's answer was not accepted"),
        (#"{"kind": "identitytoolkit#VerifyAssertionResponse", "localId": "x"}"#, Int32(1), "no idToken"),
        (#"{"needConfirmation": true, "email": "x@example.com"}"#, Int32(5), "already exists for x@example.com"),
        (#"{"idToken": "#, Int32(1), "malformed JSON"),
    ])
    func http200AnswersThatAreNotASignInFail(body: String, status: Int32, message: String) throws {
        let harness = try Harness()
        harness.standIn.inject(Fault("accounts:signInWithIdp", .raw(status: 200, contentType: "application/json", body: body)))
        let result = try harness.signIn("yahoo.com")
        #expect(result.status == status, "\(result)")
        #expect(result.stderr.contains(message))
        #expect(harness.savedSessions.isEmpty)
    }

    @Test func serverErrorsAreExplainedWithTheirCode() throws {
        var configuration = StandInConfiguration()
        configuration.validAPIKeys = ["the-right-key"]
        let harness = try Harness(configuration: configuration)
        let result = try harness.signIn("yahoo.com")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("the API key is not valid"))
        #expect(result.stderr.split(separator: "\n").last?.hasPrefix("fbauth: ") == true)
    }

    @Test func anUnreachableServerIsExit6NamingTheHost() throws {
        let harness = try Harness()
        let closedPort = try closedLoopbackPort()
        let result = try harness.signIn("yahoo.com", environment: ["FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(closedPort)"])
        #expect(result.status == 6, "\(result)")
        #expect(result.stderr.contains("127.0.0.1:\(closedPort)"))
    }

    @Test func aPortInUseIsAClearError() throws {
        let harness = try Harness()
        // The stand-in's own port is certainly taken.
        let result = try harness.run(["signin", "--loopback", "--provider", "yahoo.com", "--port", String(harness.standIn.port)])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("port \(harness.standIn.port) is already in use"))
        #expect(result.stderr.contains("--port"))
    }

    @Test func aTenantIsSentWithEveryRequestAndSaved() throws {
        let harness = try Harness()
        let result = try harness.signIn("yahoo.com", ["--tenant-id", "tenant-a1"])
        #expect(result.status == 0, "\(result)")
        #expect(harness.bodies(of: "accounts:createAuthUri").first?["tenantId"] as? String == "tenant-a1")
        #expect(harness.bodies(of: "accounts:signInWithIdp").first?["tenantId"] as? String == "tenant-a1")
        #expect(result.json.string("user", "tenantId") == "tenant-a1")
        #expect(harness.savedSessions.first?["tenantId"] as? String == "tenant-a1")
    }

    @Test func aLostExchangeIsNotRetriedAndSaysToSignInAgain() throws {
        let harness = try Harness()
        harness.standIn.inject(Fault("accounts:signInWithIdp", .dropConnection))
        let result = try harness.signIn("yahoo.com")
        #expect(result.status == 6, "\(result)")
        #expect(result.stderr.contains("run the command again"))
        #expect(harness.standIn.requests(to: "accounts:signInWithIdp").count == 1)
        #expect(harness.browserSaw("Sign-in failed"))
    }

    @Test func aMissingAPIKeySaysWhereToFindIt() throws {
        let harness = try Harness()
        let result = try harness.signIn("yahoo.com", environment: ["FIREBASE_API_KEY": ""])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("--api-key") && result.stderr.contains("FIREBASE_API_KEY") && result.stderr.contains("Web API key"))
        #expect(harness.standIn.requests.isEmpty)
    }
}

/// A loopback port nothing listens on.
func closedLoopbackPort() throws -> UInt16 {
    let probe = try StandIn()
    let port = probe.port
    probe.stop()
    return port
}
