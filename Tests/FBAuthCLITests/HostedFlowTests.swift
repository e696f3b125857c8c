import FBAuthStandIn
import Foundation
import LoopbackHTTP
import Testing

/// The hosted-handler flow (the default) end to end: the real `fbauth` binary serves its page,
/// headless Chromium runs it with the SDK test double (or the real SDK build), the popup goes
/// through the stand-in's handler and fake provider, and fbauth performs `signInWithIdp`.
@Suite(.enabled(if: Chromium.isInstalled || ProcessInfo.processInfo.environment["CI"] != nil, "chromium is not installed"))
struct HostedFlowTests {
    private func hosted(_ harness: Harness, _ arguments: [String], browser: [String: String] = [:], sdk: String? = nil) throws -> (RunResult, String) {
        try Chromium.hosted(harness, arguments, browser: browser, sdk: sdk)
    }

    private func exchanges(_ harness: Harness) -> [RecordedRequest] { harness.standIn.requests(to: "accounts:signInWithIdp") }

    @Test func signInGoesThroughTheHostedHandlerAndFbauthExchanges() throws {
        let harness = try Harness()
        let (result, browser) = try hosted(harness, ["signin", "--provider", "yahoo.com", "--email", "ada@example.com",
                                                     "--scope", "mail-r", "--param", "prompt=login"])
        #expect(result.status == 0, "\(result)\n\(browser)")
        #expect(result.json.string("user", "email") == "ada@example.com")
        #expect(result.json.string("credential", "providerId") == "yahoo.com")
        #expect(result.json.string("user", "refreshToken") == harness.savedSessions.first?["refreshToken"] as? String)

        // The page loaded the SDK from FBAUTH_FIREBASE_JS_URL; the popup went to the handler,
        // which carried the scopes and parameters to the provider.
        #expect(browser.contains("served \(Chromium.sdkURL)/firebase-auth.js"))
        #expect(harness.standIn.requests.contains { $0.path == "/emulator/auth/handler" && ($0.query ?? "").contains("authType=signInViaPopup") })
        let visit = try #require(harness.standIn.authorizations.first)
        #expect(visit.parameters["scope"]?.split(separator: " ").contains("mail-r") == true)
        #expect(visit.parameters["prompt"] == "login")
        #expect(visit.parameters["login_hint"] == "ada@example.com")
        #expect(harness.standIn.requests(to: "accounts:createAuthUri").isEmpty, "the handler starts the provider flow, not fbauth")
        #expect(harness.standIn.requests(to: "projects").count == 1, "the auth domain comes from the project configuration")

        // One exchange, made by fbauth (a page's fetch carries Origin), with the handler's URL.
        let exchange = try #require(exchanges(harness).first)
        #expect(exchanges(harness).count == 1)
        #expect(exchange.origin == nil)
        let body = try #require(harness.bodies(of: "accounts:signInWithIdp").first)
        #expect((body["requestUri"] as? String)?.contains("/emulator/auth/handler?code=") == true)
        #expect(body["sessionId"] as? String != nil)
        #expect(browser.contains("page signed-in: Signed in as ada@example.com"), "\(browser)")
        // The listener takes this user's connections only, so the browser was given the
        // one-time address itself (issue 27, item 10).
        #expect(result.stderr.contains("/start?n=") && !result.stderr.contains("file://"), "\(result.stderr)")
    }

