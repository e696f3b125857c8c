import FBAuthStandIn
import Foundation
import Testing

/// The rest of an account, end to end with the real binary against the stand-in (issue 23):
/// sign-up and passwords, resets and changes, email verification and change, email-link
/// sign-in (the link opened by the test browser reaching fbauth's listener, or pasted),
/// provider tokens held already, token claims and the profile. Bad input ends with one line
/// and the documented exit code, and leaves the store as it was.
@Suite struct AccountLifecycleTests {
    private func harness(_ configure: (inout StandInConfiguration) -> Void = { _ in }) throws -> Harness {
        var configuration = StandInConfiguration()
        configure(&configuration)
        return try Harness(configuration: configuration)
    }

    private func storeBytes(_ harness: Harness) -> Data? { FileManager.default.contents(atPath: harness.sessionsPath) }

    private func oneLine(_ result: RunResult) -> Bool {
        result.stderr.split(separator: "\n").count == 1 && result.stderr.hasPrefix("fbauth: ")
    }

    // MARK: Sign-up and passwords

    @Test func signUpCreatesTheAccountAndSignsIn() throws {
        let harness = try harness()
        let result = try harness.run(["signup", "--email", "ada@example.com", "--display-name", "Ada"], stdin: "correct horse\n")
        #expect(result.status == 0, "\(result)")
        #expect(result.json.string("user", "email") == "ada@example.com" && result.json.string("user", "displayName") == "Ada")
        #expect(result.json[path: "additionalUserInfo", "isNewUser"] as? Bool == true)
        let user = try #require(harness.standIn.users.first)
        #expect(user.hasPassword && harness.standIn.password(uid: user.uid) == "correct horse")
        #expect(harness.savedSessions.count == 1)
        #expect(!result.stderr.contains("correct horse"))

        let again = try harness.run(["signup", "--email", "ada@example.com"], stdin: "another one\n")
        #expect(again.status == 1 && again.stderr.contains("already used by another account") && oneLine(again), "\(again)")
    }

    @Test func aWeakPasswordIsRefusedWithThePolicyInWordsAndNothingIsSaved() throws {
        let harness = try harness { $0.passwordPolicy = .strict }
        let weak = try harness.run(["signup", "--email", "ada@example.com"], stdin: "password\n")
        #expect(weak.status == 1, "\(weak)")
        #expect(weak.stderr.contains("asks for at least 8 characters, a lower-case letter, an upper-case letter, a digit and a symbol (one of"), "\(weak)")
        #expect(weak.stderr.contains("[PASSWORD_DOES_NOT_MEET_REQUIREMENTS]") && oneLine(weak))
        #expect(harness.standIn.users.isEmpty && storeBytes(harness) == nil)

        let empty = try harness.run(["signup", "--email", "ada@example.com"], stdin: "\n")
        #expect(empty.status == 2 && empty.stderr.contains("no password on stdin") && oneLine(empty), "\(empty)")
        let notAnAddress = try harness.run(["signup", "--email", "ada"], stdin: "Str0ng!pass\n")
        #expect(notAnAddress.status == 2 && notAnAddress.stderr.contains("is not an email address"))
        #expect(harness.standIn.requests(to: "accounts:signUp").count == 1, "refused locally, nothing sent")

        #expect(try harness.run(["signup", "--email", "ada@example.com"], stdin: "Str0ng!pass\n").status == 0)
    }

    @Test func aPasswordIsAddedToTheCurrentUser() throws {
        let harness = try harness()
        let anonymous = try harness.run(["signin", "--provider", "anonymous"])
        let uid = try #require(anonymous.json.string("user", "uid"))
        let linked = try harness.run(["link", "--provider", "password", "--email", "ada@example.com"], stdin: "correct horse\n")
        #expect(linked.status == 0, "\(linked)")
        #expect(linked.json.string("user", "uid") == uid && linked.json.string("user", "email") == "ada@example.com")
        #expect(harness.standIn.users.count == 1 && harness.standIn.users.first?.hasPassword == true)
        let twice = try harness.run(["link", "--provider", "password", "--email", "ada@example.com"], stdin: "other pass\n")
        #expect(twice.status == 1 && twice.stderr.contains("has a password already"), "\(twice)")
        #expect(try harness.run(["signin", "--provider", "password", "--email", "ada@example.com"], stdin: "correct horse\n").json.string("user", "uid") == uid)
    }

