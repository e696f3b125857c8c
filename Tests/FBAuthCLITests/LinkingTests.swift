import FBAuthStandIn
import Foundation
import Testing

/// link, reauth, unlink, delete-account, the account-exists resolution, and the browserless
/// sign-in methods.
@Suite struct LinkingTests {
    private func providers(_ json: [String: Any], _ keys: String...) -> [String] {
        var current: Any? = json
        for key in keys { current = (current as? [String: Any])?[key] }
        return (current as? [[String: Any]] ?? []).compactMap { $0["providerId"] as? String }
    }

    private func user(_ harness: Harness, _ uid: String?) -> StandInUser? {
        harness.standIn.users.first { $0.uid == uid }
    }

    @Test func linkingASecondProviderUpdatesUserAndSession() throws {
        let harness = try Harness()
        let signIn = try harness.signIn("yahoo.com", ["--email", "ada@example.com"])
        let uid = signIn.json.string("user", "uid")
        let link = try harness.run(["link", "--loopback", "--provider", "github.com", "--email", "ada@example.com", "--port", "0", "--timeout", "30"])
        #expect(link.status == 0, "\(link)")
        #expect(link.json.string("user", "uid") == uid)
        #expect(providers(link.json, "user", "providerData") == ["yahoo.com", "github.com"])
        #expect(link.json.string("credential", "providerId") == "github.com")
        #expect(user(harness, uid)?.providerIds == ["yahoo.com", "github.com"])
        let exchange = try #require(harness.bodies(of: "accounts:signInWithIdp").last)
        #expect(exchange["idToken"] as? String == signIn.json.string("user", "idToken"))
        let saved = try #require(harness.savedSessions.first)
        #expect((saved["providerData"] as? [[String: Any]])?.count == 2)
        #expect((saved["providerCredentials"] as? [[String: Any]])?.compactMap { $0["providerId"] as? String } == ["yahoo.com", "github.com"])
        #expect(try harness.run(["token", "--provider", "github.com"]).stdout == link.json.string("credential", "accessToken")! + "\n")
    }