    /// Issue 31: with App Check enforced, the page gives the SDK fbauth's App Check token (App
    /// Check's custom provider), which the SDK puts in the handler's address as `#fac=`; the
    /// stand-in's handler refuses to start the provider's flow without it.
    @Test func withAppCheckTheHandlerGetsTheTokenInItsFragment() throws {
        var configuration = StandInConfiguration()
        configuration.appCheck = AppCheckEnforcement(debugTokens: [AppCheckTests.debugToken])
        let harness = try Harness(configuration: configuration)
        harness.environment["FBAUTH_APP_CHECK_APP_ID"] = AppCheckTests.appID
        harness.environment["FBAUTH_APP_CHECK_DEBUG_TOKEN"] = AppCheckTests.debugToken
        let (result, browser) = try hosted(harness, ["signin", "--provider", "yahoo.com", "--email", "ada@example.com"])
        #expect(result.status == 0, "\(result)\n\(browser)")
        #expect(browser.contains("served \(Chromium.sdkURL)/firebase-app-check.js"), "\(browser)")
        let token = try #require(harness.standIn.requests(to: "accounts:signInWithIdp").first?.headers["x-firebase-appcheck"])
        let handler = harness.standIn.requests.filter { $0.path == "/emulator/auth/handler" }
        #expect(handler.contains { ($0.query ?? "").contains("fbauthStandInAppCheck=" + FormEncoding.percentEncode(token)) },
                "the handler got the token from #fac: \(handler.map { $0.query ?? "" })")
        #expect(harness.standIn.requests.filter { $0.path.hasSuffix(":exchangeDebugToken") }.count == 1)
    }

    @Test func linkAndReauthUseTheHostedFlowToo() throws {
        let harness = try Harness()
        harness.standIn.createPasswordUser(email: "pat@example.com", password: "correct horse")
        #expect(try harness.run(["signin", "--provider", "password", "--email", "pat@example.com"], stdin: "correct horse\n").status == 0)
        let uid = try #require(harness.savedSessions.first?["uid"] as? String)

        let (link, linkBrowser) = try hosted(harness, ["link", "--provider", "github.com"], browser: ["FBAUTH_CHROMIUM_EMAIL": "pat@example.com"])
        #expect(link.status == 0, "\(link)\n\(linkBrowser)")
        #expect(harness.standIn.users.first { $0.uid == uid }?.providerIds == ["github.com"])
        #expect(harness.bodies(of: "accounts:signInWithIdp").last?["idToken"] as? String != nil, "linking sends the user's ID token")

        let (reauth, reauthBrowser) = try hosted(harness, ["reauth", "--provider", "github.com"], browser: ["FBAUTH_CHROMIUM_EMAIL": "pat@example.com"])
        #expect(reauth.status == 0, "\(reauth)\n\(reauthBrowser)")
        #expect(harness.bodies(of: "accounts:signInWithIdp").last?["autoCreate"] as? Bool == false)
        #expect(reauth.json.string("user", "uid") == uid)
    }

    @Test func accountExistsSavesThePendingCredential() throws {
        let harness = try Harness()
        harness.standIn.createPasswordUser(email: "owner@example.com", password: "pw")
        // The fake Microsoft provider does not verify emails: Firebase asks for confirmation.
        let (result, browser) = try hosted(harness, ["signin", "--provider", "microsoft.com", "--email", "owner@example.com"])
        #expect(result.status == 5, "\(result)\n\(browser)")
        #expect(result.stderr.contains("link --pending"))
        #expect(browser.contains("page failed: Sign-in failed") && browser.contains("An account already exists for owner@example.com"), "\(browser)")
    }

    /// Issue 29, item 6: a page that cannot load the SDK is a network problem (exit 6), with
    /// the ways around it.
    @Test func aPageThatCannotLoadTheSDKIsExit6() throws {
        let harness = try Harness()
        let (result, browser) = try hosted(harness, ["signin", "--hosted", "--provider", "yahoo.com"],
                                           browser: ["FBAUTH_FIREBASE_JS_URL": "http://127.0.0.1:9/firebasejs"])
        #expect(result.status == 6, "\(result)\n\(browser)")
        #expect(result.stderr.contains("could not be loaded") && result.stderr.contains("--loopback"), "\(result.stderr)")
    }

    @Test func aBlockedPopupShowsAButtonThatContinues() throws {
        let harness = try Harness()
        let (result, browser) = try hosted(harness, ["signin", "--provider", "yahoo.com", "--email", "b@example.com", "--auth-domain", "auth.example.com"],
                                           browser: ["FBAUTH_CHROMIUM_POPUPS": "block", "FBAUTH_CHROMIUM_CLICK": "1"])
        #expect(result.status == 0, "\(result)\n\(browser)")
        #expect(result.stderr.contains("The browser blocked the sign-in window; click “Continue with Yahoo”"))
        #expect(browser.contains("clicking Continue"))
    }

    @Test(arguments: [("deny", "cancelled at the provider"), ("close", "the sign-in window was closed")])
    func denyingOrClosingTheWindowIsExit4(action: String, message: String) throws {
        let harness = try Harness()
        let (result, browser) = try hosted(harness, ["signin", "--provider", "yahoo.com", "--email", "d@example.com"],
                                           browser: ["FBAUTH_CHROMIUM_CONSENT": action])
        #expect(result.status == 4, "\(result)\n\(browser)")
        #expect(result.stderr.contains(message), "\(result)\n\(browser)")
        #expect(harness.savedSessions.isEmpty)
    }

    @Test func theDemoRunsTheHostedFlowWhenABrowserCanBeOpened() throws {
        let harness = try Harness()
        harness.environment["FIREBASE_AUTH_EMULATOR_HOST"] = nil
        harness.environment["FIREBASE_API_KEY"] = nil
        let log = harness.directory + "/chromium-demo.log"
        let result = try harness.run(["demo", "--config-dir", harness.directory + "/demo"], environment: Chromium.environment(log: log), timeout: 90)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("The demo runs the hosted-handler flow"))
        #expect(result.json.string("user", "email") == "demo@yahoo.com")
        #expect(Chromium.finalLog(log).contains("page signed-in: Signed in as demo@yahoo.com"))
    }

    @Test func againstGoogleEmulatorsWidgetTheAccountIsChosenInThePopup() throws {
        var configuration = StandInConfiguration()
        configuration.profile.differences.formUnion(EmulatorProfile.limitsOfGoogleEmulator)
        let harness = try Harness(configuration: configuration)
        let (result, browser) = try hosted(harness, ["signin", "--provider", "google.com"], browser: ["FBAUTH_CHROMIUM_EMAIL": "widget@example.com"])
        #expect(result.status == 0, "\(result)\n\(browser)")
        #expect(result.json.string("user", "email") == "widget@example.com")
        #expect(harness.standIn.requests(to: "accounts:createAuthUri").isEmpty, "no 501 fallback in the hosted flow")
        let body = try #require(harness.bodies(of: "accounts:signInWithIdp").first)
        #expect((body["requestUri"] as? String)?.contains("/emulator/auth/handler?providerId=google.com&id_token=") == true)
    }

    /// Issue 27, item 0: an Auth emulator answers `oauthIdToken` with the widget's fake token,
    /// strict JSON claims whose names hold spaces. Sign-in (Yahoo, X), reauthentication (the
    /// widget's listed account) and linking all work with it, with the SDK test double and, when
    /// given, the real SDK build.
    @Test func theEmulatorsJSONClaimsAsOAuthIdTokenAreKeptWithTheSDKDouble() throws {
        try theEmulatorsJSONClaimsAsOAuthIdTokenAreKept(realSDK: false)
    }

    @Test(.enabled(if: Chromium.realSDK != nil, "FBAUTH_TEST_FIREBASE_JS is not set: no build of the real Firebase JS SDK to drive the page with (.ci/run sets it)"))
    func theEmulatorsJSONClaimsAsOAuthIdTokenAreKeptWithTheRealSDK() throws {
        try theEmulatorsJSONClaimsAsOAuthIdTokenAreKept(realSDK: true)
    }

    private func theEmulatorsJSONClaimsAsOAuthIdTokenAreKept(realSDK: Bool) throws {
        var configuration = StandInConfiguration()
        configuration.profile.differences.formUnion(EmulatorProfile.limitsOfGoogleEmulator)
        let harness = try Harness(configuration: configuration)
        let sdk = realSDK ? Chromium.realSDK : nil
        let alice = ["FBAUTH_CHROMIUM_EMAIL": "alice@example.com", "FBAUTH_CHROMIUM_NAME": "Hosted Alice", "FBAUTH_CHROMIUM_SCREEN_NAME": "alice_h"]

        let (signin, signinBrowser) = try hosted(harness, ["signin", "--provider", "yahoo.com"], browser: alice, sdk: sdk)
        #expect(signin.status == 0, "\(signin)\n\(signinBrowser)")
        #expect(signin.json.string("user", "displayName") == "Hosted Alice")
        let idToken = try #require(signin.json.string("credential", "idToken"))
        let claims = try #require(try JSONSerialization.jsonObject(with: Data(idToken.utf8)) as? [String: Any], "JSON claims, as the widget made them")
        #expect(claims["name"] as? String == "Hosted Alice" && claims["screen_name"] as? String == "alice_h")
        let uid = try #require(signin.json.string("user", "uid"))

        let (reauth, reauthBrowser) = try hosted(harness, ["reauth", "--provider", "yahoo.com"], browser: alice, sdk: sdk)
        #expect(reauth.status == 0, "\(reauth)\n\(reauthBrowser)")
        #expect(reauth.json.string("user", "uid") == uid)

        let (link, linkBrowser) = try hosted(harness, ["link", "--provider", "twitter.com"], browser: alice, sdk: sdk)
        #expect(link.status == 0, "\(link)\n\(linkBrowser)")
        #expect(harness.standIn.users.first { $0.uid == uid }?.providerIds.sorted() == ["twitter.com", "yahoo.com"])

        let bob = ["FBAUTH_CHROMIUM_EMAIL": "bob@example.com", "FBAUTH_CHROMIUM_NAME": "Bob B", "FBAUTH_CHROMIUM_SCREEN_NAME": "bob_b"]
        let (x, xBrowser) = try hosted(harness, ["signin", "--provider", "twitter.com"], browser: bob, sdk: sdk)
        #expect(x.status == 0, "\(x)\n\(xBrowser)")
        #expect(x.json.string("user", "displayName") == "Bob B")
        #expect(x.json.string("user", "uid") != uid)
    }

    @Test(.enabled(if: Chromium.realSDK != nil, "FBAUTH_TEST_FIREBASE_JS is not set: no build of the real Firebase JS SDK to drive the page with"))
    func theRealSDKBuildDrivesTheSamePage() throws {
        let sdk = try #require(Chromium.realSDK)
        let harness = try Harness()
        let (result, browser) = try hosted(harness, ["signin", "--provider", "yahoo.com", "--email", "real@example.com", "--scope", "mail-r"], sdk: sdk)
        #expect(result.status == 0, "\(result)\n\(browser)")
        #expect(browser.contains("served \(Chromium.sdkURL)/firebase-auth.js"))
        #expect(exchanges(harness).count == 1 && exchanges(harness).first?.origin == nil)
        #expect(harness.standIn.authorizations.first?.parameters["scope"]?.contains("mail-r") == true)

        let (reauth, reauthBrowser) = try hosted(harness, ["reauth", "--provider", "yahoo.com", "--email", "real@example.com"], sdk: sdk)
        #expect(reauth.status == 0, "\(reauth)\n\(reauthBrowser)")
        #expect(reauth.json.string("user", "uid") == result.json.string("user", "uid"))

        let (link, linkBrowser) = try hosted(harness, ["link", "--provider", "github.com", "--email", "real@example.com"], sdk: sdk)
        #expect(link.status == 0, "\(link)\n\(linkBrowser)")
        #expect(harness.standIn.users.first?.providerIds == ["yahoo.com", "github.com"])
    }
}

