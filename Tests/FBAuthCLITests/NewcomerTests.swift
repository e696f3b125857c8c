import FBAuthStandIn
import Foundation
import TestSupport
import Testing

/// A newcomer's day without surprises (issue 24): the project named, headless advice before
/// the wait, no tokens in a terminal's scrollback, one rule for "nobody signed in", the secret
/// of OAuth 1.0a tokens.
@Suite struct NewcomerTests {
    // MARK: 1. Which project

    @Test func everySignInNamesTheProjectAndSaysWhenItWasRemembered() throws {
        let harness = try Harness()
        let host = harness.standIn.hostAndPort
        let first = try harness.signIn("yahoo.com", ["--email", "ada@example.com"])
        #expect(first.stderr.contains("Signed in as ada@example.com with yahoo.com on project fbauth-stand-in (emulator \(host)); the session is saved in"), "\(first)")
        #expect(!first.stderr.contains("from your last sign-in"), "a project named by the environment is not remembered")

        var unnamed = harness.environment
        unnamed["FIREBASE_API_KEY"] = nil
        let again = try Subprocess.run(Binaries.url("fbauth"), ["signin", "--provider", "anonymous"], environment: unnamed, stdin: nil,
                                       directory: harness.directory, timeout: 60)
        #expect(again.status == 0, "\(again)")
        #expect(again.stderr.contains("Using project fbauth-stand-in (emulator \(host)) from your last sign-in; pass --api-key or FIREBASE_API_KEY for another."), "\(again)")

        // token --json keeps stderr empty unless asked (issue 29, item 10); --verbose names it.
        let token = try harness.run(["token", "--json", "--verbose"])
        #expect(token.status == 0 && token.stderr.contains("ID token for project fbauth-stand-in (emulator \(host))."), "\(token)")
        #expect(try harness.run(["token"]).stderr.isEmpty, "the bare token stays quiet")
        #expect(try harness.run(["status"]).stdout.contains("on fbauth-stand-in (key …"), "status names it too")
    }

    // MARK: 2. Headless

    @Test(arguments: [("yahoo.com", false), ("google.com", true)])
    func overSSHWithoutADisplayTheAdviceComesBeforeTheWait(provider: String, acceptsLoopback: Bool) throws {
        let harness = try Harness()
        var environment = ["SSH_CONNECTION": "203.0.113.9 50123 198.51.100.7 2222", "USER": "ada", "DISPLAY": "", "WAYLAND_DISPLAY": ""]
        environment["BROWSER"] = Binaries.url("fbauth-fake-browser").path  // would succeed: the advice must win
        let running = try BackgroundProcess(["signin", "--hosted", "--provider", provider, "--port", "0", "--timeout", "30"], harness: harness, environment: environment)
        #expect(running.waitForStderr(containing: "on your own computer run"), "\(running.stderr)")
        let port = try #require(running.printedURL.flatMap { URLComponents(string: $0)?.port })
        #expect(running.stderr.contains("ssh -L \(port):localhost:\(port) ada@198.51.100.7 -p 2222"), "\(running.stderr)")
        // Against an Auth emulator (the stand-in here) every provider takes a loopback redirect
        // (issue 29, item 6); what production providers take is HeadlessUnitTests' business.
        #expect(running.stderr.contains("Or sign in with --loopback: an Auth emulator accepts a loopback redirect for every provider"), "\(running.stderr)")
        #expect(!running.stderr.contains("--loopback does not work with"))
        #expect(harness.browserPages.isEmpty, "no browser was launched on the server")
        running.interrupt()
        let finished = running.finish()
        #expect(finished.status == 4, "\(finished.stderr)")
    }

    @Test func noBrowserAdviceNamesThePortEvenWithoutSSH() throws {
        let harness = try Harness()
        let running = try BackgroundProcess(["signin", "--hosted", "--provider", "yahoo.com", "--no-browser", "--port", "0", "--timeout", "30"], harness: harness)
        #expect(running.waitForStderr(containing: "The page needs a browser that reaches port"), "\(running.stderr)")
        running.interrupt()
        let finished = running.finish()
        #expect(finished.status == 4, "\(finished.stderr)")
    }

    // MARK: 3. Tokens in scrollback

    @Test func onATerminalASummaryAndTheJSONOnlyWhenAsked() throws {
        let harness = try Harness()
        let plain = try BackgroundProcess(["signin", "--loopback", "--provider", "yahoo.com", "--port", "0", "--email", "ada@example.com"],
                                          harness: harness, stdoutOnTerminal: true)
        let quiet = plain.finish()
        #expect(quiet.status == 0, "\(quiet)")
        let screen = try #require(plain.terminal).screen()
        #expect(!screen.contains("idToken") && !screen.contains("refreshToken") && quiet.stdout.isEmpty, "no tokens on the terminal: \(screen)")
        #expect(quiet.stderr.contains("Signed in as ada@example.com with yahoo.com on project fbauth-stand-in") && quiet.stderr.contains("--json prints the whole result"))

        let asked = try BackgroundProcess(["signin", "--loopback", "--provider", "yahoo.com", "--port", "0", "--email", "ada@example.com", "--json"],
                                          harness: harness, stdoutOnTerminal: true)
        #expect(asked.finish().status == 0)
        #expect(try #require(asked.terminal).screen().contains("\"refreshToken\""), "--json prints it all")
        // Not a terminal: scripts get JSON, as before.
        #expect(try harness.signIn("yahoo.com", ["--email", "ada@example.com"]).json.string("user", "idToken") != nil)
    }

