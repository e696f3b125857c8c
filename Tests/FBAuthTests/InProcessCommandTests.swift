@testable import FBAuth
@testable import FBAuthCLI
import FBAuthStandIn
import Foundation
import Testing

/// The commands run in this process through `Dependencies`: a recording console, the stand-in
/// over the real transport, a headless browser, and a wall clock the test moves. (The
/// end-to-end tests in FBAuthCLITests run the built binary.)
@Suite struct InProcessCommandTests {
    @Test func signinPrintsTheResultAndTokenAnswersFromTheStoreWithoutARequest() throws {
        let machine = try InProcessMachine()
        let signedIn = machine.signIn()
        #expect(signedIn.status == 0, "\(signedIn.stderr)")
        let json = try #require(JSONValue.parse(signedIn.stdout))
        #expect(json["user"]?["email"]?.stringValue == "ada@example.com")
        let idToken = try #require(json["user"]?["idToken"]?.stringValue)
        #expect(signedIn.stderr.contains("Signed in as ada@example.com with yahoo.com"))

        let before = machine.standIn.requests.count
        let token = machine.run(["token"])
        #expect(token.status == 0 && token.stdout == idToken + "\n", "\(token)")
        #expect(machine.standIn.requests.count == before, "no request for a fresh token")
    }

    @Test func anExpiringTokenIsRefreshedOnTheInjectedClock() throws {
        let machine = try InProcessMachine()
        #expect(machine.signIn().status == 0)
        let first = machine.run(["token"]).stdout
        #expect(machine.requests(to: "token") == 0)
        // The stand-in's tokens last an hour; 59 minutes later one minute is left, less than
        // the default --min-valid.
        machine.clock.advance(by: 59 * 60)
        let refreshed = machine.run(["token"])
        #expect(refreshed.status == 0, "\(refreshed.stderr)")
        #expect(machine.requests(to: "token") == 1)
        #expect(refreshed.stdout != first)
        #expect(machine.run(["token"]).stdout == refreshed.stdout, "the new token is saved")
    }

    @Test func statusAccountsUseAndSignout() throws {
        let machine = try InProcessMachine()
        #expect(machine.signIn(email: "ada@example.com").status == 0)
        #expect(machine.signIn("microsoft.com", email: "grace@example.com").status == 0)

        let status = machine.run(["status", "--json"])
        #expect(status.status == 0)
        #expect(JSONValue.parse(status.stdout)?["current"]?["email"]?.stringValue == "grace@example.com", "\(status.stdout)")
        let accounts = machine.run(["accounts"])
        #expect(accounts.stdout.contains("ada@example.com") && accounts.stdout.contains("grace@example.com"))

        #expect(machine.run(["use", "ada@example.com"]).status == 0)
        #expect(JSONValue.parse(machine.run(["whoami", "--offline"]).stdout)?["email"]?.stringValue == "ada@example.com")

        #expect(machine.run(["signout"]).status == 0)
        #expect(machine.run(["signout"]).status == 0, "grace took over from ada")
        let afterSignout = machine.run(["token"])
        #expect(afterSignout.status == ExitCode.signInAgain.rawValue, "\(afterSignout)")
        #expect(afterSignout.stderr.hasPrefix("fbauth: "))
        #expect(afterSignout.stdout.isEmpty)
    }

    @Test func usageErrorsAreExit2WithoutAnyRequest() throws {
        let machine = try InProcessMachine()
        for arguments in [["token", "--min-valid", "soon"], ["signin"], ["signin", "--provider", "yahoo"], ["frobnicate"]] {
            let result = machine.run(arguments)
            #expect(result.status == ExitCode.usage.rawValue, "\(arguments): \(result)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        }
        #expect(machine.standIn.requests.isEmpty)
    }

    @Test func linkingAProviderTheUserHasIsRefusedBeforeTheBrowser() throws {
        let machine = try InProcessMachine()
        #expect(machine.signIn().status == 0)
        let before = machine.standIn.requests.count
        let result = machine.run(["link", "--loopback", "--provider", "yahoo.com", "--port", "0"])
        #expect(result.status == ExitCode.failure.rawValue)
        #expect(result.stderr.contains("yahoo.com is already linked"))
        #expect(machine.standIn.requests.count == before)
    }
}

/// `TokenShortcut`, which the live tool asks first for a bare `fbauth token`: it answers as the
/// full command does, without a request, or leaves the command to it.
@Suite struct TokenShortcutTests {
    @Test func aFreshTokenIsPrintedAsTheFullCommandPrintsIt() throws {
        let machine = try InProcessMachine()
        #expect(machine.signIn().status == 0)
        let full = machine.run(["token"])
        let before = machine.standIn.requests.count
        let quick = machine.shortcut()
        #expect(quick.status == 0 && quick.stdout == full.stdout && quick.stderr.isEmpty, "\(quick)")
        #expect(machine.standIn.requests.count == before, "no request")
        // Without FIREBASE_API_KEY, the project of the last sign-in on that emulator.
        #expect(machine.shortcut(unset: ["FIREBASE_API_KEY"]).stdout == full.stdout)
        // The same, from $HOME/.config/fbauth when FBAUTH_CONFIG_DIR is unset: nothing there.
        #expect(machine.shortcut(unset: ["FBAUTH_CONFIG_DIR"]).status == nil)
    }

    @Test func itLeavesToTheFullCommandWhatItCannotAnswerAlone() throws {
        let machine = try InProcessMachine()
        #expect(machine.shortcut().status == nil, "not signed in: the full command explains")
        #expect(machine.signIn().status == 0)
        #expect(machine.shortcut(setting: ["FIREBASE_AUTH_EMULATOR_HOST": "http://localhost"]).status == nil, "a usage error to report")
        #expect(machine.shortcut(setting: ["FIREBASE_API_KEY": "another-project"]).status == nil)
        machine.clock.advance(by: 59 * 60)
        let expiring = machine.shortcut()
        #expect(expiring.status == nil && expiring.stdout.isEmpty, "a token to refresh")
        #expect(machine.run(["token"]).status == 0 && machine.requests(to: "token") == 1)
        #expect(machine.shortcut().status == 0, "the refreshed token is fresh again")
    }

    @Test func aDirectoryOthersCanWriteIsLeftToTheFullCommandWhichRefusesIt() throws {
        let machine = try InProcessMachine()
        #expect(machine.signIn().status == 0)
        #expect(chmod(machine.directory, 0o777) == 0)
        defer { chmod(machine.directory, 0o700) }
        #expect(machine.shortcut().status == nil)
        let full = machine.run(["token"])
        #expect(full.status != 0 && full.stderr.contains("can be written by other users"), "\(full)")
    }
}
