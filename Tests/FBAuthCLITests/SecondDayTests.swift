import FBAuthStandIn
import Foundation
import TestSupport
import Testing

/// Issue 29: a newcomer's second day, run with the real binary the way they ran it.
@Suite struct SecondDayTests {
    // MARK: 1. A relative config directory

    @Test(arguments: ["on", "off"])
    func theDemoKeepsItsSessionInARelativeDirectory(connectionCheck: String) throws {
        let harness = try Harness()
        harness.environment["FIREBASE_AUTH_EMULATOR_HOST"] = nil
        harness.environment["FIREBASE_API_KEY"] = nil
        harness.environment["BROWSER"] = nil
        harness.environment["DISPLAY"] = nil
        let result = try harness.run(["demo", "--config-dir", "./fbauth-demo"], environment: ["FBAUTH_CONNECTION_CHECK": connectionCheck], timeout: 30)
        #expect(result.status == 0, "\(result)")
        #expect(!result.stderr.contains("CocoaError"), "\(result.stderr)")
        #expect(result.stderr.contains("--config-dir \(harness.directory)/fbauth-demo"), "the suggestion names the absolute path: \(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: harness.directory + "/fbauth-demo/sessions.json"))

        let variable = try harness.run(["--config-dir", "./fbauth-demo", "whoami", "--offline"])
        #expect(variable.status == 0, "\(variable)")
        let environment = try harness.run(["whoami", "--offline"], environment: ["FBAUTH_CONFIG_DIR": "fbauth-demo"])
        #expect(environment.status == 0, "\(environment)")
    }

    @Test func theBuiltInBrowserSaysWhyInWords() throws {
        #expect {
            _ = try HeadlessBrowser().visit("file:///nonexistent/fbauth/signin-1-x.html")
        } throws: { error in
            let message = (error as? HeadlessBrowser.Failure)?.message ?? ""
            return message.contains("there is no such file") && !message.contains("Cocoa")
        }
    }

    // MARK: 4. stdin line by line

    @Test func signupTakesTheFirstLineAsThePassword() throws {
        let harness = try Harness()
        #expect(try harness.run(["signup", "--email", "new@example.com"], stdin: "secret-1\nsecret-1\n").status == 0)
        #expect(try harness.run(["signout"]).status == 0)
        let signin = try harness.run(["signin", "--provider", "password", "--email", "new@example.com"], stdin: "secret-1\n")
        #expect(signin.status == 0, "the password is the line, without what followed: \(signin)")
    }

    // MARK: 5. Ctrl-C at a prompt

    @Test func ctrlCAtAPasswordPromptRestoresTheTerminal() throws {
        let harness = try Harness()
        harness.standIn.createPasswordUser(email: "pat@example.com", password: "correct horse")
        let signin = try BackgroundProcess(["signin", "--provider", "password", "--email", "pat@example.com"], harness: harness, withTerminal: true)
        #expect(signin.waitForStderr(containing: "Password for pat@example.com"), "\(signin.stderr)")
        let terminal = try #require(signin.terminal)
        var settings = termios()
        #expect(eventually(within: 5) { tcgetattr(terminal.secondary, &settings) == 0 && settings.c_lflag & tcflag_t(ECHO) == 0 }, "echo is off at the prompt")
        signin.interrupt()
        let result = signin.finish()
        #expect(result.status == 4, "\(result)")
        #expect(result.stderr.components(separatedBy: "cancelled").count == 2, "one cancel message: \(result.stderr)")
        #expect(tcgetattr(terminal.secondary, &settings) == 0 && settings.c_lflag & tcflag_t(ECHO) != 0, "echo is back on")
        #expect(harness.savedSessions.isEmpty)
    }

    // MARK: 6. The default flow against an emulator

    @Test func againstAnEmulatorTheLoopbackFlowIsTheDefault() throws {
        let harness = try Harness()
        let result = try harness.run(["signin", "--provider", "yahoo.com", "--email", "ada@example.com", "--port", "0", "--timeout", "30"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("fbauth uses the loopback redirect (--hosted"), "\(result.stderr)")
        #expect(!harness.standIn.requests(to: "accounts:createAuthUri").isEmpty, "the loopback flow ran")
    }

    // MARK: 9. No paste prompt while a browser does the work

    @Test func noPastePromptWhileTheBrowserWorks() throws {
        let harness = try Harness()
        let signin = try BackgroundProcess(["signin", "--loopback", "--provider", "yahoo.com", "--port", "0", "--timeout", "30"],
                                           harness: harness, withTerminal: true)
        let result = signin.finish()
        #expect(result.status == 0, "\(result)")
        #expect(!result.stderr.contains("Paste the address"), "\(result.stderr)")
    }

    // MARK: 11. Words a newcomer types

    @Test(arguments: [
        ("email", "use --provider password (an email and a password) or --provider emailLink"),
        ("phone", "fbauth mfa enroll phone"),
        ("foo.com", "is not a provider Firebase offers"),
        ("yahoo.co", "did you mean 'yahoo.com'?"),
    ])
    func providerWordsAreExplained(word: String, message: String) throws {
        let harness = try Harness()
        let result = try harness.run(["signin", "--provider", word])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(harness.standIn.requests.isEmpty)
    }

    @Test func providerIdsAreReadInLowerCase() throws {
        let harness = try Harness()
        let result = try harness.signIn("Yahoo.com", ["--email", "ada@example.com"])
        #expect(result.status == 0, "\(result)")
        #expect(result.json.string("credential", "providerId") == "yahoo.com")
        let unknown = try harness.signIn("unknown.example", ["--allow-unknown-provider"])
        #expect(unknown.status != 2, "--allow-unknown-provider lets Firebase decide: \(unknown)")
    }

    @Test func theVersionHasThreeSpellingsAndHelpShowsAliases() throws {
        let harness = try Harness()
        let outputs = try ["--version", "version", "-V"].map { try harness.run([$0]) }
        #expect(outputs.allSatisfy { $0.status == 0 && !$0.stdout.isEmpty }, "\(outputs)")
        #expect(Set(outputs.map(\.stdout)).count == 1)
        let help = try harness.run(["help"])
        #expect(help.stdout.contains("signin, login") && help.stdout.contains("signout, logout"), "\(help.stdout)")
    }

    @Test func aMismatchedPasswordAtSignupIsAskedAgain() throws {
        let harness = try Harness()
        let signup = try BackgroundProcess(["signup", "--email", "typo@example.com"], harness: harness, withTerminal: true)
        let terminal = try #require(signup.terminal)
        #expect(signup.waitForStderr(containing: "New password"))
        terminal.type("secret-1")
        #expect(signup.waitForStderr(containing: "Repeat it"))
        terminal.type("secret-2")
        #expect(signup.waitForStderr(containing: "The two passwords do not match; type them again."), "\(signup.stderr)")
        terminal.type("secret-1")
        #expect(eventually(within: 10) { signup.stderr.components(separatedBy: "Repeat it").count == 3 })
        terminal.type("secret-1")
        #expect(signup.finish().status == 0)
    }
}
