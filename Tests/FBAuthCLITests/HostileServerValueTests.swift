import FBAuthStandIn
import Foundation
import Testing

/// The third hardening pass, a hostile or broken server: numbers, dates, tokens and text in its
/// answers that would poison the store, inject headers through `$(fbauth token)`, or drive the
/// terminal. Each is refused (or cleaned) before it is saved or shown; the store stays usable.
@Suite struct HostileServerValueTests {
    private func store(_ harness: Harness) -> Data? { FileManager.default.contents(atPath: harness.sessionsPath) }

    private func signedIn() throws -> Harness {
        let harness = try Harness()
        let result = try harness.signIn("yahoo.com", ["--email", "ada@example.com"])
        #expect(result.status == 0, "\(result)")
        return harness
    }

    // MARK: Item 3: dates and lifetimes

    @Test(arguments: [
        ("accounts:signInWithIdp", "expiresIn", "-1e11"),
        ("accounts:signInWithIdp", "expiresIn", "\"-9223372036854775808\""),
        ("accounts:signInWithIdp", "expiresIn", "\"9223372036854775807\""),
        ("accounts:signInWithIdp", "expiresIn", "1e308"),
        ("accounts:signInWithIdp", "expiresIn", "0"),
        ("accounts:signInWithIdp", "oauthExpireIn", "-1e11"),
        ("accounts:signInWithIdp", "oauthExpireIn", "9223372036854775807"),
    ])
    func anOutOfRangeLifetimeRefusesTheSignIn(endpoint: String, field: String, json: String) throws {
        let harness = try signedIn()
        let before = store(harness)
        harness.standIn.inject(Fault(endpoint, .amend([(field, json)])))
        let result = try harness.signIn("github.com", ["--email", "grace@example.com"])
        #expect(result.status == 1, "\(field) \(json): \(result)")
        #expect(result.stderr.contains("its \(field)") && result.stderr.contains("nothing was saved"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").last?.hasPrefix("fbauth:") == true)
        #expect(store(harness) == before, "the store is as it was")
        #expect(try harness.run(["status"]).status == 0, "and every command still reads it")
    }

    @Test(arguments: ["9223372036854775807", "-1e11", "\"-9223372036854775808\""])
    func anOutOfRangeRefreshLifetimeLeavesTheStoreAsItWas(json: String) throws {
        let harness = try signedIn()
        let before = store(harness)
        harness.standIn.inject(Fault("/v1/token", .amend([("expires_in", json)])))
        let refresh = try harness.run(["token", "--force-refresh"])
        #expect(refresh.status == 1, "\(refresh)")
        #expect(refresh.stderr.contains("its expires_in") && refresh.stderr.contains("is not a whole number from 1 to 86400"), "\(refresh.stderr)")
        #expect(store(harness) == before)
        #expect(try harness.run(["token"]).status == 0)
    }

    @Test(arguments: ["\"-99999999999999\"", "\"99999999999999999\"", "\"1e308\""])
    func anOutOfRangeAccountDateIsRefused(createdAt: String) throws {
        let harness = try signedIn()
        let before = store(harness)
        let uid = try #require(harness.savedSessions.first?["uid"] as? String)
        harness.standIn.inject(Fault("accounts:lookup", .amend([("users", "[{\"localId\":\"\(uid)\",\"createdAt\":\(createdAt)}]")])))
        let whoami = try harness.run(["whoami"])
        #expect(whoami.status == 1, "\(whoami)")
        #expect(whoami.stderr.contains("its createdAt"), "\(whoami.stderr)")
        #expect(store(harness) == before)
    }

