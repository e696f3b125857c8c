import FBAuthStandIn
import Foundation
import Testing
import TestSupport

/// Issue 27, items 3, 5 and 6: what a hostile or careless server sends back reaches the terminal
/// without the secrets fbauth sent it, and without characters that reorder what the user reads;
/// secrets in files others can read are pointed out.
@Suite struct EchoAndSpoofingTests {
    // MARK: 3. Secrets a server echoes back

    @Test(arguments: [["--verbose"], []])
    func aPasswordTheServerQuotesIsNotPrinted(extra: [String]) throws {
        let harness = try Harness()
        harness.standIn.createPasswordUser(email: "pat@example.com", password: "hunter2-horse")
        harness.standIn.inject(Fault("accounts:signInWithPassword", .echo(status: 400, code: "INVALID_ARGUMENT")))
        let result = try harness.run(["signin", "--provider", "password", "--email", "pat@example.com"] + extra, stdin: "hunter2-horse\n")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("you sent") && result.stderr.contains("[REDACTED]"), "\(result.stderr)")
        #expect(!result.stderr.contains("hunter2"), "\(result.stderr)")
    }

    @Test func aShortPasswordIsRemovedAsAWordOnly() throws {
        let harness = try Harness()
        harness.standIn.createPasswordUser(email: "pw@example.com", password: "pw")
        harness.standIn.inject(Fault("accounts:signInWithPassword", .echo(status: 400, code: "INVALID_ARGUMENT")))
        let result = try harness.run(["signin", "--provider", "password", "--email", "pw@example.com", "--verbose"], stdin: "pw\n")
        #expect(result.status == 1, "\(result)")
        #expect(!result.stderr.contains(#""pw""#) && !result.stderr.contains(":pw"), "\(result.stderr)")
        #expect(result.stderr.contains("pw@example.com"), "other words keep their letters: \(result.stderr)")
    }

    @Test func aRefreshTokenAndACustomTokenTheServerQuotesAreNotPrinted() throws {
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com", ["--email", "ada@example.com"]).status == 0)
        let refreshToken = try #require(harness.savedSessions.first?["refreshToken"] as? String)
        harness.standIn.inject(Fault("/v1/token", .echo(status: 400, code: "INVALID_GRANT_TYPE")))
        let refresh = try harness.run(["token", "--force-refresh", "--verbose"])
        #expect(refresh.status != 0, "\(refresh)")
        #expect(refresh.stderr.contains("you sent") && !refresh.stderr.contains(refreshToken), "\(refresh.stderr)")

        let customToken = harness.standIn.customToken(uid: "custom-1")
        harness.standIn.inject(Fault("accounts:signInWithCustomToken", .echo(status: 400, code: "INVALID_CUSTOM_TOKEN")))
        let custom = try harness.run(["signin", "--provider", "custom", "--token-file", "-", "--verbose"], stdin: customToken)
        #expect(custom.status == 1, "\(custom)")
        #expect(custom.stderr.contains("you sent") && !custom.stderr.contains(customToken), "\(custom.stderr)")
    }

    // MARK: 5. Bidirectional controls

    @Test func bidiControlsFromTheServerAreShownNotObeyed() throws {
        let harness = try Harness()
        let first = try harness.signIn("yahoo.com", ["--email", "ada@example.com"])
        #expect(first.status == 0, "\(first)")
        let uid = try #require(harness.savedSessions.first?["uid"] as? String)
        // "moc.elpmaxe@eve" drawn right to left reads as an address it is not.
        let spoofed = #"[{"localId":"\#(uid)","email":"\u202Emoc.elpmaxe@eve","displayName":"Eve \u2066admin\u2069 \u200F","providerUserInfo":[]}]"#
        harness.standIn.inject(Fault("accounts:lookup", .amend([("users", spoofed)]), count: 10))
        let reauth = try harness.run(["reauth", "--loopback", "--provider", "yahoo.com", "--email", "ada@example.com", "--port", "0", "--timeout", "30"])
        #expect(reauth.status == 0, "\(reauth)")
        let status = try harness.run(["status"])
        let accounts = try harness.run(["accounts"])
        for (name, text) in [("reauth", reauth.stderr), ("status", status.stdout + status.stderr), ("accounts", accounts.stdout + accounts.stderr)] {
            #expect(!text.unicodeScalars.contains { [0x202E, 0x2066, 0x2069, 0x200F].contains($0.value) }, "\(name): \(text)")
            #expect(text.contains("<U+202E>moc.elpmaxe@eve"), "\(name): \(text)")
        }
    }

    // MARK: 6. Secrets in files others can read

    @Test func aTokenFileOthersCanReadIsPointedOutAndStillUsed() throws {
        let harness = try Harness()
        let google = harness.standIn.mintProviderCredential(providerId: "google.com", email: "g@example.com")
        let path = harness.directory + "/google-token"
        _ = FileManager.default.createFile(atPath: path, contents: Data(google.idToken.utf8), attributes: [.posixPermissions: 0o644])
        let shared = try harness.run(["signin", "--provider", "google.com", "--id-token-file", path])
        #expect(shared.status == 0, "\(shared)")
        #expect(shared.stderr.contains("warning: --id-token-file \(path) can be read by other users (mode 0644)") && shared.stderr.contains("chmod 600"),
                "\(shared.stderr)")

        chmod(path, 0o600)
        let private_ = try harness.run(["signin", "--provider", "google.com", "--id-token-file", path])
        #expect(private_.status == 0 && !private_.stderr.contains("warning"), "\(private_)")
        let piped = try harness.run(["signin", "--provider", "google.com", "--id-token-file", "-"], stdin: google.idToken)
        #expect(piped.status == 0 && !piped.stderr.contains("warning"), "\(piped)")

        let codes = harness.directory + "/codes"
        _ = FileManager.default.createFile(atPath: codes, contents: Data("123456\n".utf8), attributes: [.posixPermissions: 0o640])
        let code = try harness.run(["password", "reset", "--code-file", codes], stdin: "new password\n")
        #expect(code.stderr.contains("warning: --code-file \(codes) can be read by other users (mode 0640)"), "\(code.stderr)")
    }

    @Test func aFileTooLargeNamesTheLimitInItsUnit() throws {
        let harness = try Harness()
        let path = harness.directory + "/huge-token"
        _ = FileManager.default.createFile(atPath: path, contents: Data(repeating: UInt8(ascii: "a"), count: 100_000), attributes: [.posixPermissions: 0o600])
        let result = try harness.run(["signin", "--provider", "google.com", "--id-token-file", path])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("is larger than 64 KiB") && !result.stderr.contains("0 MiB"), "\(result.stderr)")
    }

    // MARK: 7. Launch pages of a killed fbauth

    /// Loading the store has no side effects (issue 48, item 5): the pages of a killed fbauth
    /// go when the next browser sign-in writes its own page beside them.
    @Test func launchPagesOfDeadProcessesGoAtTheNextBrowserSignIn() throws {
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com", ["--email", "ada@example.com"]).status == 0)
        // A process that has ended: its page stays until someone removes it.
        let ended = try ChildProcess("/bin/true", [], environment: [:])
        #expect(ended.wait(timeout: 10))
        let dead = harness.configDirectory + "/signin-\(ended.pid)-deadbeef.html"
        let alive = harness.configDirectory + "/signin-\(getpid())-cafe.html"
        for page in [dead, alive] { _ = FileManager.default.createFile(atPath: page, contents: Data("<meta>".utf8), attributes: [.posixPermissions: 0o600]) }
        #expect(try harness.run(["status"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: dead), "reading the store removes nothing")
        // Where a launch page is used (macOS; here without the connection check).
        #expect(try harness.signIn("yahoo.com", ["--email", "ada@example.com"], environment: ["FBAUTH_CONNECTION_CHECK": "off"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: dead), "the dead process's page is gone")
        #expect(FileManager.default.fileExists(atPath: alive), "a running process's page stays")
    }
}
