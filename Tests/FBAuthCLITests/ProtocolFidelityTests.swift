import FBAuthStandIn
import Foundation
import Testing

/// What production Firebase expects of a client, as its own SDKs send it: API-key restrictions,
/// client headers, Google's code flow, the handler's scope format, SAML, the order of HTTP-200
/// answers, retries, the error table, output fidelity and authorized domains.
@Suite struct ProtocolFidelityTests {
    private func harness(_ change: (inout StandInConfiguration) -> Void = { _ in }) throws -> Harness {
        var configuration = StandInConfiguration()
        change(&configuration)
        return try Harness(configuration: configuration)
    }

    private func write(_ text: String, _ name: String, in harness: Harness) throws -> String {
        let path = harness.directory + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func anIOSRestrictedKeyNeedsTheBundleID() throws {
        let harness = try harness { $0.apiKeyRestrictions["AIzaFromPlist"] = .iosApps(["com.example.app"]) }
        let refused = try harness.run(["signin", "--provider", "anonymous", "--api-key", "AIzaFromPlist"])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("restricted to an iOS app") && refused.stderr.contains("--ios-bundle-id"), "\(refused)")
        #expect(refused.stderr.contains("<empty>"), "production's own words are kept")

        let explicit = try harness.run(["signin", "--provider", "anonymous", "--api-key", "AIzaFromPlist", "--ios-bundle-id", "com.example.app"])
        #expect(explicit.status == 0, "\(explicit)")

        // A plist sends its BUNDLE_ID, and its GOOGLE_APP_ID as X-Firebase-gmpid.
        let plist = try write(AppConfigTests.plist, "GoogleService-Info.plist", in: harness)
        let fromPlist = try harness.run(["signin", "--provider", "anonymous", "--app-config", plist])
        #expect(fromPlist.status == 0, "\(fromPlist)")
        let headers = try #require(harness.standIn.requests(to: "accounts:signUp").last?.headers)
        #expect(headers["x-ios-bundle-identifier"] == "com.example.app")
        #expect(headers["x-firebase-gmpid"] == "1:123:ios:abc")
    }

