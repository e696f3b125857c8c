import FBAuthStandIn
import Foundation
import Testing

/// token, whoami, accounts, use, signout: the saved session as a dependable source of tokens.
@Suite struct SessionLifecycleTests {
    private func signedIn(_ configuration: StandInConfiguration = StandInConfiguration(), email: String = "ada@example.com",
                          provider: String = "yahoo.com") throws -> (Harness, RunResult) {
        let harness = try Harness(configuration: configuration)
        let result = try harness.signIn(provider, ["--email", email])
        #expect(result.status == 0, "\(result)")
        return (harness, result)
    }

    private func sessionsBytes(_ harness: Harness) -> Data? { FileManager.default.contents(atPath: harness.sessionsPath) }

    @Test func aFreshTokenIsPrintedWithoutAnyRequest() throws {
        let (harness, signIn) = try signedIn()
        let before = harness.standIn.requests.count
        let bytes = sessionsBytes(harness)
        let result = try harness.run(["token"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == signIn.json.string("user", "idToken")! + "\n")
        #expect(result.stderr.isEmpty)
        #expect(harness.standIn.requests.count == before, "no network")
        #expect(sessionsBytes(harness) == bytes, "no write")
    }

    @Test func aTokenUnderTheThresholdIsRefreshedAndSaved() throws {
        var configuration = StandInConfiguration()
        configuration.idTokenLifetime = 120  // under the default --min-valid of 300 s
        let (harness, signIn) = try signedIn(configuration)
        let result = try harness.run(["token"])
        #expect(result.status == 0, "\(result)")
        let token = result.stdout.trimmingCharacters(in: .newlines)
        #expect(token != signIn.json.string("user", "idToken"))
        let refresh = try #require(harness.standIn.requests(to: "token").first)
        #expect(refresh.contentType == "application/x-www-form-urlencoded")
        #expect(refresh.body.hasPrefix("grant_type=refresh_token&refresh_token="))
        #expect(refresh.query == "key=test-api-key")
        #expect(harness.savedSessions.first?["idToken"] as? String == token)
        // --min-valid 0 accepts it as it is now.
        let again = try harness.run(["token", "--min-valid", "60"])
        #expect(again.stdout == result.stdout)
        #expect(harness.standIn.requests(to: "token").count == 1)
    }

    @Test func forceRefreshAlwaysRefreshes() throws {
        let (harness, signIn) = try signedIn()
        let result = try harness.run(["token", "--force-refresh"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout != signIn.json.string("user", "idToken")! + "\n")
        #expect(harness.standIn.requests(to: "token").count == 1)
    }

    @Test func aRevokedRefreshTokenIsExit3AndTheSessionStopsBeingUsed() throws {
        let (harness, signIn) = try signedIn()
        harness.standIn.revokeTokens(uid: signIn.json.string("user", "uid")!)
        let result = try harness.run(["token", "--force-refresh"])
        #expect(result.status == 3, "\(result)")
        #expect(result.stderr.contains("sign in again") && result.stderr.contains("TOKEN_EXPIRED"))
        #expect(result.stdout.isEmpty)
        // The tokens are gone: no further request is made.
        let requests = harness.standIn.requests.count
        let next = try harness.run(["token"])
        #expect(next.status == 3)
        #expect(harness.standIn.requests.count == requests)
        #expect(harness.savedSessions.first?["refreshToken"] as? String == "")
        #expect(try harness.run(["accounts"]).stdout.contains("sign in again"))
    }

    /// A deleted user must sign in again (exit 3); a disabled one is a refusal (exit 1), as in
    /// every other command and the exit-code table. Either way the session's tokens are dropped.
    @Test(arguments: [("disabled", "USER_DISABLED", Int32(1)), ("deleted", "USER_NOT_FOUND", Int32(3))])
    func aDisabledOrDeletedUserEndsTheSession(what: String, code: String, status: Int32) throws {
        let (harness, signIn) = try signedIn()
        let uid = signIn.json.string("user", "uid")!
        if what == "disabled" { harness.standIn.disableUser(uid: uid) } else { harness.standIn.deleteUser(uid: uid) }
        let result = try harness.run(["token", "--force-refresh"])
        #expect(result.status == status, "\(result)")
        #expect(result.stderr.contains(code))
        let whoami = try harness.run(["whoami"])
        #expect(whoami.status == 3, "the tokens are gone: \(whoami)")
        if what == "disabled" {
            let again = try harness.signIn("yahoo.com", ["--email", "ada@example.com"])
            #expect(again.status == 1 && again.stderr.contains("[USER_DISABLED]"), "signing in is refused with the same code: \(again)")
        }
    }

    @Test func serverTroubleIsExit6AndLeavesTheStoreByteForByte() throws {
        let (harness, _) = try signedIn()
        let bytes = sessionsBytes(harness)
        harness.standIn.inject(Fault("/v1/token", .status(503, message: "UNAVAILABLE"), count: 2))
        let unavailable = try harness.run(["token", "--force-refresh"])
        #expect(unavailable.status == 6, "\(unavailable)")
        #expect(unavailable.stderr.contains("HTTP 503"))
        #expect(harness.standIn.requests(to: "token").count == 2, "one retry")
        #expect(sessionsBytes(harness) == bytes)

        harness.standIn.inject(Fault("/v1/token", .status(429, message: "RESOURCE_EXHAUSTED"), count: 2))
        #expect(try harness.run(["token", "--force-refresh"]).status == 6)
        #expect(sessionsBytes(harness) == bytes)
    }

    @Test func noAnswerIsExit6AndLeavesTheStoreByteForByte() throws {
        let (harness, _) = try signedIn()
        let bytes = sessionsBytes(harness)
        // Faults last for a whole phase: on a loaded machine a request the client gave up on may
        // reach the stand-in late, or not at all.
        harness.standIn.inject(Fault("/v1/token", .delay(3), count: .max))
        let slow = try harness.run(["token", "--force-refresh"], environment: ["FBAUTH_HTTP_TIMEOUT": "0.5"])
        #expect(slow.status == 6, "\(slow)")
        #expect(slow.stderr.contains(harness.standIn.hostAndPort))
        #expect(sessionsBytes(harness) == bytes)

        harness.standIn.clearFaults()
        harness.standIn.inject(Fault("/v1/token", .dropConnection, count: .max))
        let dropped = try harness.run(["token", "--force-refresh"])
        #expect(dropped.status == 6, "\(dropped)\nrequests: \(harness.standIn.requests(to: "token").map { $0.receivedAt.timeIntervalSince1970 })")
        #expect(sessionsBytes(harness) == bytes)
    }

    @Test func aTransientFailureIsRetriedOnce() throws {
        let (harness, _) = try signedIn()
        harness.standIn.inject(Fault("/v1/token", .status(503, message: "UNAVAILABLE"), count: 1))
        let result = try harness.run(["token", "--force-refresh"])
        #expect(result.status == 0, "\(result)")
        #expect(harness.standIn.requests(to: "token").count == 2)
    }

    @Test func twentyParallelCallsOnAnExpiringTokenMakeOneRefresh() throws {
        var configuration = StandInConfiguration()
        configuration.idTokenLifetime = 120  // the saved token expires within --min-valid…
        let (harness, _) = try signedIn(configuration)
        harness.standIn.configuration.idTokenLifetime = 3600  // …and a refresh gives a full hour, as in production.
        let results = ParallelResults()
        DispatchQueue.concurrentPerform(iterations: 20) { _ in
            results.append(Result { try harness.run(["token"]) })
        }
        let runs = try results.values.map { try $0.get() }
        #expect(runs.count == 20)
        #expect(runs.allSatisfy { $0.status == 0 }, "\(runs.filter { $0.status != 0 })")
        #expect(Set(runs.map(\.stdout)).count == 1, "all print the refreshed token")
        #expect(harness.standIn.requests(to: "token").count == 1)
        #expect(harness.savedSessions.first?["idToken"] as? String == runs[0].stdout.trimmingCharacters(in: .newlines))
    }

    @Test func severalAccountsUseAndUser() throws {
        let (harness, ada) = try signedIn(email: "ada@example.com")
        let grace = try harness.signIn("github.com", ["--email", "grace@example.com"])
        let adaUID = ada.json.string("user", "uid")!, graceUID = grace.json.string("user", "uid")!

        let listing = try harness.run(["accounts"])
        let lines = listing.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first { $0.hasPrefix("*") }?.contains(graceUID) == true)
        #expect(lines.first { $0.hasPrefix(" ") }?.contains("ada@example.com") == true)
        #expect(lines.allSatisfy { $0.contains("valid for") })
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try harness.run(["accounts", "--json"]).stdout.utf8)) as? [[String: Any]])
        #expect(json.map { $0["current"] as? Bool } == [false, true])
        #expect(json.first?["providers"] as? [String] == ["yahoo.com"])

        #expect(try harness.run(["token"]).stdout == grace.json.string("user", "idToken")! + "\n")
        #expect(try harness.run(["token", "--user", "ADA@example.com"]).stdout == ada.json.string("user", "idToken")! + "\n")
        #expect(try harness.run(["whoami", "--offline", "--user", adaUID]).json.string("uid") == adaUID)

        let use = try harness.run(["use", "ada@example.com"])
        #expect(use.status == 0 && use.stderr.contains("Now using ada@example.com"))
        #expect(try harness.run(["token"]).stdout == ada.json.string("user", "idToken")! + "\n")

        let unknown = try harness.run(["use", "nobody@example.com"])
        #expect(unknown.status == 3 && unknown.stderr.contains("no saved session for 'nobody@example.com'"))
        #expect(try harness.run(["token", "--user", "nobody"]).status == 3)
    }

    @Test func anEmailWithSessionsInTwoTenantsIsAmbiguous() throws {
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com", ["--email", "twin@example.com", "--tenant-id", "t1"]).status == 0)
        #expect(try harness.signIn("yahoo.com", ["--email", "twin@example.com", "--tenant-id", "t2"]).status == 0)
        let result = try harness.run(["use", "twin@example.com"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("matches several saved sessions"))
    }

    @Test func signOutForgetsTheCurrentSessionAndAllForgetsEveryOne() throws {
        let (harness, ada) = try signedIn(email: "ada@example.com")
        #expect(try harness.signIn("github.com", ["--email", "grace@example.com"]).status == 0)
        let signOut = try harness.run(["signout"])
        #expect(signOut.status == 0 && signOut.stderr.contains("Signed out of grace@example.com"))
        // As gh: the other saved session of the project takes over, and fbauth says so.
        #expect(signOut.stderr.contains("ada@example.com is the current session now"), "\(signOut.stderr)")
        #expect(try harness.run(["token"]).stdout == ada.json.string("user", "idToken")! + "\n")
        #expect(try harness.run(["accounts"]).stdout.split(separator: "\n").count == 1)

        #expect(try harness.run(["signout", "--all"]).status == 0)
        #expect(harness.savedSessions.isEmpty)
        let again = try harness.run(["signout"])
        #expect(again.status == 3 && again.stderr.contains("not signed in"))
        #expect(try harness.run(["signout", "--all"]).status == 3)
        #expect(try harness.run(["signout", "--help"]).stdout.contains("revoked on the server side"))
    }

    @Test func whoamiReadsTheServerAndSavesWhatItLearned() throws {
        let (harness, signIn) = try signedIn()
        let uid = signIn.json.string("user", "uid")!
        harness.standIn.linkProvider(uid: uid, providerId: "github.com", email: "ada@example.com")

        let offline = try harness.run(["whoami", "--offline"])
        let offlineJSON = try #require(try JSONSerialization.jsonObject(with: Data(offline.stdout.utf8)) as? [String: Any], "\(offline)")
        #expect((offlineJSON["providerData"] as? [[String: Any]])?.count == 1)
        #expect(offlineJSON["uid"] as? String == uid && offlineJSON["idToken"] == nil && offlineJSON["refreshToken"] == nil, "no tokens unless --tokens")

        let before = harness.standIn.requests(to: "accounts:lookup").count
        let online = try harness.run(["whoami"])
        #expect(online.status == 0, "\(online)")
        #expect(harness.standIn.requests(to: "accounts:lookup").count == before + 1)
        let providers = (online.json["providerData"] as? [[String: Any]])?.compactMap { $0["providerId"] as? String }
        #expect(providers == ["yahoo.com", "github.com"])
        #expect((try harness.run(["whoami", "--offline"]).json["providerData"] as? [[String: Any]])?.count == 2)
        #expect(try harness.run(["whoami", "--offline", "--tokens"]).json["idToken"] as? String == signIn.json.string("user", "idToken"))
    }

    @Test func whoamiOfARevokedSessionIsExit3() throws {
        let (harness, signIn) = try signedIn()
        harness.standIn.deleteUser(uid: signIn.json.string("user", "uid")!)
        let result = try harness.run(["whoami"])
        #expect(result.status == 3, "\(result)")
        #expect(try harness.run(["token"]).status == 3)
    }

    /// `XDG_CONFIG_HOME` through the binary (issue 38, item 10): the sessions go to
    /// `$XDG_CONFIG_HOME/fbauth`, where the quick `token` path and `status` find them; a
    /// relative value is ignored, as the XDG Base Directory specification says.
    @Test func theConfigDirectoryFollowsXDGConfigHome() throws {
        let harness = try Harness()
        harness.environment["FBAUTH_CONFIG_DIR"] = nil
        harness.environment["XDG_CONFIG_HOME"] = harness.directory + "/xdg"
        let signin = try harness.signIn("yahoo.com")
        #expect(signin.status == 0 && signin.stderr.contains("the session is saved in \(harness.directory)/xdg/fbauth/sessions.json"), "\(signin)")
        #expect(FileManager.default.fileExists(atPath: harness.directory + "/xdg/fbauth/sessions.json"))
        #expect(!FileManager.default.fileExists(atPath: harness.directory + "/.config"), "nothing under HOME")
        let token = try harness.run(["token"])
        #expect(token.status == 0 && token.stdout == (signin.json.string("user", "idToken") ?? "-") + "\n", "\(token)")
        let status = try harness.run(["status"])
        #expect(status.stdout.hasSuffix("Sessions are stored in \(harness.directory)/xdg/fbauth/sessions.json; new refresh tokens are kept in sessions.json\n"), "\(status)")

        let relative = try harness.run(["status"], environment: ["XDG_CONFIG_HOME": "xdg"])
        #expect(relative.status == 3 && relative.stdout.hasSuffix("Sessions are stored in \(harness.directory)/.config/fbauth/sessions.json\n"), "\(relative)")
    }

    @Test func notSignedInIsExit3() throws {
        let harness = try Harness()
        for command in [["token"], ["whoami"], ["whoami", "--offline"], ["token", "--provider", "yahoo.com"]] {
            let result = try harness.run(command)
            #expect(result.status == 3, "\(command): \(result)")
            #expect(result.stderr.contains("not signed in"))
        }
        let accounts = try harness.run(["accounts", "--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(accounts.stdout.utf8)) as? [Any], "\(accounts)")
        #expect(accounts.status == 0 && list.isEmpty, "\(accounts)")
    }

    @Test func microsoftAccountsShowTheirObjectID() throws {
        let (harness, signIn) = try signedIn(email: "mia@outlook.example", provider: "microsoft.com")
        let whoami = try harness.run(["whoami"])
        let entry = try #require((whoami.json["providerData"] as? [[String: Any]])?.first)
        let uid = try #require(entry["uid"] as? String)
        #expect(uid.count == 16)
        let oid = try #require(entry["oid"] as? String)
        #expect(oid == "00000000-0000-0000-\(uid.prefix(4))-\(uid.suffix(12))")
        // The same oid the provider put in its ID token.
        let payload = try #require(signIn.json.string("credential", "idToken")?.split(separator: ".")[1])
        var base64 = payload.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        let claims = try #require(try JSONSerialization.jsonObject(with: Data(base64Encoded: base64)!) as? [String: Any])
        #expect(claims["oid"] as? String == oid)
    }

    @Test func providerAccessTokens() throws {
        var configuration = StandInConfiguration()
        // Long enough for a loaded machine to ask for it before it ends, shorter than --min-valid 60.
        configuration.providerTokenLifetime = 30
        let (harness, signIn) = try signedIn(configuration)
        let token = try harness.run(["token", "--provider", "yahoo.com"])
        #expect(token.status == 0, "\(token)")
        #expect(token.stdout == signIn.json.string("credential", "accessToken")! + "\n")
        let missing = try harness.run(["token", "--provider", "github.com"])
        #expect(missing.status == 3 && missing.stderr.contains("no github.com access token"))
        // The token lasts 30 s: asking for 60 s of validity finds it expired, without waiting.
        let expired = try harness.run(["token", "--provider", "yahoo.com", "--min-valid", "60"])
        #expect(expired.status == 3 && expired.stderr.contains("cannot refresh provider tokens"))
        #expect(try harness.run(["token", "--provider", "yahoo.com", "--force-refresh"]).status == 2)
        #expect(try harness.run(["token", "--min-valid", "3600"]).status == 2, "tokens never last longer than an hour")
    }
}

/// Results from concurrent runs.
final class ParallelResults: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Result<RunResult, Error>] = []
    func append(_ item: Result<RunResult, Error>) { lock.withLock { items.append(item) } }
    var values: [Result<RunResult, Error>] { lock.withLock { items } }
}

/// Issue 51, item 5: `signout` and `delete-account` follow one rule: when the current session
/// goes, the saved session that signed in most recently becomes current, and is named.
@Suite struct CurrentSessionAfterItGoesTests {
    @Test(arguments: [["signout"], ["delete-account", "--yes"]])
    func theMostRecentOtherSessionBecomesCurrent(_ command: [String]) throws {
        let harness = try Harness()
        let first = try harness.run(["signin", "--provider", "anonymous"])
        let second = try harness.run(["signin", "--provider", "anonymous"])
        let third = try harness.run(["signin", "--provider", "anonymous"])
        let uids = [first, second, third].map { $0.json.string("user", "uid") ?? "" }
        #expect(Set(uids).count == 3, "\(uids)")
        let gone = try harness.run(command)
        #expect(gone.status == 0, "\(gone)")
        #expect(gone.stderr.contains("\(uids[1]) is the current session now (`fbauth use` switches)."), "\(gone.stderr)")
        let status = try harness.run(["whoami", "--offline"])
        #expect(status.status == 0 && status.json["uid"] as? String == uids[1], "\(status)")
    }
}