    // MARK: 4. One rule for exit codes

    @Test func nobodySignedInOrNoProjectKnownIsThreeForEveryCommandThatNeedsAUser() throws {
        let harness = try Harness()
        var fresh = harness.environment
        fresh["FIREBASE_API_KEY"] = nil
        fresh["FIREBASE_AUTH_EMULATOR_HOST"] = nil
        func run(_ arguments: [String]) throws -> RunResult {
            try Subprocess.run(Binaries.url("fbauth"), arguments, environment: fresh, stdin: nil, directory: harness.directory, timeout: 60)
        }
        let needUser: [[String]] = [
            ["token"], ["token", "--json"], ["token", "--claims"], ["token", "--provider", "yahoo.com"], ["whoami"], ["whoami", "--offline"],
            ["status"], ["signout"], ["use", "x@example.com"], ["link", "--provider", "yahoo.com"], ["link", "--pending"],
            ["reauth", "--provider", "yahoo.com"], ["unlink", "--provider", "yahoo.com"], ["delete-account", "--yes"], ["mfa", "list"],
            ["password", "change"], ["verify-email"], ["email", "change", "--new-email", "n@example.com"], ["profile", "set", "--display-name", "N"],
        ]
        for arguments in needUser {
            let result = try run(arguments)
            #expect(result.status == 3, "\(arguments): \(result)")
        }
        for arguments in [["signin", "--provider", "anonymous"], ["signup", "--email", "a@example.com"], ["providers", "--email", "a@example.com"],
                          ["password", "reset", "--email", "a@example.com"]] {
            let result = try run(arguments)
            #expect(result.status == 2 && result.stderr.contains("no Firebase Web API key"), "\(arguments): \(result)")
        }
        #expect(FileManager.default.contents(atPath: harness.sessionsPath) == nil, "nothing was written")
    }