    /// Issue 60: a user without an email is named once, by its uid, when it is deleted.
    @Test func anAnonymousUserIsNamedOnceWhenDeleted() throws {
        let harness = try harness()
        let uid = try #require(try harness.run(["signin", "--provider", "anonymous"]).json.string("user", "uid"))
        let deleted = try harness.run(["delete-account", "--yes"])
        #expect(deleted.status == 0 && deleted.stderr.contains("Deleted the Firebase user uid \(uid) and removed its session."), "\(deleted)")
    }

    @Test func aForgottenPasswordIsResetWithTheMailedLink() throws {
        let harness = try harness()
        let uid = harness.standIn.createPasswordUser(email: "ada@example.com", password: "old password")
        let sent = try harness.run(["password", "reset", "--email", "ada@example.com"])
        #expect(sent.status == 0 && sent.stderr.contains("password-reset link"), "\(sent)")
        let link = try #require(harness.standIn.latestOobLink(sentTo: "ada@example.com", requestType: "PASSWORD_RESET"))

        let inArguments = try harness.run(["password", "reset", "--link", link])
        #expect(inArguments.status == 2 && inArguments.stderr.contains("process list") && oneLine(inArguments), "\(inArguments)")
        // A reset code (bare: its kind is known only to Firebase) given to the command that
        // applies verification links: the library says what it is for, the command line which
        // command takes it.
        let resetCode = try #require(URLComponents(string: link)?.queryItems?.first { $0.name == "oobCode" }?.value)
        let misapplied = try harness.run(["email", "apply", "--code-file", "-"], stdin: resetCode + "\n")
        #expect(misapplied.status == 2 && misapplied.stderr.contains("it resets a password (`fbauth password reset --link -`)") && oneLine(misapplied),
                "\(misapplied)")

        let reset = try harness.run(["password", "reset", "--link", "-"], stdin: link + "\nnew password\n")
        #expect(reset.status == 0, "\(reset)")
        #expect(harness.standIn.password(uid: uid) == "new password")
        #expect(!reset.stderr.contains("oobCode") && !reset.stderr.contains("new password"))
        #expect(try harness.run(["signin", "--provider", "password", "--email", "ada@example.com"], stdin: "new password\n").status == 0)