    @Test func androidAndReferrerRestrictedKeys() throws {
        let sha1 = "0123456789abcdef0123456789abcdef01234567"
        let harness = try harness {
            $0.apiKeyRestrictions["android-key"] = .androidApp(package: "com.example.a", sha1: sha1)
            $0.apiKeyRestrictions["web-key"] = .httpReferrers(["https://fbauth-stand-in.firebaseapp.com/"])
        }
        let android = try harness.run(["signin", "--provider", "anonymous", "--api-key", "android-key"])
        #expect(android.status == 1 && android.stderr.contains("--android-package NAME --android-cert SHA1"), "\(android)")
        let colons = stride(from: 0, to: 40, by: 2).map { String(Array(sha1)[$0..<$0 + 2]).uppercased() }.joined(separator: ":")
        #expect(try harness.run(["signin", "--provider", "anonymous", "--api-key", "android-key",
                                 "--android-package", "com.example.a", "--android-cert", colons]).status == 0)
        // google-services.json carries the package name and the certificate hash.
        let services = AppConfigTests.services([("1:1:android:a", "com.example.a", "android-key")])
            .replacingOccurrences(of: "\"oauth_client\": []", with: "\"oauth_client\": [{\"client_type\": 1, \"android_info\": {\"package_name\": \"com.example.a\", \"certificate_hash\": \"\(sha1)\"}}]")
        let json = try write(services, "google-services.json", in: harness)
        let fromJSON = try harness.run(["signin", "--provider", "anonymous", "--app-config", json])
        #expect(fromJSON.status == 0, "\(fromJSON)")
        #expect(harness.standIn.requests.last?.headers["x-firebase-gmpid"] == "1:1:android:a")

        let web = try harness.run(["signin", "--provider", "anonymous", "--api-key", "web-key"])
        #expect(web.status == 1 && web.stderr.contains("--referer"), "\(web)")
        #expect(try harness.run(["signin", "--provider", "anonymous", "--api-key", "web-key", "--referer", "https://fbauth-stand-in.firebaseapp.com/"]).status == 0)
        #expect(try harness.run(["signin", "--provider", "anonymous", "--referer", "fbauth-stand-in.firebaseapp.com"]).status == 2)
    }

    @Test func everyRequestSaysWhoIsCallingAndInWhichLanguage() throws {
        let harness = try harness()
        let signIn = try harness.signIn("yahoo.com", ["--email", "fr@example.com"], environment: ["LANG": "fr_FR.UTF-8", "LC_ALL": ""])
        #expect(signIn.status == 0, "\(signIn)")
        #expect(try harness.run(["token", "--force-refresh"], environment: ["LC_ALL": "pt_BR.UTF-8"]).status == 0)
        #expect(try harness.run(["whoami", "--language", "de"], environment: ["LANG": "fr_FR.UTF-8"]).status == 0)
        let requests = harness.standIn.requests.filter { $0.path.contains("googleapis.com") }
        #expect(requests.count >= 5)
        for request in requests { #expect(request.headers["x-client-version"] == "fbauth/0.1.0", "\(request.path)") }
        #expect(harness.standIn.requests(to: "accounts:createAuthUri").first?.headers["x-firebase-locale"] == "fr")
        #expect(harness.standIn.requests(to: "token").last?.headers["x-firebase-locale"] == "pt-BR")
        #expect(harness.standIn.requests(to: "accounts:lookup").last?.headers["x-firebase-locale"] == "de")
        #expect(harness.standIn.requests(to: "accounts:lookup").first?.headers["x-firebase-gmpid"] == nil)
    }

    @Test func googleAsksForTheCodeFlow() throws {
        let harness = try harness()
        let result = try harness.signIn("google.com", ["--email", "g@example.com"])
        #expect(result.status == 0, "\(result)")
        #expect(harness.bodies(of: "accounts:createAuthUri").first?["authFlowType"] as? String == "CODE_FLOW")
        #expect(harness.bodies(of: "accounts:createAuthUri").isEmpty == false)
        let yahoo = try harness.signIn("yahoo.com", ["--email", "y@example.com"])
        #expect(yahoo.status == 0)
        #expect(harness.bodies(of: "accounts:createAuthUri").last?["authFlowType"] == nil, "documented for Google only")
    }

    @Test func scopesGoAsTheHostedHandlerSendsThem() throws {
        let harness = try harness()
        let result = try harness.signIn("yahoo.com", ["--scope", "mail-r", "--scope", "sdct-w"])
        #expect(result.status == 0, "\(result)")
        #expect(harness.bodies(of: "accounts:createAuthUri").first?["oauthScope"] as? String == #"{"yahoo.com":"mail-r,sdct-w"}"#)
        #expect(harness.standIn.authorizations.first?.parameters["scope"] == "openid email profile mail-r sdct-w")
    }

    @Test func samlTakesNoScopesOrParameters() throws {
        let harness = try harness()
        #expect(try harness.run(["signin", "--provider", "saml.acme", "--scope", "x"]).status == 2)
        let parameter = try harness.run(["signin", "--provider", "saml.acme", "--param", "a=b"])
        #expect(parameter.status == 2 && parameter.stderr.contains("SAML providers take no OAuth scopes or parameters"))
        #expect(harness.standIn.requests.isEmpty)
        let result = try harness.signIn("saml.acme", ["--email", "s@example.com"])
        #expect(result.status == 0, "\(result)")
        let body = try #require(harness.bodies(of: "accounts:createAuthUri").first)
        #expect(body["customParameter"] == nil && body["oauthScope"] == nil, "no login_hint for SAML")
    }

    @Test func needConfirmationIsReadBeforeErrorMessage() throws {
        let harness = try harness()
        let answer = #"{"needConfirmation":true,"errorMessage":"FEDERATED_USER_ID_ALREADY_LINKED","email":"both@example.com","providerId":"yahoo.com","oauthAccessToken":"fake-at","pendingToken":"fake-pending"}"#
        harness.standIn.inject(Fault("accounts:signInWithIdp", .raw(status: 200, contentType: "application/json", body: answer)))
        let result = try harness.signIn("yahoo.com", ["--email", "both@example.com"])
        #expect(result.status == 5, "\(result)")
    }

    @Test func a501IsNotRetried() throws {
        let harness = try harness()
        #expect(try harness.signIn("yahoo.com", ["--email", "r@example.com"]).status == 0)
        harness.standIn.inject(Fault("accounts:lookup", .status(501, message: "NOT_IMPLEMENTED"), count: 2))
        let before = harness.standIn.requests(to: "accounts:lookup").count
        let result = try harness.run(["whoami"])
        #expect(result.status == 1, "\(result)")
        #expect(harness.standIn.requests(to: "accounts:lookup").count == before + 1)
    }

    @Test func projectSettingsThatRefuseSignInsAreExplained() throws {
        let recaptcha = try harness { $0.passwordRecaptchaEnforced = true }
        recaptcha.standIn.createPasswordUser(email: "pat@example.com", password: "pw")
        // A reCAPTCHA page that posts a token the server does not take (a wrong site key).
        let password = try recaptcha.run(["signin", "--provider", "password", "--email", "pat@example.com"], stdin: "pw\n",
                                         environment: ["FBAUTH_FAKE_BROWSER_RESULT": #"{"token":"fbauth-stand-in-recaptcha-enterprise.other-key.signInWithPassword"}"#])
        #expect(password.status == 1)
        #expect(password.stderr.contains("protects email/password with reCAPTCHA Enterprise") && password.stderr.contains("[INVALID_RECAPTCHA_TOKEN]"), "\(password)")

        let closed = try harness { $0.signUpsDisabled = true }
        let anonymous = try closed.run(["signin", "--provider", "anonymous"])
        #expect(anonymous.status == 1 && anonymous.stderr.contains("sign-ups are disabled for this project"), "\(anonymous)")

        let blocked = try harness { $0.blockingFunctionRefusal = "Sign-ups from example.org are not allowed" }
        let idp = try blocked.signIn("yahoo.com", ["--email", "x@example.org"])
        #expect(idp.status == 1)
        #expect(idp.stderr.contains("a blocking function of the project refused the sign-in [BLOCKING_FUNCTION_ERROR_RESPONSE] (Sign-ups from example.org are not allowed)"), "\(idp)")
    }

    @Test func profilesKeepTheirNumbersAndUsernames() throws {
        let harness = try harness()
        let twitter = try harness.signIn("twitter.com", ["--email", "jack@example.com"])
        #expect(twitter.status == 0, "\(twitter)")
        let id = try #require(twitter.json.string("additionalUserInfo", "profile", "id_str"))
        #expect(id.count == 19)
        #expect(twitter.stdout.contains("\"id\" : \(id),"), "the 19-digit id is printed digit for digit")
        #expect(twitter.json.string("additionalUserInfo", "username") == "jack")

        let github = try harness.signIn("github.com", ["--email", "octo.cat@example.com"])
        #expect(github.json.string("additionalUserInfo", "username") == github.json.string("additionalUserInfo", "profile", "login"))
        #expect(github.json.string("additionalUserInfo", "username") != nil)
        let yahoo = try harness.signIn("yahoo.com", ["--email", "y@example.com"])
        #expect(yahoo.json[path: "additionalUserInfo", "username"] is NSNull)
    }

    @Test func aRedirectHostThatIsNotAuthorizedIsReportedBeforeTheBrowser() throws {
        let harness = try harness { $0.authorizedDomains = ["localhost", "fbauth-stand-in.firebaseapp.com"] }
        let result = try harness.run(["signin", "--loopback", "--provider", "twitter.com", "--port", "0"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("127.0.0.1 is not an authorized domain of project fbauth-stand-in")
                && result.stderr.contains("Authentication → Settings → Authorized domains"), "\(result)")
        #expect(harness.browserPages.isEmpty, "no browser was opened")

        let none = try self.harness { $0.authorizedDomains = ["fbauth-stand-in.firebaseapp.com"] }
        let hosted = try none.run(["signin", "--provider", "yahoo.com", "--port", "0"])
        #expect(hosted.status == 1 && hosted.stderr.contains("localhost is not an authorized domain"), "\(hosted)")
        #expect(none.browserPages.isEmpty)
    }
}
