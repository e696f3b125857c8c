import Foundation
import Testing

/// The front door: help, version, usage errors — exit codes and exact stream use.
@Suite struct CommandLineTests {
    @Test(arguments: [
        (["sigin"], "unknown command 'sigin'; did you mean 'signin'?"),
        (["signin", "--provder", "yahoo.com"], "unknown option '--provder' for 'signin'; did you mean '--provider'?"),
        (["signin"], "missing --provider"),
        (["signin", "--provider"], "option --provider needs a value"),
        (["signin", "--provider", "yahoo"], "--provider 'yahoo' is not a provider id (like yahoo.com, microsoft.com, twitter.com, oidc.NAME); did you mean 'yahoo.com'?"),
        (["signin", "--provider", "yahoo.com", "--port", "70000"], "--port '70000' is not a port number"),
        (["signin", "--provider", "yahoo.com", "--timeout", "0"], "--timeout '0' is not a number of seconds from 0.001 to 604800"),
        (["signin", "--provider", "yahoo.com", "--param", "novalue"], "--param 'novalue' is not KEY=VALUE"),
        (["signin", "--provider", "yahoo.com", "--redirect-host", "example.com"], "--redirect-host 'example.com' is not one of"),
        (["signin", "--provider", "yahoo.com", "--redirect-host", "127.0.0.1"], "--redirect-host applies to --loopback"),
        (["signin", "--provider", "yahoo.com", "--print-url"], "--print-url needs --loopback"),
        (["signin", "--provider", "yahoo.com", "--auth-domain", "https://x.example/"], "must be a host name"),
        (["signin", "--provider", "yahoo.com", "--loopback", "--auth-domain", "x.example"], "--auth-domain applies to the hosted handler"),
        (["signin", "--provider", "yahoo.com", "--email", "nobody"], "--email 'nobody' is not an email address"),
        (["signin", "--provider", "yahoo.com", "--no-browser=yes"], "option --no-browser takes no value"),
        (["signin", "--provider", "yahoo.com", "extra"], "unexpected argument 'extra'"),
        (["signin", "--provider", "yahoo.com", "--provider", "github.com"], "was given twice"),
        (["signin", "-x"], "unknown option '-x'"),
    ])
    func usageErrorsAreOneLineAndExit2(arguments: [String], message: String) throws {
        let harness = try Harness()
        let result = try harness.run(arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("fbauth: "))
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(harness.standIn.requests.isEmpty)
    }

    @Test func versionAndHelpGoToStdout() throws {
        let harness = try Harness()
        let version = try harness.run(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("fbauth 0.") && version.stderr.isEmpty)

        let help = try harness.run(["--help"])
        #expect(help.status == 0 && help.stdout.contains("Usage: fbauth COMMAND") && help.stdout.contains("signin"))

        for arguments in [["signin", "--help"], ["signin", "-h"], ["help", "signin"], ["signin", "--provider", "x", "--help"]] {
            let result = try harness.run(arguments)
            #expect(result.status == 0, "\(arguments)")
            #expect(result.stdout.contains("Usage: fbauth signin --provider ID"), "\(arguments)")
            #expect(result.stdout.contains("--param KEY=VALUE") && result.stdout.contains("'fbauth help global'"))
            #expect(result.stderr.isEmpty)
        }
    }

    @Test func optionsAcceptBothSpellingsAndGlobalsBeforeTheCommand() throws {
        let harness = try Harness()
        let result = try harness.run(["--api-key=other-key", "signin", "--loopback", "--provider=yahoo.com", "--port=0", "--timeout", "30", "--email=eq@example.com"])
        #expect(result.status == 0, "\(result)")
        #expect(harness.standIn.requests.first?.query == "key=other-key")
    }

    @Test func doubleDashEndsOptions() throws {
        let harness = try Harness()
        let result = try harness.run(["help", "--", "--weird"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no help for '--weird'"))
    }
}

@Suite struct DemoTests {
    @Test func theDemoRunsAWholeSignInWithoutABrowser() throws {
        let harness = try Harness()
        var environment = harness.environment
        environment["BROWSER"] = nil
        environment["DISPLAY"] = nil
        environment["FIREBASE_AUTH_EMULATOR_HOST"] = nil
        environment["FIREBASE_API_KEY"] = nil
        harness.environment = environment
        let configDirectory = harness.directory + "/demo-config"
        let result = try harness.run(["demo", "--config-dir", configDirectory])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("fbauth plays the browser and clicks Allow as demo@yahoo.com, on the loopback redirect flow"))
        #expect(result.json.string("user", "email") == "demo@yahoo.com")
        #expect(result.json.string("credential", "providerId") == "yahoo.com")
        #expect(FileManager.default.fileExists(atPath: configDirectory + "/sessions.json"))
        #expect(harness.standIn.requests.isEmpty, "the demo brings its own stand-in")
    }

    @Test func theDemoShowsMultiFactorAuthenticationOffline() throws {
        let harness = try Harness()
        harness.environment["FIREBASE_AUTH_EMULATOR_HOST"] = nil
        harness.environment["FIREBASE_API_KEY"] = nil
        let result = try harness.run(["demo", "--no-browser", "--mfa"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("enrolling fbauth's built-in authenticator app (TOTP)"))
        #expect(result.stderr.contains("The stand-in asks for a second factor (authenticator app \"built-in authenticator\""), "\(result.stderr)")
        #expect(result.json.string("secondFactor", "factorId") == "totp", "stdout holds the second sign-in's JSON only: \(result.stdout)")
        #expect(result.stdout.split(separator: "\n").filter { $0 == "{" }.count == 1, "one JSON document")
    }
}