    @Test func anAlreadyLinkedProviderIsRefusedBeforeAnyBrowserOpens() throws {
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com").status == 0)
        let before = harness.standIn.requests.count
        let result = try harness.run(["link", "--loopback", "--provider", "yahoo.com", "--port", "0"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("yahoo.com is already linked"))
        #expect(harness.standIn.requests.count == before)
        #expect(harness.browserPages(atLeast: 4).count == 4, "only the sign-in's pages: start, provider, consent, result")
    }

    @Test func aProviderAccountOfAnotherUserCannotBeLinked() throws {
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com", ["--email", "owner@example.com"]).status == 0)
        #expect(try harness.signIn("github.com", ["--email", "other@example.com"]).status == 0)
        let result = try harness.run(["link", "--loopback", "--provider", "yahoo.com", "--email", "owner@example.com", "--port", "0", "--timeout", "30"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("this Yahoo account is already linked to another Firebase user"))
        #expect(result.stdout.isEmpty)
    }

    @Test func anEmailOfAnotherUserCannotBeLinked() throws {
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com", ["--email", "owner@example.com"]).status == 0)
        #expect(try harness.signIn("github.com", ["--email", "other@example.com"]).status == 0)
        let result = try harness.run(["link", "--loopback", "--provider", "microsoft.com", "--email", "owner@example.com", "--port", "0", "--timeout", "30"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("already belongs to another Firebase user [EMAIL_EXISTS]"))
    }

    @Test func reauthAsTheSameUserRenewsTheSession() throws {
        let harness = try Harness()
        let signIn = try harness.signIn("yahoo.com", ["--email", "ada@example.com"])
        harness.standIn.advanceClock(by: 2)  // new tokens carry a later issue time
        // The sign-in was a while ago (rather than waiting for fbauth's clock to move).
        let stored = try String(contentsOfFile: harness.sessionsPath, encoding: .utf8)
        let earlier = stored.replacingOccurrences(of: #""lastSignInTime" : "[^"]*""#, with: #""lastSignInTime" : "2020-01-01T00:00:00Z""#, options: .regularExpression)
        #expect(earlier != stored)
        try earlier.write(toFile: harness.sessionsPath, atomically: true, encoding: .utf8)
        chmod(harness.sessionsPath, 0o600)
        let reauth = try harness.run(["reauth", "--loopback", "--provider", "yahoo.com", "--email", "ada@example.com", "--port", "0", "--timeout", "30"])
        #expect(reauth.status == 0, "\(reauth)")
        #expect(harness.bodies(of: "accounts:signInWithIdp").last?["autoCreate"] as? Bool == false)
        #expect(harness.bodies(of: "accounts:signInWithIdp").last?["idToken"] == nil)
        let saved = try #require(harness.savedSessions.first)
        #expect(saved["idToken"] as? String == reauth.json.string("user", "idToken"))
        #expect(saved["idToken"] as? String != signIn.json.string("user", "idToken"))
        #expect(saved["lastSignInTime"] as? String != "2020-01-01T00:00:00Z", "the sign-in time is renewed")
    }

    @Test func reauthAsAnotherUserIsAMismatchAndLeavesTheSession() throws {
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com", ["--email", "a@example.com"]).status == 0)
        #expect(try harness.signIn("yahoo.com", ["--email", "b@example.com"]).status == 0)
        let before = FileManager.default.contents(atPath: harness.sessionsPath)
        let other = try harness.run(["reauth", "--loopback", "--provider", "yahoo.com", "--email", "a@example.com", "--port", "0", "--timeout", "30"])
        #expect(other.status == 1, "\(other)")
        #expect(other.stderr.contains("user mismatch") && other.stderr.contains("a@example.com"))
        #expect(FileManager.default.contents(atPath: harness.sessionsPath) == before)

        let unknown = try harness.run(["reauth", "--loopback", "--provider", "github.com", "--email", "b@example.com", "--port", "0", "--timeout", "30"])
        #expect(unknown.status == 1, "\(unknown)")
        #expect(unknown.stderr.contains("user mismatch"))
        #expect(harness.standIn.users.count == 2, "reauthentication never creates a user")
        #expect(FileManager.default.contents(atPath: harness.sessionsPath) == before)
    }

    @Test func reauthWithAPassword() throws {
        let harness = try Harness()
        harness.standIn.createPasswordUser(email: "pat@example.com", password: "correct horse")
        #expect(try harness.run(["signin", "--provider", "password", "--email", "pat@example.com"], stdin: "correct horse\n").status == 0)
        let reauth = try harness.run(["reauth", "--provider", "password"], stdin: "correct horse")
        #expect(reauth.status == 0, "\(reauth)")
        let wrong = try harness.run(["reauth", "--provider", "password"], stdin: "wrong")
        #expect(wrong.status == 1 && wrong.stderr.hasSuffix("the email or password is wrong [INVALID_LOGIN_CREDENTIALS]\n") && !wrong.stderr.contains("wrong\n\n"), "\(wrong)")
    }

    @Test func theWholeAccountExistsResolution() throws {
        // A project whose sign-in methods can be looked up (enumeration protection off, as
        // before September 2023), so the advice names them.
        var configuration = StandInConfiguration()
        configuration.emailEnumerationProtection = false
        let harness = try Harness(configuration: configuration)
        let uid = harness.standIn.createPasswordUser(email: "pat@example.com", password: "correct horse")

        // Microsoft reports the email unverified, so Firebase asks to confirm: exit 5.
        let microsoft = try harness.signIn("microsoft.com", ["--email", "pat@example.com"])
        #expect(microsoft.status == 5, "\(microsoft)")
        #expect(microsoft.stderr.contains("An account already exists for pat@example.com; it signs in with: password."))
        #expect(microsoft.stderr.contains("fbauth signin --provider password --email pat@example.com"))
        #expect(microsoft.stderr.contains("fbauth link --pending"))
        let pending = try #require((harness.sessionsFile?["projects"] as? [String: Any])?.values.first.flatMap { ($0 as? [String: Any])?["pendingCredential"] } as? [String: Any])
        #expect(pending["providerId"] as? String == "microsoft.com")
        #expect(pending["email"] as? String == "pat@example.com")
        #expect((pending["pendingToken"] as? String)?.isEmpty == false)
        #expect(pending["accessToken"] as? String != nil && pending["savedAt"] as? String != nil)

        // Sign in to the existing account, then link the saved credential.
        let password = try harness.run(["signin", "--provider", "password", "--email", "pat@example.com"], stdin: "correct horse\n")
        #expect(password.status == 0, "\(password)")
        #expect(password.json.string("user", "uid") == uid)
        #expect(password.json[path: "credential"] is NSNull)
        let link = try harness.run(["link", "--pending"])
        #expect(link.status == 0, "\(link)")
        let exchange = try #require(harness.bodies(of: "accounts:signInWithIdp").last)
        #expect(exchange["requestUri"] as? String == "http://localhost")
        #expect(exchange["pendingToken"] as? String == pending["pendingToken"] as? String)
        #expect(exchange["idToken"] as? String == password.json.string("user", "idToken"))
        #expect(Set(user(harness, uid)?.providerIds ?? []) == ["microsoft.com"] && user(harness, uid)?.hasPassword == true)
        #expect(Set(providers(link.json, "user", "providerData")) == ["password", "microsoft.com"])

        // The pending credential is gone.
        let project = (harness.sessionsFile?["projects"] as? [String: Any])?.values.first as? [String: Any]
        #expect(project?["pendingCredential"] == nil)
        let again = try harness.run(["link", "--pending"])
        #expect(again.status == 3 && again.stderr.contains("no pending credential"))
    }

    @Test func anOldPendingCredentialIsReportedButStillTried() throws {
        let harness = try Harness()
        harness.standIn.createPasswordUser(email: "pat@example.com", password: "correct horse")
        #expect(try harness.signIn("microsoft.com", ["--email", "pat@example.com"]).status == 5)
        #expect(try harness.run(["signin", "--provider", "password", "--email", "pat@example.com"], stdin: "correct horse").status == 0)
        // Age the saved credential by two hours.
        var text = try String(contentsOfFile: harness.sessionsPath, encoding: .utf8)
        let savedAt = try #require(text.firstRange(of: #/"savedAt" : "([^"]+)"/#))
        let old = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-7200))
        text.replaceSubrange(savedAt, with: "\"savedAt\" : \"\(old)\"")
        try text.write(toFile: harness.sessionsPath, atomically: true, encoding: .utf8)
        let link = try harness.run(["link", "--pending"])
        #expect(link.stderr.contains("has probably expired; trying anyway"))
        #expect(link.status == 0, "\(link)")
    }

    @Test func providersForAnEmail() throws {
        // Methods are listed only where enumeration protection is off (projects from before
        // September 2023); the protected case follows.
        var open = StandInConfiguration()
        open.emailEnumerationProtection = false
        let harness = try Harness(configuration: open)
        harness.standIn.createPasswordUser(email: "pat@example.com", password: "secret1")
        let known = try harness.run(["providers", "--email", "pat@example.com"])
        #expect(known.status == 0, "\(known)")
        #expect(try JSONSerialization.jsonObject(with: Data(known.stdout.utf8)) as? [String] == ["password"])
        #expect(harness.bodies(of: "accounts:createAuthUri").last?["continueUri"] as? String == "http://localhost")
        let unknown = try harness.run(["providers", "--email", "nobody@example.com"])
        #expect(unknown.status == 0 && unknown.stdout.contains("[") && unknown.stderr.contains("No account uses"))

        var configuration = StandInConfiguration()
        configuration.emailEnumerationProtection = true
        let protected = try Harness(configuration: configuration)
        protected.standIn.createPasswordUser(email: "pat@example.com", password: "secret1")
        let hidden = try protected.run(["providers", "--email", "pat@example.com"])
        #expect(try JSONSerialization.jsonObject(with: Data(hidden.stdout.utf8)) as? [String] == [])
        #expect(hidden.stderr.contains("does not reveal sign-in methods"))
    }

    @Test func anAnonymousUserIsUpgradedByLinking() throws {
        let harness = try Harness()
        let anonymous = try harness.run(["signin", "--provider", "anonymous"])
        #expect(anonymous.status == 0, "\(anonymous)")
        #expect(anonymous.json[path: "user", "isAnonymous"] as? Bool == true)
        #expect(anonymous.json[path: "additionalUserInfo", "isNewUser"] as? Bool == true)
        #expect(anonymous.json[path: "additionalUserInfo", "providerId"] is NSNull)
        let link = try harness.run(["link", "--loopback", "--provider", "yahoo.com", "--email", "anon@example.com", "--port", "0", "--timeout", "30"])
        #expect(link.status == 0, "\(link)")
        #expect(link.json.string("user", "uid") == anonymous.json.string("user", "uid"))
        #expect(link.json[path: "user", "isAnonymous"] as? Bool == false)
        #expect(link.json.string("user", "email") == "anon@example.com")
    }

    @Test func customTokensFromAFileOrStdin() throws {
        let harness = try Harness()
        let token = harness.standIn.customToken(uid: "server-made-uid")
        let file = harness.directory + "/custom.jwt"
        try (token + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let fromFile = try harness.run(["signin", "--provider", "custom", "--token-file", file])
        #expect(fromFile.status == 0, "\(fromFile)")
        #expect(fromFile.json.string("user", "uid") == "server-made-uid")
        #expect(fromFile.json[path: "additionalUserInfo", "isNewUser"] as? Bool == true)
        let fromStdin = try harness.run(["signin", "--provider", "custom", "--token-file", "-"], stdin: token)
        #expect(fromStdin.status == 0 && fromStdin.json[path: "additionalUserInfo", "isNewUser"] as? Bool == false)
        let bad = try harness.run(["signin", "--provider", "custom", "--token-file", "-"], stdin: "not-a-token")
        #expect(bad.status == 1 && bad.stderr.contains("the custom token is not valid"))
        #expect(!fromFile.stderr.contains(token) && !fromFile.stdout.contains(token), "the custom token is never echoed")
    }

    @Test func browserlessMethodsRefuseFlowOptionsAndSecretsInArguments() throws {
        let harness = try Harness()
        for (arguments, message) in [
            (["signin", "--provider", "password", "--email", "a@b.c", "--scope", "x"], "--scope does not apply to --provider password"),
            (["signin", "--provider", "password"], "missing --email"),
            (["signin", "--provider", "password", "--email", "a@b.c", "--password", "hunter2"], "unknown option '--password'"),
            (["signin", "--provider", "anonymous", "--email", "a@b.c"], "--email does not apply to --provider anonymous"),
            (["signin", "--provider", "custom"], "missing --token-file"),
            (["signin", "--loopback", "--provider", "yahoo.com", "--token-file", "f"], "--token-file applies only to --provider custom"),
            (["link", "--pending", "--provider", "yahoo.com"], "leave out --provider"),
        ] {
            let result = try harness.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        let empty = try harness.run(["signin", "--provider", "password", "--email", "a@b.c"], stdin: "")
        #expect(empty.status == 2 && empty.stderr.contains("no password on stdin"))
        #expect(harness.standIn.requests.isEmpty)
    }

    /// A wrong password and an unknown address get one answer, as production gives them on
    /// every project created since September 2023 (email enumeration protection).
    @Test func passwordErrors() throws {
        let harness = try Harness()
        harness.standIn.createPasswordUser(email: "pat@example.com", password: "correct horse")
        let wrong = try harness.run(["signin", "--provider", "password", "--email", "pat@example.com"], stdin: "nope\n")
        #expect(wrong.status == 1 && wrong.stderr == "fbauth: password sign-in failed: the email or password is wrong [INVALID_LOGIN_CREDENTIALS]\n", "\(wrong.stderr)")
        let missing = try harness.run(["signin", "--provider", "password", "--email", "who@example.com"], stdin: "x\n")
        #expect(missing.status == 1 && missing.stderr == wrong.stderr, "the same answer: \(missing.stderr)")
        #expect(harness.savedSessions.isEmpty)

        // A project from before then (protection off) says which.
        var configuration = StandInConfiguration()
        configuration.emailEnumerationProtection = false
        let older = try Harness(configuration: configuration)
        older.standIn.createPasswordUser(email: "pat@example.com", password: "correct horse")
        let oldWrong = try older.run(["signin", "--provider", "password", "--email", "pat@example.com"], stdin: "nope\n")
        #expect(oldWrong.status == 1 && oldWrong.stderr.hasSuffix("the password is wrong [INVALID_PASSWORD]\n") && !oldWrong.stderr.contains("nope"), "\(oldWrong.stderr)")
        let oldMissing = try older.run(["signin", "--provider", "password", "--email", "who@example.com"], stdin: "x\n")
        #expect(oldMissing.status == 1 && oldMissing.stderr.hasSuffix("there is no user with this email address [EMAIL_NOT_FOUND]\n"), "\(oldMissing.stderr)")
    }

    @Test func unlinkRemovesTheProvider() throws {
        let harness = try Harness()
        let signIn = try harness.signIn("yahoo.com", ["--email", "ada@example.com"])
        #expect(try harness.run(["link", "--loopback", "--provider", "github.com", "--email", "ada@example.com", "--port", "0", "--timeout", "30"]).status == 0)
        let unlink = try harness.run(["unlink", "--provider", "github.com"])
        #expect(unlink.status == 0, "\(unlink)")
        #expect(providers(unlink.json, "providerData") == ["yahoo.com"])
        #expect(harness.bodies(of: "accounts:update").last?["deleteProvider"] as? [String] == ["github.com"])
        #expect(user(harness, signIn.json.string("user", "uid"))?.providerIds == ["yahoo.com"])
        #expect((harness.savedSessions.first?["providerData"] as? [[String: Any]])?.count == 1)
        #expect(try harness.run(["token", "--provider", "github.com"]).status == 3, "its saved token went too")

        let before = harness.standIn.requests.count
        let again = try harness.run(["unlink", "--provider", "github.com"])
        #expect(again.status == 1 && again.stderr.contains("github.com is not linked"))
        #expect(harness.standIn.requests.count == before)
    }

    @Test func deleteAccountNeedsARecentLoginAndConfirmation() throws {
        let harness = try Harness()
        let signIn = try harness.signIn("yahoo.com", ["--email", "ada@example.com"])
        let uid = signIn.json.string("user", "uid")

        let unconfirmed = try harness.run(["delete-account"])
        #expect(unconfirmed.status == 2 && unconfirmed.stderr.contains("pass --yes"))

        harness.standIn.advanceClock(by: 10 * 60)
        let stale = try harness.run(["delete-account", "--yes"])
        #expect(stale.status == 1, "\(stale)")
        #expect(stale.stderr.contains("run `fbauth reauth --provider yahoo.com` first"))
        #expect(user(harness, uid) != nil)

        #expect(try harness.run(["reauth", "--loopback", "--provider", "yahoo.com", "--email", "ada@example.com", "--port", "0", "--timeout", "30"]).status == 0)
        let deleted = try harness.run(["delete-account", "--yes"])
        #expect(deleted.status == 0, "\(deleted)")
        #expect(user(harness, uid) == nil)
        #expect(harness.savedSessions.isEmpty)
        #expect(try harness.run(["token"]).status == 3)
    }
}