    /// A store an earlier fbauth saved from such an answer: its dates read as "expired", so the
    /// next use refreshes, instead of every command failing on the file.
    @Test func datesAlreadySavedOutOfRangeReadAsExpired() throws {
        let harness = try signedIn()
        var text = try String(contentsOfFile: harness.sessionsPath, encoding: .utf8)
        let expiry = try #require(harness.savedSessions.first?["expirationTime"] as? String)
        let created = try #require(harness.savedSessions.first?["creationTime"] as? String)
        text = text.replacing("\"\(expiry)\"", with: "\"-1144-12-04T23:06:40Z\"").replacing("\"\(created)\"", with: "\"506713-02-07T00:00:00Z\"")
        try text.write(toFile: harness.sessionsPath, atomically: true, encoding: .utf8)

        let status = try harness.run(["status"])
        #expect(status.status == 0, "\(status)")
        #expect(status.stdout.contains("token: expired"), "\(status.stdout)")
        #expect(try harness.run(["accounts", "--all"]).status == 0)
        let refreshes = harness.standIn.requests(to: "token").count
        let token = try harness.run(["token"])
        #expect(token.status == 0, "\(token)")
        #expect(harness.standIn.requests(to: "token").count == refreshes + 1, "the expired token was refreshed")
        #expect(try harness.run(["status"]).stdout.contains("token: valid"))
        #expect(!(try String(contentsOfFile: harness.sessionsPath, encoding: .utf8)).contains("-1144"))
    }

    // MARK: Item 4: tokens that are not tokens

    @Test(arguments: [
        ("accounts:signInWithIdp", "idToken", #""eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.\r\nX-Evil: 1""#),
        ("accounts:signInWithIdp", "idToken", #""not a jwt""#),
        ("accounts:signInWithIdp", "refreshToken", #""AMf-vB\nX-Evil: 1""#),
        ("accounts:signInWithIdp", "oauthAccessToken", #""yahoo-token\r\nX-Evil: 1""#),
        ("accounts:signInWithIdp", "oauthTokenSecret", #""secret with spaces""#),
        ("accounts:signInWithIdp", "localId", #""uid\u001b]0;pwned\u0007""#),
    ])
    func aTokenWithCharactersNoTokenHasIsRefusedOnArrival(endpoint: String, field: String, json: String) throws {
        let harness = try signedIn()
        let before = store(harness)
        harness.standIn.inject(Fault(endpoint, .amend([(field, json)])))
        let result = try harness.signIn("github.com", ["--email", "grace@example.com"])
        #expect(result.status == 1, "\(field): \(result)")
        #expect(result.stderr.contains("its \(field)") && result.stderr.contains("nothing was saved"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(store(harness) == before)
        let token = try harness.run(["token"])
        #expect(token.status == 0 && !token.stdout.contains("Evil") && token.stdout.filter { $0 == "\n" }.count == 1)
    }

    @Test(arguments: ["id_token", "access_token", "refresh_token"])
    func aRefreshedTokenWithALineBreakIsRefused(field: String) throws {
        let harness = try signedIn()
        let before = store(harness)
        harness.standIn.inject(Fault("/v1/token", .amend([(field, #""eyJ.eyJ.x\r\nX-Evil: 1""#)] + (field == "access_token" ? [("id_token", "null")] : []))))
        let refresh = try harness.run(["token", "--force-refresh"])
        #expect(refresh.status == 1, "\(refresh)")
        #expect(!refresh.stdout.contains("Evil"))
        #expect(store(harness) == before)
    }

    // MARK: Item 5: escape sequences from the server

    /// Values that reach `status`, `accounts --all` and `use` from an earlier session's answers.
    @Test func escapeSequencesInSavedValuesNeverReachTheTerminal() throws {
        let harness = try signedIn()
        let uid = try #require(harness.savedSessions.first?["uid"] as? String)
        var text = try String(contentsOfFile: harness.sessionsPath, encoding: .utf8)
        let hostile = #"\u001b[2J\u001b]0;pwned\u0007"#
        text = text.replacing("\"\(uid)\"", with: "\"\(uid)\(hostile)\"")
            .replacing("\"providerId\" : \"yahoo.com\"", with: "\"providerId\" : \"yahoo.com\(hostile)\"")
            .replacing("\"projectId\" : \"fbauth-stand-in\"", with: "\"projectId\" : \"fbauth-stand-in\(hostile)\"")
        try text.write(toFile: harness.sessionsPath, atomically: true, encoding: .utf8)
        #expect(text.contains("pwned"))
        for arguments in [["status"], ["accounts", "--all"], ["accounts"], ["use", "ada@example.com"], ["whoami", "--offline"]] {
            let result = try harness.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result)")
            let shown = result.stdout + result.stderr
            #expect(!shown.contains("\u{1b}") && !shown.contains("\u{07}"), "\(arguments): \(shown.debugDescription)")
        }
        #expect(try harness.run(["status"]).stdout.contains("pwned"), "the text is shown, cleaned")
    }
}