/// The hosted flow's listener without a browser: what another program can and cannot do.
@Suite struct HostedFlowListenerTests {
    private func request(_ port: UInt16, _ text: String) throws -> ReceivedResponse? {
        let client = try LoopbackConnection(port: port)
        _ = client.send(text)
        return ReceivedResponse(parsing: client.readToEnd())
    }

    /// `FBAUTH_AUTH_DOMAIN` (issue 38, item 10): without `--auth-domain`, the variable's domain
    /// is the page's, and an option given too wins.
    @Test(arguments: [([String](), "env.example.com"), (["--auth-domain", "option.example.com"], "option.example.com")])
    func theAuthDomainVariableReachesThePage(options: [String], expected: String) throws {
        let harness = try Harness()
        let running = try BackgroundProcess(["signin", "--hosted", "--provider", "yahoo.com", "--port", "0", "--timeout", "20", "--no-browser"] + options,
                                            harness: harness, environment: ["FBAUTH_AUTH_DOMAIN": "env.example.com"])
        #expect(running.waitForStderr(containing: "/start?n="))
        let printed = try #require(running.printedURL)
        let start = try #require(URLComponents(string: printed))
        let port = UInt16(try #require(start.port))
        let host = "Host: localhost:\(port)\r\n"
        let first = try #require(try request(port, "GET \(start.percentEncodedPath)?\(start.percentEncodedQuery ?? "") HTTP/1.1\r\n\(host)\r\n"))
        let cookie = try #require(first.header("Set-Cookie")?.split(separator: ";").first)
        let page = try #require(try request(port, "GET / HTTP/1.1\r\n\(host)Cookie: \(cookie)\r\n\r\n"))
        #expect(page.status == 200 && page.bodyText.contains(#""authDomain":"\#(expected)""#), "\(page.bodyText.prefix(400))")
        running.interrupt()
        #expect(running.finish().status == 4)
    }

    @Test func requestsWithoutThePagesCookieAreRefusedAndTheFlowKeepsWaiting() throws {
        let harness = try Harness()
        let running = try BackgroundProcess(["signin", "--hosted", "--provider", "yahoo.com", "--port", "0", "--timeout", "20", "--no-browser",
                                             "--auth-domain", "auth.example.com", "--language", "fr"], harness: harness)
        #expect(running.waitForStderr(containing: "/start?n="))
        let start = try #require(running.printedURL)
        let port = try #require(URLComponents(string: start)?.port).map(UInt16.init)!
        let host = "Host: localhost:\(port)\r\n"
        let result = "POST /__/fbauth/result HTTP/1.1\r\n\(host)Origin: http://localhost:\(port)\r\nContent-Type: application/json\r\n"
        let forged = #"{"requestUri":"http://127.0.0.1:1/emulator/auth/handler?code=x&state=y","sessionId":"s"}"#

        #expect(try request(port, "GET / HTTP/1.1\r\n\(host)\r\n")?.status == 403, "the page needs the cookie")
        #expect(try request(port, result + "Content-Length: \(forged.utf8.count)\r\n\r\n" + forged)?.status == 403)
        #expect(try request(port, "GET /start?n=wrong HTTP/1.1\r\n\(host)\r\n")?.status == 403)
        #expect(try request(port, "GET \(URLComponents(string: start)!.percentEncodedPath)?\(URLComponents(string: start)!.percentEncodedQuery!) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")?.status == 400,
                "only localhost, the authorized domain, is served")

        // The first visit gets the cookie, and the page with it.
        let target = "\(URLComponents(string: start)!.percentEncodedPath)?\(URLComponents(string: start)!.percentEncodedQuery!)"
        let first = try #require(try request(port, "GET \(target) HTTP/1.1\r\n\(host)\r\n"))
        #expect(first.status == 302)
        let cookie = try #require(first.header("Set-Cookie"))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"))
        let withCookie = "Cookie: \(cookie.split(separator: ";")[0])\r\n"
        let page = try #require(try request(port, "GET / HTTP/1.1\r\n\(host)\(withCookie)\r\n"))
        #expect(page.status == 200 && page.bodyText.contains("fbauth-config"))
        #expect(page.bodyText.contains(#""authDomain":"auth.example.com""#), "--auth-domain reaches the page")
        #expect(page.bodyText.contains(#""language":"fr""#), "so does the language, as the SDK's languageCode")
        #expect(try request(port, "GET \(target) HTTP/1.1\r\n\(host)\(withCookie)\r\n")?.status == 302, "the same browser may come back")
        #expect(harness.standIn.requests(to: "accounts:signInWithIdp").isEmpty, "nothing forged reached Firebase")
        #expect(running.stderr.contains("another program") == false, "the flow is still waiting")

        // Another program using the address too ends the sign-in: which one is the user's is unknown.
        #expect(try request(port, "GET \(target) HTTP/1.1\r\n\(host)\r\n")?.status == 403)
        let outcome = running.finish(timeout: 10)
        #expect(outcome.status == 4, "\(outcome)")
        #expect(outcome.stderr.contains("another program opened this sign-in's address too") && outcome.stderr.contains("used twice"))
    }
}
