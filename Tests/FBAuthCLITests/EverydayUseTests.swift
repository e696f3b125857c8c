import FBAuthStandIn
import Foundation
import TestSupport
import Testing

/// Everyday use without friction, as a new user meets fbauth: each item of the review, end to end.
@Suite struct EverydayUseTests {
    /// The environment of a new shell: no API key, no emulator variable.
    private func newShell(_ harness: Harness) -> [String: String] {
        var environment = harness.environment
        environment["FIREBASE_API_KEY"] = nil
        environment["FIREBASE_AUTH_EMULATOR_HOST"] = nil
        return environment
    }

    private func run(_ harness: Harness, _ arguments: [String], in environment: [String: String], stdin: String? = nil) throws -> RunResult {
        try Subprocess.run(Binaries.url("fbauth"), arguments, environment: environment, stdin: stdin, directory: harness.directory, timeout: 60)
    }

    // 1. The project is remembered.
    @Test func aNewShellUsesTheProjectOfTheLastSignIn() throws {
        let harness = try Harness()
        let ada = try harness.signIn("yahoo.com", ["--email", "ada@example.com"])
        #expect(ada.status == 0)
        let shell = newShell(harness)
        #expect(try run(harness, ["token"], in: shell).stdout == ada.json.string("user", "idToken")! + "\n")
        #expect(try run(harness, ["whoami"], in: shell).json.string("email") == "ada@example.com", "online, on the remembered emulator")
        #expect(try run(harness, ["accounts"], in: shell).stdout.contains("ada@example.com"))

        // Another project (another key) signed in later becomes the remembered one.
        let grace = try harness.signIn("github.com", ["--email", "grace@example.com"], environment: ["FIREBASE_API_KEY": "other-key-123456"])
        #expect(grace.status == 0)
        #expect(try run(harness, ["token"], in: shell).stdout == grace.json.string("user", "idToken")! + "\n")
        #expect(try run(harness, ["token"], in: shell.merging(["FIREBASE_API_KEY": "test-api-key", "FIREBASE_AUTH_EMULATOR_HOST": harness.standIn.hostAndPort]) { $1 }).stdout
                == ada.json.string("user", "idToken")! + "\n", "an explicit key still selects its project")
        #expect(!(try run(harness, ["accounts"], in: shell).stdout.contains("ada@example.com")))

        let all = try run(harness, ["accounts", "--all"], in: shell)
        #expect(all.stdout.contains("ada@example.com") && all.stdout.contains("grace@example.com"), "\(all)")
        #expect(all.stdout.contains("key …123456") && all.stdout.contains("emulator \(harness.standIn.hostAndPort)"))
        #expect(!all.stdout.contains("other-key-123456") && !all.stdout.contains("test-api-key"), "the API key is never printed whole")
        let allJSON = try #require((try? JSONSerialization.jsonObject(with: Data(try run(harness, ["accounts", "--all", "--json"], in: shell).stdout.utf8))) as? [[String: Any]])
        #expect(allJSON.count == 2 && allJSON.allSatisfy { ($0["project"] as? String)?.hasPrefix("fbauth-stand-in (key …") == true })