        let before = storeBytes(harness)
        let reused = try harness.run(["password", "reset", "--link", "-"], stdin: link + "\nthird password\n")
        #expect(reused.status == 1 && reused.stderr.contains("[INVALID_OOB_CODE]") && oneLine(reused), "\(reused)")
        #expect(storeBytes(harness) == before)
    }

    @Test func anExpiredOrWrongLinkIsExplained() throws {
        let harness = try harness()
        harness.standIn.createPasswordUser(email: "ada@example.com", password: "old password")
        #expect(try harness.run(["password", "reset", "--email", "ada@example.com"]).status == 0)
        let link = try #require(harness.standIn.latestOobLink(sentTo: "ada@example.com"))
        let code = try #require(URLComponents(string: link)?.queryItems?.first { $0.name == "oobCode" }?.value)
        harness.standIn.advanceClock(by: 3601)
        let expired = try harness.run(["password", "reset", "--code-file", "-"], stdin: code + "\nnew password\n")
        #expect(expired.status == 1 && expired.stderr.contains("the link has expired") && expired.stderr.contains("[EXPIRED_OOB_CODE]"), "\(expired)")

        let notALink = try harness.run(["password", "reset", "--link", "-"], stdin: "https://example.com/nothing\nnew password\n")
        #expect(notALink.status == 2 && notALink.stderr.contains("not a link from a Firebase email") && oneLine(notALink), "\(notALink)")
        #expect(notALink.stderr.components(separatedBy: "not a link").count == 2, "said once (issue 29, item 9): \(notALink.stderr)")
        // Production answers an unknown address as a known one (email enumeration protection).
        let unknown = try harness.run(["password", "reset", "--email", "nobody@example.com"])
        let known = try harness.run(["password", "reset", "--email", "ada@example.com"])
        #expect(unknown.status == 0 && unknown.stderr == known.stderr.replacing("ada@example.com", with: "nobody@example.com"), "\(unknown)\n\(known)")
        #expect(harness.standIn.latestOobLink(sentTo: "nobody@example.com") == nil, "nothing was mailed")
    }

    @Test func thePasswordIsChangedWithARecentSignInAndTheSessionRenewed() throws {
        let harness = try harness()
        harness.standIn.createPasswordUser(email: "ada@example.com", password: "old password")
        #expect(try harness.run(["signin", "--provider", "password", "--email", "ada@example.com"], stdin: "old password\n").status == 0)
        let oldToken = try harness.run(["token"]).stdout
        let changed = try harness.run(["password", "change"], stdin: "new password\n")
        #expect(changed.status == 0, "\(changed)")
        let newToken = try harness.run(["token"]).stdout
        #expect(newToken != oldToken && !newToken.isEmpty, "the session has the new tokens")
        #expect(try harness.run(["whoami"]).status == 0)

        harness.standIn.advanceClock(by: 400)
        let stale = try harness.run(["password", "change"], stdin: "third password\n")
        #expect(stale.status == 1 && stale.stderr.contains("fbauth reauth --provider password") && oneLine(stale), "\(stale)")
    }

    // MARK: Verification and email change

    @Test func theEmailIsVerifiedWithTheMailedLink() throws {
        let harness = try harness()
        harness.standIn.createPasswordUser(email: "ada@example.com", password: "correct horse")
        #expect(try harness.run(["signin", "--provider", "password", "--email", "ada@example.com"], stdin: "correct horse\n").status == 0)
        let sent = try harness.run(["verify-email"])
        #expect(sent.status == 0 && sent.stderr.contains("verification link to ada@example.com"), "\(sent)")
        let link = try #require(harness.standIn.latestOobLink(sentTo: "ada@example.com", requestType: "VERIFY_EMAIL"))
        let applied = try harness.run(["email", "apply", "--link", "-"], stdin: link + "\n")
        #expect(applied.status == 0 && applied.stderr.contains("is verified"), "\(applied)")
        #expect(harness.standIn.users.first?.emailVerified == true)
        #expect(try harness.run(["whoami", "--offline"]).json["emailVerified"] as? Bool == true)
        #expect(try harness.run(["token", "--claims"]).json[path: "claims", "email_verified"] as? Bool == true)
    }

    @Test func theEmailChangesWhenTheLinkIsOpened() throws {
        let harness = try harness()
        harness.standIn.createPasswordUser(email: "ada@example.com", password: "correct horse")
        #expect(try harness.run(["signin", "--provider", "password", "--email", "ada@example.com"], stdin: "correct horse\n").status == 0)
        let bad = try harness.run(["email", "change", "--new-email", "not-an-address"])
        #expect(bad.status == 2 && oneLine(bad))
        let sent = try harness.run(["email", "change", "--new-email", "ada@new.example"])
        #expect(sent.status == 0 && sent.stderr.contains("mailed a link to ada@new.example"), "\(sent)")
        #expect(harness.bodies(of: "accounts:sendOobCode").last?["requestType"] as? String == "VERIFY_AND_CHANGE_EMAIL")
        #expect(harness.standIn.users.first?.email == "ada@example.com", "nothing changes before the link is opened")
        let link = try #require(harness.standIn.latestOobLink(sentTo: "ada@example.com", requestType: "VERIFY_AND_CHANGE_EMAIL"))
        let page = try harness.runFakeBrowser(link)
        #expect(page.status == 0, "\(page)")
        #expect(harness.standIn.users.first?.email == "ada@new.example")
        let whoami = try harness.run(["whoami"])
        #expect(whoami.status == 3, "the change signed the session out: \(whoami)")
    }

    /// Issue 29, item 3: `email apply` of a change link reports success (exit 0), and the
    /// advice to sign in again names the new address, which works.
    @Test func applyingAnEmailChangeNamesTheNewAddress() throws {
        let harness = try harness()
        harness.standIn.createPasswordUser(email: "pat@example.com", password: "correct horse")
        #expect(try harness.run(["signin", "--provider", "password", "--email", "pat@example.com"], stdin: "correct horse\n").status == 0)
        #expect(try harness.run(["email", "change", "--new-email", "pat2@example.com"]).status == 0)
        let link = try #require(harness.standIn.latestOobLink(sentTo: "pat@example.com", requestType: "VERIFY_AND_CHANGE_EMAIL"))
        let applied = try harness.run(["email", "apply", "--link", "-"], stdin: link + "\n")
        #expect(applied.status == 0, "the change worked: \(applied)")
        #expect(applied.stderr.contains("The address is now pat2@example.com"), "\(applied.stderr)")
        #expect(applied.stderr.contains("--email pat2@example.com") && !applied.stderr.contains("--email pat@example.com"), "\(applied.stderr)")
        #expect(try harness.run(["signin", "--provider", "password", "--email", "pat2@example.com"], stdin: "correct horse\n").status == 0)
    }

    // MARK: Email links

    @Test func anEmailLinkOpenedInTheBrowserCompletesTheSignInAtTheListener() throws {
        let harness = try harness()
        let signin = try BackgroundProcess(["signin", "--provider", "emailLink", "--email", "ada@example.com", "--timeout", "60"], harness: harness)
        #expect(signin.waitForStderr(containing: "A sign-in link was sent to ada@example.com"), "\(signin.stderr)")
        let link = try #require(harness.standIn.latestOobLink(sentTo: "ada@example.com", requestType: "EMAIL_SIGNIN"))
        let sent = try #require(harness.bodies(of: "accounts:sendOobCode").last)
        let continueUrl = try #require(sent["continueUrl"] as? String)
        #expect(continueUrl.hasPrefix("http://localhost:") && continueUrl.contains("/__/auth/emailLink?state=") && sent["canHandleCodeInApp"] as? Bool == true)

        // Another local user who knows the port but not the state cannot end the wait.
        let port = try #require(URLComponents(string: continueUrl)?.port)
        let forged = try harness.runFakeBrowser("http://localhost:\(port)/__/auth/emailLink?state=guess&mode=signIn&oobCode=forged&apiKey=k")
        #expect(forged.status == 0)
        #expect(harness.standIn.requests(to: "accounts:signInWithEmailLink").isEmpty)

        #expect(try harness.runFakeBrowser(link).status == 0)
        let result = signin.finish()
        #expect(result.status == 0, "\(result)")
        #expect(result.json.string("user", "email") == "ada@example.com" && result.json[path: "user", "emailVerified"] as? Bool == true)
        #expect(result.json.string("additionalUserInfo", "providerId") == "password", "as the SDK reads it from the token (issue 29, item 13)")
        #expect(harness.browserSaw("Signed in"), "the browser was told: \(harness.browserPages)")
        #expect(harness.standIn.users.first?.emailLinkSignIn == true && harness.savedSessions.count == 1)
    }

    /// Issue 27, item 9: another user who read the continue URL (an emulator lists every
    /// pending link) mails a link of their own to it; the listener refuses it and waits on.
    @Test func aLinkMailedToAnotherAddressDoesNotEndTheWait() throws {
        let harness = try harness()
        let signin = try BackgroundProcess(["signin", "--provider", "emailLink", "--email", "ada@example.com", "--timeout", "60"], harness: harness)
        #expect(signin.waitForStderr(containing: "A sign-in link was sent to ada@example.com"), "\(signin.stderr)")
        let continueUrl = try #require(harness.bodies(of: "accounts:sendOobCode").last?["continueUrl"] as? String)

        let attack = try harness.postToStandIn("/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=any", [
            "requestType": "EMAIL_SIGNIN", "email": "eve@example.com", "continueUrl": continueUrl, "canHandleCodeInApp": true])
        #expect(attack.status == 200, "\(attack)")
        let evesLink = try #require(harness.standIn.latestOobLink(sentTo: "eve@example.com", requestType: "EMAIL_SIGNIN"))
        #expect(try harness.runFakeBrowser(evesLink).status == 0)
        #expect(signin.waitForStderr(containing: "a sign-in link sent to another address reached this sign-in and was refused"), "\(signin.stderr)")

        let link = try #require(harness.standIn.latestOobLink(sentTo: "ada@example.com", requestType: "EMAIL_SIGNIN"))
        #expect(try harness.runFakeBrowser(link).status == 0)
        let result = signin.finish()
        #expect(result.status == 0, "\(result)")
        #expect(result.json.string("user", "email") == "ada@example.com")
        #expect(harness.standIn.users.map(\.email) == ["ada@example.com"], "no account for eve")
    }

    @Test func aPastedEmailLinkSignsInAndLinksWithoutTheListener() throws {
        let harness = try harness()
        #expect(try harness.run(["signin", "--provider", "anonymous"]).status == 0)
        let uid = try #require(harness.standIn.users.first?.uid)
        // Sent by an earlier run (its listener is gone), pasted here.
        let waiting = try BackgroundProcess(["link", "--provider", "emailLink", "--email", "ada@example.com", "--timeout", "30"], harness: harness)
        #expect(waiting.waitForStderr(containing: "A sign-in link was sent"))
        waiting.interrupt()
        #expect(waiting.finish().status == 4)
        let link = try #require(harness.standIn.latestOobLink(sentTo: "ada@example.com", requestType: "EMAIL_SIGNIN"))

        let wrongEmail = try harness.run(["link", "--provider", "emailLink", "--email", "eve@example.com", "--link", "-"], stdin: link + "\n")
        #expect(wrongEmail.status == 1 && wrongEmail.stderr.contains("[INVALID_EMAIL]"), "\(wrongEmail)")
        let linked = try harness.run(["link", "--provider", "emailLink", "--email", "ada@example.com", "--link", "-"], stdin: link + "\n")
        #expect(linked.status == 0, "\(linked)")
        #expect(linked.json.string("user", "uid") == uid && harness.standIn.users.first?.email == "ada@example.com")
    }

    @Test func aLinkOpenedOnAnotherDeviceIsPastedIntoTheWaitingTerminal() throws {
        let harness = try harness()
        let signin = try BackgroundProcess(["signin", "--provider", "emailLink", "--email", "ada@example.com", "--timeout", "60"],
                                           harness: harness, withTerminal: true)
        #expect(signin.waitForStderr(containing: "paste it here"), "\(signin.stderr)")
        let terminal = try #require(signin.terminal)
        terminal.type("https://example.com/not-it")
        #expect(signin.waitForStderr(containing: "not a link from a Firebase email"), "\(signin.stderr)")
        // The mail's link, as copied on the phone (its continue URL's page cannot load there).
        let link = try #require(harness.standIn.latestOobLink(sentTo: "ada@example.com"))
        terminal.type(link)
        let result = signin.finish()
        #expect(result.status == 0, "\(result)")
        #expect(harness.standIn.users.first?.email == "ada@example.com")
    }

    // MARK: Provider tokens held already (CI)

    private func write(_ harness: Harness, _ name: String, _ text: String) -> String {
        let path = harness.directory + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        return path
    }

    @Test func providerTokensSignInAsOAuthProviderCredentialDoes() throws {
        let harness = try harness { $0.trustedAudiences = ["github-actions-audience"] }
        let google = harness.standIn.mintProviderCredential(providerId: "google.com", email: "g@example.com")
        let signedIn = try harness.run(["signin", "--provider", "google.com", "--id-token-file", "-"], stdin: google.idToken + "\n")
        #expect(signedIn.status == 0, "\(signedIn)")
        #expect(signedIn.json.string("user", "email") == "g@example.com" && signedIn.json.string("additionalUserInfo", "providerId") == "google.com")
        let body = try #require(harness.bodies(of: "accounts:signInWithIdp").last)
        #expect(body["requestUri"] as? String == "http://localhost" && (body["postBody"] as? String)?.contains("providerId=google.com") == true)

        let ci = harness.standIn.mintProviderCredential(providerId: "oidc.github-actions", email: "ci@example.com", audience: "github-actions-audience")
        let tokenFile = write(harness, "oidc-token", ci.idToken)
        #expect(try harness.run(["signin", "--provider", "oidc.github-actions", "--id-token-file", tokenFile]).status == 0)

        let apple = harness.standIn.mintProviderCredential(providerId: "apple.com", email: "a@example.com", nonce: "raw-nonce-123")
        let wrongNonce = try harness.run(["signin", "--provider", "apple.com", "--id-token-file", "-", "--nonce", "wrong"], stdin: apple.idToken)
        #expect(wrongNonce.status == 1 && wrongNonce.stderr.contains("[MISSING_OR_INVALID_NONCE]"), "\(wrongNonce)")
        #expect(try harness.run(["signin", "--provider", "apple.com", "--id-token-file", "-", "--nonce", "raw-nonce-123"], stdin: apple.idToken).status == 0)

        let twitter = harness.standIn.mintProviderCredential(providerId: "twitter.com", email: "t@example.com")
        let secret = write(harness, "secret", twitter.tokenSecret ?? "")
        let x = try harness.run(["signin", "--provider", "twitter.com", "--access-token-file", "-", "--token-secret-file", secret], stdin: twitter.accessToken)
        #expect(x.status == 0, "\(x)")
        #expect(!signedIn.stderr.contains(google.idToken) && !x.stderr.contains(twitter.accessToken))
    }

    @Test func tokensFirebaseCannotTakeAreRefusedLocally() throws {
        let harness = try harness()
        let yahoo = try harness.run(["signin", "--provider", "yahoo.com", "--access-token-file", "-"], stdin: "some-yahoo-token\n")
        #expect(yahoo.status == 2 && yahoo.stderr.contains("Firebase does not accept Yahoo tokens") && yahoo.stderr.contains("fbauth signin --provider yahoo.com"), "\(yahoo)")
        #expect(oneLine(yahoo))
        let github = try harness.run(["signin", "--provider", "github.com", "--id-token-file", "-"], stdin: "eyJhbGciOiJub25lIn0.e30.\n")
        #expect(github.status == 2 && github.stderr.contains("GitHub credentials are access tokens"), "\(github)")
        let lineBreak = try harness.run(["signin", "--provider", "google.com", "--access-token-file", "-"], stdin: "two\nlines\n")
        #expect(lineBreak.status == 2 && lineBreak.stderr.contains("is not a token"), "\(lineBreak)")
        let mixed = try harness.run(["signin", "--provider", "google.com", "--access-token-file", "-", "--loopback"], stdin: "t\n")
        #expect(mixed.status == 2 && mixed.stderr.contains("--loopback does not apply"), "\(mixed)")
        #expect(harness.standIn.requests(to: "accounts:signInWithIdp").isEmpty && storeBytes(harness) == nil)
    }

    @Test func aRefusedCredentialEchoedByTheServerIsNotPrinted() throws {
        let harness = try harness()
        let secret = "ya29.super-secret-access-token"
        harness.standIn.inject(Fault("accounts:signInWithIdp", .status(400, message: "INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: http://localhost?access_token=\(secret)&providerId=google.com")))
        let result = try harness.run(["signin", "--provider", "google.com", "--access-token-file", "-"], stdin: secret)
        #expect(result.status == 1 && result.stderr.contains("[INVALID_CREDENTIAL_OR_PROVIDER_ID]"), "\(result)")
        #expect(!result.stderr.contains("super-secret") && result.stderr.contains("access_token=[REDACTED]"), "\(result)")
    }

    @Test func providerTokensLinkAndReauthenticate() throws {
        let harness = try harness()
        harness.standIn.createPasswordUser(email: "ada@example.com", password: "correct horse")
        #expect(try harness.run(["signin", "--provider", "password", "--email", "ada@example.com"], stdin: "correct horse\n").status == 0)
        let github = harness.standIn.mintProviderCredential(providerId: "github.com", email: "ada@example.com")
        let linked = try harness.run(["link", "--provider", "github.com", "--access-token-file", "-"], stdin: github.accessToken)
        #expect(linked.status == 0, "\(linked)")
        #expect(harness.standIn.users.first?.providerIds == ["github.com"])
        let reauth = try harness.run(["reauth", "--provider", "github.com", "--access-token-file", "-"], stdin: github.accessToken)
        #expect(reauth.status == 0, "\(reauth)")
        let stranger = harness.standIn.mintProviderCredential(providerId: "google.com", email: "eve@example.com")
        let mismatch = try harness.run(["reauth", "--provider", "google.com", "--id-token-file", "-"], stdin: stranger.idToken)
        #expect(mismatch.status == 1 && mismatch.stderr.contains("user mismatch"), "\(mismatch)")
    }

    // MARK: Claims and the profile

    @Test func claimsAreShownAsGetIdTokenResultGivesThem() throws {
        let harness = try harness()
        let uid = harness.standIn.createPasswordUser(email: "ada@example.com", password: "correct horse")
        harness.standIn.setCustomClaims(uid: uid, ["admin": true, "plan": "pro"])
        #expect(try harness.run(["signin", "--provider", "password", "--email", "ada@example.com"], stdin: "correct horse\n").status == 0)
        let claims = try harness.run(["token", "--claims"])
        #expect(claims.status == 0, "\(claims)")
        #expect(claims.json["signInProvider"] as? String == "password" && claims.json["signInSecondFactor"] is NSNull && claims.json["tenant"] is NSNull)
        #expect((claims.json["authTime"] as? String)?.hasSuffix("Z") == true && claims.json["expirationTime"] is String)
        #expect(claims.json[path: "claims", "admin"] as? Bool == true && claims.json[path: "claims", "plan"] as? String == "pro")
        #expect(claims.json[path: "claims", "user_id"] as? String == uid)
        let whoami = try harness.run(["whoami", "--claims"])
        #expect(whoami.json[path: "claims", "user_id"] as? String == uid)
        #expect(try harness.run(["token", "--claims", "--json"]).status == 2)
    }

    @Test func theProfileIsSetAndCleared() throws {
        let harness = try harness()
        #expect(try harness.run(["signin", "--provider", "anonymous"]).status == 0)
        let set = try harness.run(["profile", "set", "--display-name", "Ada Lovelace", "--photo-url", "https://example.com/ada.png"])
        #expect(set.status == 0 && set.json["displayName"] as? String == "Ada Lovelace", "\(set)")
        #expect(harness.standIn.users.first?.photoUrl == "https://example.com/ada.png")
        let cleared = try harness.run(["profile", "set", "--photo-url", ""])
        #expect(cleared.status == 0 && harness.standIn.users.first?.photoUrl == nil && harness.standIn.users.first?.displayName == "Ada Lovelace")
        let before = storeBytes(harness)
        for bad in [["profile", "set", "--photo-url", "javascript:alert(1)"], ["profile", "set", "--display-name", "a\u{7}b"], ["profile", "set"], ["profile", "sett"]] {
            let result = try harness.run(bad)
            #expect(result.status == 2 && oneLine(result), "\(bad): \(result)")
        }
        #expect(storeBytes(harness) == before)
    }

    // MARK: reCAPTCHA Enterprise for password flows

    @Test func enforcedReCAPTCHAGetsATokenFromTheBrowserPageForEachAction() throws {
        let harness = try harness { $0.passwordRecaptchaEnforced = true }
        harness.standIn.createPasswordUser(email: "ada@example.com", password: "correct horse")
        let prefix = "fbauth-stand-in-recaptcha-enterprise.\(harness.standIn.configuration.recaptchaSiteKey)."
        func page(_ action: String) -> [String: String] { ["FBAUTH_FAKE_BROWSER_RESULT": #"{"token":"\#(prefix)\#(action)"}"#] }

        let signin = try harness.run(["signin", "--provider", "password", "--email", "ada@example.com"], stdin: "correct horse\n", environment: page("signInWithPassword"))
        #expect(signin.status == 0, "\(signin)")
        let sent = try #require(harness.bodies(of: "accounts:signInWithPassword").last)
        #expect(sent["captchaResponse"] as? String == prefix + "signInWithPassword" && sent["clientType"] as? String == "CLIENT_TYPE_WEB"
            && sent["recaptchaVersion"] as? String == "RECAPTCHA_ENTERPRISE")
        #expect(harness.bodies(of: "accounts:signInWithPassword").first?["captchaResponse"] == nil, "the first try goes without, as the JS SDK's")

        #expect(try harness.run(["signup", "--email", "bob@example.com"], stdin: "correct horse\n", environment: page("signUpPassword")).status == 0)
        #expect(try harness.run(["password", "reset", "--email", "ada@example.com"], environment: page("getOobCode")).status == 0)
        #expect(harness.bodies(of: "accounts:sendOobCode").last?["captchaResp"] as? String == prefix + "getOobCode")

        let wrongAction = try harness.run(["signin", "--provider", "password", "--email", "ada@example.com"], stdin: "correct horse\n", environment: page("getOobCode"))
        #expect(wrongAction.status == 1 && wrongAction.stderr.contains("[INVALID_RECAPTCHA_ACTION]"), "\(wrongAction)")
    }

    @Test(.enabled(if: Chromium.isInstalled || ProcessInfo.processInfo.environment["CI"] != nil, "chromium is not installed"))
    func thePasswordReCAPTCHAPageRunsInARealBrowser() throws {
        let harness = try harness { $0.passwordRecaptchaEnforced = true }
        harness.standIn.createPasswordUser(email: "ada@example.com", password: "correct horse")
        let log = harness.directory + "/chromium.log"
        let signin = try harness.run(["signin", "--provider", "password", "--email", "ada@example.com"], stdin: "correct horse\n",
                                     environment: Chromium.environment(log: log))
        #expect(signin.status == 0, "\(signin)\n\(Chromium.finalLog(log))")
        #expect(harness.bodies(of: "accounts:signInWithPassword").last?["captchaResponse"] as? String
            == "fbauth-stand-in-recaptcha-enterprise.\(harness.standIn.configuration.recaptchaSiteKey).signInWithPassword")
        #expect(signin.stderr.contains("Confirm the password sign-in (reCAPTCHA)"), "\(signin)")
    }

    // MARK: Google's Auth emulator

    @Test func theAuthEmulatorsEmailEndpointsWork() throws {
        let harness = try harness { $0.profile.differences.formUnion(EmulatorProfile.limitsOfGoogleEmulator); $0.checksRecaptcha = false }
        #expect(try harness.run(["signup", "--email", "ada@example.com"], stdin: "correct horse\n").status == 0)
        #expect(try harness.run(["verify-email"]).status == 0)
        let link = try #require(harness.standIn.latestOobLink(sentTo: "ada@example.com", requestType: "VERIFY_EMAIL"))
        #expect(try harness.run(["email", "apply", "--link", "-"], stdin: link + "\n").status == 0)
        let claims = try harness.run(["token", "--claims"])
        #expect(claims.json[path: "claims", "email_verified"] as? Bool == true, "\(claims)")
        let sent = harness.standIn.requests.map(\.body).joined()
        #expect(!sent.contains("captcha"), "no reCAPTCHA field reaches the emulator")
    }
}

extension Harness {
    /// Opens `url` in the fake browser, as a user clicking a link in the mail would.
    func runFakeBrowser(_ url: String) throws -> RunResult {
        try Subprocess.run(Binaries.url("fbauth-fake-browser"), [url], environment: environment, stdin: nil, directory: directory, timeout: 30)
    }
}