    @Test func statusIsThreeOnceTheServerSignedTheSessionOut() throws {
        let harness = try Harness()
        let signIn = try harness.signIn("yahoo.com", ["--email", "ada@example.com"])
        #expect(try harness.run(["status"]).status == 0)
        harness.standIn.revokeTokens(uid: try #require(signIn.json.string("user", "uid")))
        #expect(try harness.run(["token", "--force-refresh"]).status == 3)
        let status = try harness.run(["status"])
        #expect(status.status == 3 && status.stdout.contains("signed out by the server"), "\(status)")
        #expect(status.stderr.contains("fbauth signin --provider yahoo.com --loopback --email ada@example.com"), "the hint repeats the flow: \(status)")
    }

    // MARK: 5. OAuth 1.0a secrets

    @Test func twittersTokenComesWithItsSecret() throws {
        let harness = try Harness()
        let signIn = try harness.signIn("twitter.com", ["--email", "tw@example.com"])
        let token = try harness.run(["token", "--provider", "twitter.com", "--json"])
        #expect(token.status == 0, "\(token)")
        #expect(token.json.string("accessToken") == signIn.json.string("credential", "accessToken"))
        #expect(token.json.string("secret") == signIn.json.string("credential", "secret") && token.json.string("secret") != nil)
        #expect(token.json.keys.contains("expirationTime"))
    }

    // MARK: 7. Completion

    @Test(.enabled(if: ZshCompletion.zsh != nil, "zsh is not installed"))
    func zshCompletesAliasesAndHelpTopics() throws {
        let harness = try Harness()
        let bin = harness.directory + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/fbauth", withDestinationPath: Binaries.url("fbauth").path)
        let aliases = try ZshCompletion.complete("fbauth log", until: "logout", harness: harness, bin: bin)
        #expect(aliases.contains("login") && aliases.contains("logout"), "\(aliases)")
        #expect(try ZshCompletion.complete("fbauth help exit", until: "exit-codes", harness: harness, bin: bin).contains("exit-codes"))
    }

    @Test func powerShellCompletionCoversEveryCommandAliasOptionAndTopic() throws {
        let harness = try Harness()
        let script = try harness.run(["completion", "powershell"])
        #expect(script.status == 0)
        let text = script.stdout
        #expect(text.contains("Register-ArgumentCompleter -Native -CommandName fbauth"))
        for command in try DistributionTests.commands(harness) + ["login", "logout"] {
            #expect(text.contains("'\(command)'"), "command \(command)")
        }
        for option in try DistributionTests.options(of: "signin", harness) { #expect(text.contains("'\(option)'"), "signin \(option)") }
        #expect(text.contains("'help:help' = @(") && text.contains("'exit-codes'") && text.contains("'environment'"))
        #expect(text.contains("'signin:--provider' = @('yahoo.com'") && text.contains("'login:--provider' = @('yahoo.com'"))
        #expect(text.contains("fbauth __complete sessions 2>$null"))
        // Keys of a PowerShell hashtable literal must differ, in any case.
        let keys = text.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("'"), let end = trimmed.dropFirst().firstIndex(of: "'"), trimmed.contains("= @(") else { return nil }
            return trimmed[trimmed.index(after: trimmed.startIndex)..<end].lowercased()
        }
        #expect(keys.count > 40 && Set(keys).count == keys.count, "duplicate keys")
    }

    // MARK: 8. The stand-in remembers

    @Test func theEmulatorKeepsItsUsersAcrossRestartsInTheAuthEmulatorsLayout() throws {
        let harness = try Harness()
        let data = harness.directory + "/emulator-data"
        func serve() throws -> (BackgroundProcess, String) {
            let emulator = try BackgroundProcess(["emulator", "--port", "0", "--import", data, "--export-on-exit"], harness: harness)
            #expect(emulator.waitForStdout(containing: "127.0.0.1:"), "\(emulator.stderr)")
            return (emulator, emulator.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(try harness.run(["emulator", "--export-on-exit"]).status == 2)

        // A directory that does not exist yet is a first start, as an empty one is: said so,
        // not "imported"; the export makes it.
        let (first, host) = try serve()
        #expect(first.waitForStderr(containing: "Press Ctrl-C"))
        #expect(first.stderr.hasPrefix("Starting with no users: \(data) does not exist yet (they are exported there on exit).\n"), "\(first.stderr)")
        let environment = ["FIREBASE_AUTH_EMULATOR_HOST": host]
        #expect(try harness.run(["signup", "--email", "kept@example.com"], stdin: "correct horse\n", environment: environment).status == 0)
        first.interrupt()
        let stopped = first.finish()
        #expect(stopped.status == 0 && stopped.stderr.contains("Exported the users and settings to \(data)"), "\(stopped)")
        let accounts = try String(contentsOfFile: data + "/auth_export/accounts.json", encoding: .utf8)
        #expect(accounts.contains("kept@example.com") && accounts.contains("fakeHash:salt="))

        let (second, secondHost) = try serve()
        #expect(second.waitForStderr(containing: "Press Ctrl-C"))
        #expect(second.stderr.hasPrefix("Imported 1 user and the settings of \(data).\n"), "\(second.stderr)")
        let signIn = try harness.run(["signin", "--provider", "password", "--email", "kept@example.com"], stdin: "correct horse\n",
                                     environment: ["FIREBASE_AUTH_EMULATOR_HOST": secondHost])
        #expect(signIn.status == 0, "the user survived the restart: \(signIn)")
        second.interrupt()
        #expect(second.finish().status == 0)
    }
}

/// Issue 51, item 5: `fbauth help TOPIC` renders its guide as text on a terminal, and prints the
/// Markdown as it is when piped.
@Suite struct HelpOnATerminalTests {
    @Test func aGuideIsTextOnATerminalAndMarkdownInAPipe() throws {
        let harness = try Harness()
        let piped = try harness.run(["help", "emulator"])
        #expect(piped.status == 0 && piped.stdout.hasPrefix("# `fbauth emulator`") && piped.stdout.contains("|---|"), "\(piped.stdout.prefix(200))")
        let shown = try BackgroundProcess(["help", "emulator"], harness: harness, stdoutOnTerminal: true)
        #expect(shown.finish().status == 0)
        let screen = try #require(shown.terminal).screen().replacingOccurrences(of: "\r\n", with: "\n")
        #expect(screen.hasPrefix("fbauth emulator: a drop-in for Google's Auth emulator\n====="), "\(screen.prefix(200))")
        #expect(!screen.contains("|---|") && !screen.contains("```") && !screen.contains("**"), "\(screen.prefix(400))")
    }

    /// Issue 60: `fbauth emulator --help` is the command's synopsis and options, as every
    /// command's is, though a guide has its name; the guide is named at its end.
    @Test func aCommandsHelpIsItsOptionsThoughAGuideHasItsName() throws {
        let harness = try Harness()
        let help = try harness.run(["emulator", "--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("Usage: fbauth emulator [--port N]"), "\(help.stdout.prefix(200))")
        for option in ["--sign-tokens", "--test-phone-number NUMBER=CODE", "--import DIR", "--enforce-app-check"] {
            #expect(help.stdout.contains(option), "\(option)")
        }
        #expect(help.stdout.hasSuffix("The guide: fbauth help emulator\n") && !help.stdout.contains("|---|"), "\(help.stdout.suffix(200))")
        #expect(try harness.run(["signin", "--help"]).stdout.contains("The guide:") == false)
    }
}