        // `use` switches project too.
        let use = try run(harness, ["use", "ada@example.com"], in: shell)
        #expect(use.status == 0 && use.stderr.contains("Now using ada@example.com") && use.stderr.contains("key …pi-key"), "\(use)")
        #expect(try run(harness, ["token"], in: shell).stdout == ada.json.string("user", "idToken")! + "\n")
        #expect(try run(harness, ["signout"], in: shell).status == 0)
        #expect(try run(harness, ["token"], in: shell).status == 3)
        let store = try String(contentsOfFile: harness.sessionsPath, encoding: .utf8)
        #expect(store.contains("\"currentProject\""), "what is remembered is the project's key in the store, nothing new")
    }

    @Test func withNothingRememberedNobodyIsSignedInAndSigningInAsksForTheKey() throws {
        let harness = try Harness()
        let result = try run(harness, ["token"], in: newShell(harness))
        #expect(result.status == 3 && result.stderr.contains("nobody is signed in, and no project is known yet") && result.stderr.contains("FIREBASE_API_KEY"), "\(result)")
        let signin = try run(harness, ["signin", "--provider", "anonymous"], in: newShell(harness))
        #expect(signin.status == 2 && signin.stderr.contains("no Firebase Web API key"), "\(signin)")
    }

    // 2. status, aliases, near misses.
    @Test func statusSaysWhoWhereWithWhatAndTheTokenState() throws {
        let harness = try Harness()
        let nobody = try harness.run(["status"])
        #expect(nobody.status == 3 && nobody.stdout == "Not signed in.\nSessions are stored in \(harness.sessionsPath)\n"
            && nobody.stderr == "fbauth: nobody is signed in; sign in with `fbauth signin --provider ID`\n", "\(nobody)")
        #expect(try harness.signIn("yahoo.com", ["--email", "ada@example.com"]).status == 0)
        #expect(try harness.signIn("github.com", ["--email", "grace@example.com"]).status == 0)
        let status = try harness.run(["status"])
        #expect(status.status == 0, "\(status)")
        // Every line, with what changes from run to run masked: nothing else (no problem line,
        // no keyring advice) may be printed.
        let host = harness.standIn.hostAndPort
        let lines = status.stdout.split(separator: "\n").map { String($0).replacing(/\(uid [A-Za-z0-9]{20,}\)/, with: "(uid UID)").replacing(/valid for 5\d min/, with: "valid for 5N min") }
        #expect(lines == [
            "Signed in as grace@example.com (uid UID) on fbauth-stand-in (key …pi-key, emulator \(host))",
            "  providers: github.com",
            "  token: valid for 5N min; refresh token in sessions.json",
            "Other saved sessions:",
            "  ada@example.com (uid UID) on fbauth-stand-in (key …pi-key, emulator \(host)): yahoo.com; token valid for 5N min, refresh token in sessions.json",
            "Sessions are stored in \(harness.sessionsPath); new refresh tokens are kept in sessions.json",
        ], "\(status.stdout)")
        #expect(status.stderr.isEmpty, "\(status.stderr)")
        let json = try harness.run(["status", "--json"]).json
        #expect(json.string("current", "email") == "grace@example.com")
        #expect((json["sessions"] as? [[String: Any]])?.count == 2)
        #expect(json.string("store") == harness.sessionsPath)
        #expect(harness.standIn.requests.filter { $0.path.contains("token") || $0.path.contains("lookup") }.count == 2, "status sends nothing")
    }

    @Test func loginLogoutAndNearMisses() throws {
        let harness = try Harness()
        #expect(try harness.run(["login", "--loopback", "--provider", "yahoo.com", "--port", "0", "--email", "l@example.com"]).status == 0)
        #expect(try harness.run(["logout"]).status == 0)
        #expect(harness.savedSessions.isEmpty)
        let help = try harness.run(["--help"]).stdout
        #expect(!help.contains("  login") && !help.contains("  logout") && !help.contains("__complete"), "aliases and internals are not listed")
        #expect(try harness.run(["help", "signin"]).stdout.contains("Also: fbauth login"))
        #expect(try harness.run(["login", "--help"]).stdout.contains("Usage: fbauth signin"))
        for (typed, meant) in [("logon", "signin"), ("sign-in", "signin"), ("logoff", "signout"), ("stat", "status")] {
            let result = try harness.run([typed])
            #expect(result.status == 2 && result.stderr.contains("did you mean '\(meant)'?"), "\(typed): \(result)")
        }
    }

    // 3. JSON where scripts expect it.
    @Test func jsonForScripts() throws {
        let harness = try Harness()
        #expect(try harness.run(["accounts", "--json"]).stdout == "[]\n")
        let signIn = try harness.signIn("yahoo.com", ["--email", "ada@example.com"])
        let token = try harness.run(["token", "--json"])
        #expect(token.status == 0)
        #expect(token.json.string("idToken") == signIn.json.string("user", "idToken"))
        #expect(token.json.string("uid") == signIn.json.string("user", "uid"))
        #expect(token.json.string("projectId") == "fbauth-stand-in")
        #expect(token.json.string("expirationTime") == signIn.json.string("user", "expirationTime"))
        #expect(try harness.run(["whoami", "--json"]).json.string("email") == "ada@example.com")
        #expect(try harness.run(["whoami", "--offline", "--json"]).json.string("email") == "ada@example.com")
        let provider = try harness.run(["token", "--json", "--provider", "yahoo.com"])
        #expect(provider.status == 0 && provider.json.string("providerId") == "yahoo.com" && provider.json.string("accessToken")?.isEmpty == false, "\(provider)")
        #expect(try harness.run(["signout", "--all"]).status == 0)
        #expect(try harness.run(["accounts", "--json"]).stdout == "[]\n")
    }

    // 4. The paste prompt on a terminal.
    @Test func thePastePromptIsNotDrawnOver() throws {
        let harness = try Harness()
        let running = try BackgroundProcess(["signin", "--loopback", "--provider", "yahoo.com", "--port", "0", "--timeout", "3", "--no-browser"],
                                            harness: harness, environment: ["TERM": "xterm"], withTerminal: true, stderrOnTerminal: true)
        let terminal = try #require(running.terminal)
        var screen = ""
        _ = eventually(within: 20) {
            screen += terminal.screen()
            return screen.contains("Paste the address your browser ended on:")
        }
        #expect(screen.contains("\nPaste the address your browser ended on:"), "the prompt has its own line")
        let typed = "http://localhost:1234/__/auth/handler?cod"  // 40 characters, no Enter yet
        terminal.press(typed)
        let result = running.finish()
        screen += terminal.screen()
        #expect(result.status == 4)
        #expect(screen.contains(typed), "what was typed is still on the screen")
        #expect(!screen.contains("Waiting for the browser") && !screen.contains("\u{1B}[2K"), "nothing redraws the input line")
    }

    // 5. Commands fbauth suggests run as printed.
    @Test func aRevokedSessionNamesTheWholeSignInCommand() throws {
        let harness = try Harness()
        let signIn = try harness.signIn("twitter.com", ["--email", "tw@example.com"])
        harness.standIn.revokeTokens(uid: try #require(signIn.json.string("user", "uid")))
        let result = try harness.run(["token", "--force-refresh"])
        #expect(result.status == 3)
        let command = try #require(result.stderr.range(of: "`fbauth signin[^`]*`", options: .regularExpression).map { String(result.stderr[$0].dropFirst().dropLast()) })
        #expect(command == "fbauth signin --provider twitter.com --loopback --email tw@example.com", "with the flow options it was signed in with")
        let arguments = Array(command.split(separator: " ").dropFirst().map(String.init))
        #expect(try harness.run(arguments + ["--print-url"]).status == 0, "the command is complete as printed")
    }

    @Test func theDemoSuggestsWhatRunsAndLeavesNothingBehind() throws {
        let harness = try Harness()
        let temporary = harness.directory + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        var environment = newShell(harness)
        environment["BROWSER"] = nil
        environment["FBAUTH_CONFIG_DIR"] = nil
        environment["TMPDIR"] = temporary
        environment["PATH"] = "/usr/bin:/bin"  // fbauth is not installed
        let demo = try run(harness, ["demo", "--no-browser"], in: environment)
        #expect(demo.status == 0, "\(demo)")
        #expect(demo.stderr.contains("fbauth's built-in browser is signing in as demo@yahoo.com"))
        #expect(!demo.stderr.contains("in your browser. If it does not open"))
        #expect(demo.stderr.contains("\(Binaries.url("fbauth").path) demo --config-dir ./fbauth-demo"), "\(demo.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty, "the demo's temporary directory is gone")

        // With --config-dir the session stays, and the suggested command runs as printed.
        let kept = try run(harness, ["demo", "--no-browser", "--config-dir", harness.directory + "/kept"], in: environment)
        #expect(kept.status == 0)
        let line = try #require(kept.stderr.split(separator: "\n").first { $0.contains("whoami --offline") })
        let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ").map(String.init)
        #expect(words.first == Binaries.url("fbauth").path)
        let whoami = try Subprocess.run(URL(fileURLWithPath: words[0]), Array(words.dropFirst()), environment: environment, stdin: nil,
                                        directory: harness.directory, timeout: 30)
        #expect(whoami.status == 0 && whoami.json.string("email") == "demo@yahoo.com", "\(whoami)")
    }

    // 6. A busy port.
    @Test func aBusyPortSaysAnotherSignInIsProbablyWaiting() throws {
        let harness = try Harness()
        // The first sign-in takes a free port; the second asks for the same one.
        let first = try BackgroundProcess(["signin", "--loopback", "--provider", "yahoo.com", "--port", "0", "--timeout", "20", "--no-browser"], harness: harness)
        #expect(first.waitForStderr(containing: "/fake-idp/"))
        let port = try #require(first.stderr.firstMatch(of: /redirect_uri=http%3A%2F%2F(localhost|127\.0\.0\.1)%3A(\d+)/).map { String($0.output.2) }, "\(first.stderr)")
        let second = try harness.run(["signin", "--loopback", "--provider", "yahoo.com", "--port", port, "--no-browser"])
        #expect(second.status == 1)
        #expect(second.stderr.contains("port \(port) is already in use on this machine, probably by another sign-in that is still waiting"))
        #expect(second.stderr.contains("with a loopback redirect the provider accepts only the redirect URI registered for that port"))
        #expect(second.stderr.components(separatedBy: "0 picks a free one").count == 2, "said once (issue 29, item 9): \(second.stderr)")
        // The emulator on a busy port: the same exit code, said once.
        let emulator = try harness.run(["emulator", "--port", port])
        #expect(emulator.status == 1 && emulator.stderr.contains("port \(port) is already in use"), "\(emulator)")
        #expect(emulator.stderr.components(separatedBy: "0 picks a free one").count == 2, "\(emulator.stderr)")
        first.interrupt()
        _ = first.finish()
    }

    // 7. Completion knows the sessions.
    @Test func completionOffersSessionsAndSignInMethods() throws {
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com", ["--email", "grace@example.com"]).status == 0)
        let words = try harness.run(["__complete", "sessions"])
        #expect(words.status == 0 && words.stdout.split(separator: "\n").contains("grace@example.com"))
        let suggestion = try harness.run(["use", "grace"])
        #expect(suggestion.status == 3 && suggestion.stderr.contains("did you mean grace@example.com?"), "\(suggestion)")
        let typo = try harness.run(["use", "grce@example.com"])
        #expect(typo.status == 3 && typo.stderr.contains("did you mean grace@example.com?"), "edit distance: \(typo)")
    }

    static let bash = ["/usr/bin/bash", "/bin/bash"].first(where: FileManager.default.isExecutableFile)

    @Test(.enabled(if: bash != nil, "bash is not installed"))
    func bashCompletesSessionsCommandsAndValues() throws {
        let bash = try #require(Self.bash)
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com", ["--email", "grace@example.com"]).status == 0)
        try harness.run(["completion", "bash"]).stdout.write(toFile: harness.directory + "/completion.bash", atomically: true, encoding: .utf8)
        let bin = harness.directory + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/fbauth", withDestinationPath: Binaries.url("fbauth").path)
        let probe = """
            source \(harness.directory)/completion.bash
            COMP_WORDS=(fbauth use ''); COMP_CWORD=2; _fbauth; echo "1: ${COMPREPLY[*]}"
            COMP_WORDS=(fbauth token --user g); COMP_CWORD=3; _fbauth; echo "2: ${COMPREPLY[*]}"
            COMP_WORDS=(fbauth signin --provider ''); COMP_CWORD=3; _fbauth; echo "3: ${COMPREPLY[*]}"
            COMP_WORDS=(fbauth link --provider ''); COMP_CWORD=3; _fbauth; echo "4: ${COMPREPLY[*]}"
            COMP_WORDS=(fbauth log); COMP_CWORD=1; _fbauth; echo "5: ${COMPREPLY[*]}"
            COMP_WORDS=(fbauth help ''); COMP_CWORD=2; _fbauth; echo "6: ${COMPREPLY[*]}"
            COMP_WORDS=(fbauth login --provider g); COMP_CWORD=3; _fbauth; echo "7: ${COMPREPLY[*]}"
            COMP_WORDS=(fbauth password ''); COMP_CWORD=2; _fbauth; echo "8: ${COMPREPLY[*]}"
            """
        let environment = harness.environment.merging(["PATH": bin + ":" + (harness.environment["PATH"] ?? "")]) { $1 }
        let completed = try Subprocess.run(URL(fileURLWithPath: bash), ["-c", probe], environment: environment, stdin: nil,
                                           directory: harness.directory, timeout: 30).stdout
        #expect(completed.contains("1: grace@example.com"), "\(completed)")
        #expect(completed.contains("2: grace@example.com"))
        #expect(completed.contains("password emailLink anonymous custom"))
        #expect(completed.contains("5: login logout\n"), "aliases complete: \(completed)")
        let help = completed.split(separator: "\n").first { $0.hasPrefix("6:") } ?? ""
        #expect(help.contains("exit-codes") && help.contains("environment") && help.contains("signin") && help.contains("man"), "help topics: \(help)")
        #expect(completed.contains("7: google.com github.com\n"), "an alias has its command's values")
        #expect(completed.contains("8: reset change\n"))
        let link = completed.split(separator: "\n").first { $0.hasPrefix("4:") } ?? ""
        #expect(link.contains("password emailLink") && !link.contains("anonymous") && !link.contains("custom"), "link takes no anonymous or custom: \(link)")
    }

    // 8. Help.
    @Test(arguments: ["signin", "link", "token", "accounts", "status"])
    func commandHelpHasExamplesAndPointsToGlobalOptions(command: String) throws {
        let harness = try Harness()
        let help = try harness.run([command, "--help"]).stdout
        let examples = help.split(separator: "\n").drop { $0 != "Examples:" }.dropFirst().prefix { $0.hasPrefix("  ") }
        #expect(examples.filter { $0.contains("fbauth ") }.count >= 2, "\(help)")
        #expect(help.contains("see 'fbauth help global'"))
        #expect(!help.contains("--verbose"), "global options are not repeated")
    }

    @Test func everyUsageLineListsEveryOption() throws {
        let harness = try Harness()
        #expect(try harness.run(["help", "global"]).stdout.contains("--api-key KEY"))
        for command in try DistributionTests.commands(harness) {
            let help = try harness.run([command, "--help"]).stdout
            let usage = help.split(separator: "\n").prefix { !$0.isEmpty }.joined(separator: " ")
            for option in try DistributionTests.options(of: command, harness) {
                #expect(DistributionTests.mentions(usage, option), "\(command): \(option) missing from \(usage)")
            }
        }
    }

    // 9. Signed in already.
    @Test func signingInAgainSaysWhoIsSignedIn() throws {
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com", ["--email", "ada@example.com"]).status == 0)
        let again = try harness.signIn("yahoo.com", ["--email", "ada@example.com"])
        #expect(again.status == 0)
        #expect(again.stderr.contains("ada@example.com is signed in already with yahoo.com; signing in again. If another account signs in, it becomes the current session"))
        let other = try harness.signIn("github.com", ["--email", "ada@example.com"])
        #expect(!other.stderr.contains("signed in already"), "another provider is not a repeat")
    }
}
