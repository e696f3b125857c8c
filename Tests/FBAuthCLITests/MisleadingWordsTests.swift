import FBAuthStandIn
import Foundation
import TestSupport
import Testing

/// Issue 41, item 7: words that mislead, each seen with the real binary as a user sees it.
@Suite struct MisleadingWordsTests {
    @Test func aNearMissOfAnOptionIsSuggested() throws {
        let harness = try Harness()
        let result = try harness.run(["--versio"])
        #expect(result.status == 2 && result.stdout.isEmpty && result.stderr == "fbauth: unknown option '--versio'; did you mean '--version'?\n", "\(result)")
    }

    @Test(arguments: [("/usr/bin/zsh", "zsh"), ("/usr/local/bin/fish", "fish"), ("/bin/bash", "bash"), ("/opt/microsoft/powershell/pwsh", "powershell")])
    func completionWithoutAShellUsesTheShellOfTheUser(path: String, shell: String) throws {
        let harness = try Harness()
        let bySHELL = try harness.run(["completion"], environment: ["SHELL": path])
        let named = try harness.run(["completion", shell])
        #expect(bySHELL.status == 0 && named.status == 0 && bySHELL.stdout == named.stdout && bySHELL.stderr.isEmpty, "\(bySHELL)")
    }

    @Test func anUnknownShellIsAskedFor() throws {
        let harness = try Harness()
        let unknown = try harness.run(["completion"], environment: ["SHELL": "/bin/tcsh"])
        #expect(unknown.status == 2 && unknown.stderr == "fbauth: which shell? $SHELL is 'tcsh': give bash, zsh, fish or powershell\n", "\(unknown)")
        let unset = try harness.run(["completion"], environment: ["SHELL": ""])
        #expect(unset.status == 2 && unset.stderr == "fbauth: which shell? $SHELL is not set: give bash, zsh, fish or powershell\n", "\(unset)")
    }

    /// The first sign-in's notice where no keyring runs.
    static func noKeyring(_ harness: Harness) -> String {
        "no keyring found (no D-Bus session: DBUS_SESSION_BUS_ADDRESS is not set): refresh tokens are kept in \(harness.sessionsPath) (0600)\n"
    }

    /// An email link is not a password, though Firebase names both `password`: the JSON keeps
    /// the SDK's name, the words say how. The mail note names the stand-in's project, learnt
    /// from the emulator before any session exists.
    @Test func anEmailLinkSessionSaysEmailLink() throws {
        let harness = try Harness()
        let host = harness.standIn.hostAndPort
        let waiting = try BackgroundProcess(["signin", "--provider", "emailLink", "--email", "ada@example.com", "--timeout", "30"], harness: harness)
        #expect(waiting.waitForStderr(containing: "A sign-in link was sent"), "\(waiting.stderr)")
        waiting.interrupt()
        let sent = waiting.finish()
        #expect(sent.stderr.split(separator: "\n").first.map(String.init) == "A sign-in link was sent to ada@example.com (an Auth emulator sends no mail: the link is listed at http://\(host)/emulator/v1/projects/fbauth-stand-in/oobCodes). Open it on this machine and the sign-in completes here; on another device, copy the link (or the address it ends on) and paste it here.", "\(sent)")
        let link = try #require(harness.standIn.latestOobLink(sentTo: "ada@example.com", requestType: "EMAIL_SIGNIN"))

        let signin = try harness.run(["signin", "--provider", "emailLink", "--email", "ada@example.com", "--link", "-"], stdin: link + "\n")
        #expect(signin.status == 0, "\(signin)")
        #expect(signin.json.string("additionalUserInfo", "providerId") == "password" && signin.json[path: "user", "isAnonymous"] as? Bool == false)
        #expect(signin.stderr == Self.noKeyring(harness) + "Signed in as ada@example.com with an email link on project fbauth-stand-in (emulator \(host)); the session is saved in \(harness.sessionsPath).\n", "\(signin.stderr)")

        let status = try harness.run(["status"])
        #expect(KeyringTrustTests.masked(status.stdout) == [
            "Signed in as ada@example.com (uid UID) on fbauth-stand-in (key …pi-key, emulator HOST)",
            "  providers: password (email link)",
            "  token: valid for N min; refresh token in sessions.json",
            "Sessions are stored in \(harness.sessionsPath); new refresh tokens are kept in sessions.json"], "\(status)")
        #expect(try harness.run(["status", "--json"]).json[path: "current", "providers"] as? [String] == ["password"])
        let accounts = try harness.run(["accounts"])
        #expect(accounts.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            == [["*", harness.standIn.users[0].uid, "ada@example.com", "emailLink", "valid", "for", "59", "min"]], "\(accounts)")
    }

    /// A custom token's user has no provider, yet is no anonymous user: it can sign in again
    /// with another token. Anonymous is how a user was made (the ID token's sign_in_provider).
    @Test func aCustomTokenUserIsNotAnonymous() throws {
        let harness = try Harness()
        let signin = try harness.run(["signin", "--provider", "custom", "--token-file", "-"], stdin: #"{"uid": "ci-bot"}"#)
        #expect(signin.status == 0 && signin.json[path: "user", "isAnonymous"] as? Bool == false, "\(signin)")
        #expect(signin.stderr == Self.noKeyring(harness) + "Signed in as ci-bot with a custom token on project fbauth-stand-in (emulator \(harness.standIn.hostAndPort)); the session is saved in \(harness.sessionsPath).\n", "\(signin.stderr)")
        #expect(try harness.run(["token", "--force-refresh"]).status == 0)
        let status = try harness.run(["status"])
        #expect(status.stdout.contains("\n  providers: none\n") && !status.stdout.contains("anonymous"), "\(status)")
        #expect(try harness.run(["accounts"]).stdout.split(separator: " ", omittingEmptySubsequences: true).contains("-"))
        #expect(try harness.run(["whoami", "--offline"]).json["isAnonymous"] as? Bool == false)
    }

    /// An anonymous account cannot be signed in to again: when its session ends, fbauth says
    /// it is lost (unless linked) instead of sending the user to make a new one.
    @Test func anEndedAnonymousSessionIsLostNotSignedInAgain() throws {
        let harness = try Harness()
        let signin = try harness.run(["signin", "--provider", "anonymous"])
        #expect(signin.status == 0 && signin.stderr.hasPrefix(Self.noKeyring(harness) + "Signed in as \(signin.json.string("user", "uid") ?? "?") anonymously on project"), "\(signin)")
        let uid = try #require(signin.json.string("user", "uid"))
        harness.standIn.revokeTokens(uid: uid)
        let token = try harness.run(["token", "--force-refresh"])
        #expect(token.status == 3 && token.stdout.isEmpty && token.stderr == "fbauth: the session of \(uid) is no longer valid [TOKEN_EXPIRED]; an anonymous account cannot be signed in to again, so unless it was linked to a provider it is lost (`fbauth signin --provider anonymous` makes a new, empty user)\n", "\(token)")
        let status = try harness.run(["status"])
        #expect(status.status == 3 && status.stderr == "fbauth: the server signed \(uid) out; an anonymous account cannot be signed in to again, so unless it was linked to a provider it is lost (`fbauth signin --provider anonymous` makes a new, empty user)\n", "\(status)")
        #expect(try harness.run(["accounts"]).stdout.contains("signed out by the server: the anonymous account is lost"))
    }

    @Test func anUnknownSessionIsNamedWithOneHint() throws {
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com", ["--email", "ada@example.com"]).status == 0)
        let result = try harness.run(["use", "foo"])
        #expect(result.status == 3 && result.stdout.isEmpty && result.stderr == "fbauth: no saved session for 'foo' (`fbauth accounts --all` lists them)\n", "\(result)")
        let nearMiss = try harness.run(["use", "ada@example.co"])
        #expect(nearMiss.stderr == "fbauth: no saved session for 'ada@example.co'; did you mean ada@example.com? (`fbauth accounts --all` lists them)\n", "\(nearMiss)")
    }

    /// A key with no session is not "no current session": `fbauth use` cannot help there.
    @Test func aKeyWithNoSessionSaysSo() throws {
        let harness = try Harness()
        #expect(try harness.signIn("yahoo.com", ["--email", "ada@example.com"]).status == 0)
        let host = harness.standIn.hostAndPort
        let result = try harness.run(["--api-key", "foo", "status"])
        #expect(result.status == 3, "\(result)")
        #expect(KeyringTrustTests.masked(result.stdout) == [
            "Not signed in to the project of API key …foo (emulator HOST).",
            "Other saved sessions:",
            "  ada@example.com (uid UID) on fbauth-stand-in (key …pi-key, emulator HOST): yahoo.com; token valid for N min, refresh token in sessions.json",
            "Sessions are stored in \(harness.sessionsPath); new refresh tokens are kept in sessions.json"], "\(result)")
        #expect(result.stderr == "fbauth: no session is saved for the project of API key …foo (emulator \(host)); sign in there with `fbauth signin --provider ID`, or leave the project unnamed to use the sessions listed\n", "\(result)")
    }

    /// A shared folder given to --import is refused with advice about --import, and a folder
    /// that does not exist is not made when nothing will be exported.
    @Test func importAdviceNamesTheImportDirectory() throws {
        let harness = try Harness()
        let open = harness.directory + "/open"
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: true)
        chmod(open, 0o1777)
        let result = try harness.run(["emulator", "--port", "0", "--import", open])
        #expect(result.status == 2 && result.stdout.isEmpty && result.stderr == "fbauth: cannot import: the import directory \(open) can be written by other users (mode 1777), who could replace or read the exported users; give --import a directory of your own, such as ./emulator-data (made 0700 if new)\n", "\(result)")

        let missing = harness.directory + "/not-yet"
        let (emulator, _) = try harness.startEmulator(["--import", missing])
        emulator.interrupt()
        let stopped = emulator.finish()
        #expect(stopped.stderr.hasPrefix("Starting with no users: \(missing) does not exist yet.\n"), "\(stopped)")
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    /// fish shows each value's own words beside it, and the option's help as written (a colon
    /// stays a colon). Completed by fish itself (`complete -C`).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/fish") || ProcessInfo.processInfo.environment["CI"] != nil, "fish is not installed"))
    func fishDescribesEachValue() throws {
        let harness = try Harness()
        let script = harness.directory + "/fbauth.fish"
        try harness.run(["completion", "fish"]).stdout.write(toFile: script, atomically: true, encoding: .utf8)
        func complete(_ line: String) throws -> [String] {
            let result = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/fish"), ["--no-config", "-c", "source \(script); complete -C'\(line)'"],
                                            environment: ["PATH": "/usr/bin:/bin", "HOME": harness.directory], stdin: nil, directory: harness.directory, timeout: 30)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
            return result.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try complete("fbauth signin --provider ") == [
            "anonymous\ta new anonymous user", "apple.com\tApple", "custom\ta custom token from your server",
            "emailLink\ta sign-in link sent by email", "facebook.com\tFacebook", "github.com\tGitHub", "google.com\tGoogle",
            "microsoft.com\tMicrosoft", "password\temail and password", "twitter.com\tTwitter", "yahoo.com\tYahoo"])
        #expect(try complete("fbauth signin --redirect-host ") == ["127.0.0.1\tIPv4 loopback (X requires it)", "localhost\tthe default", "[::1]\tIPv6 loopback"])
        #expect(try complete("fbauth mfa enroll totp --qr ") == [
            "colour\tblack on white, any theme", "invert\tdark blocks, for a light background", "plain\tlight blocks, for a dark background"])
        #expect(try complete("fbauth signin --loopb") == [
            "--loopback\tHave the provider redirect straight to fbauth's listener instead of through Firebase's hosted handler (the default). Needs http://localhost:PORT/__/auth/handler registered with the provider; required by --print-url, --complete and pasted redirects."])
    }
}

/// Issue 41, item 8: the demo says "nothing leaves this machine" only when it is true, and when
/// the browser cannot load the Firebase JS SDK (offline) it finishes on the loopback flow.
@Suite struct DemoPromiseTests {
    func demoHarness() throws -> Harness {
        let harness = try Harness()
        for name in ["FIREBASE_AUTH_EMULATOR_HOST", "FIREBASE_API_KEY", "BROWSER", "DISPLAY"] { harness.environment[name] = nil }
        return harness
    }

    @Test func withoutABrowserNothingLeavesTheMachineAndItSaysSo() throws {
        let harness = try demoHarness()
        let result = try harness.run(["demo"], timeout: 60)
        #expect(result.status == 0, "\(result)")
        let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("fbauth demo: a stand-in for Firebase Auth and a fake yahoo.com provider are serving on http://127.0.0.1:")
                && first.hasSuffix(" (nothing leaves this machine)."), "\(result.stderr)")
    }

    @Test(.enabled(if: Chromium.isInstalled || ProcessInfo.processInfo.environment["CI"] != nil, "chromium is not installed"))
    func anSDKThatCannotLoadFallsBackToTheLoopbackFlow() throws {
        let harness = try demoHarness()
        let log = harness.directory + "/chromium.log"
        let result = try harness.run(["demo", "--timeout", "60"], environment: [
            "BROWSER": Binaries.url("fbauth-test-chromium").path, "FBAUTH_CHROMIUM_LOG": log,
            // A host nobody answers for: the page meets what an offline machine meets at gstatic.
            "FBAUTH_FIREBASE_JS_URL": "https://unreachable.fbauth.test/firebasejs",
        ], timeout: 120)
        #expect(result.status == 0, "\(result)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasSuffix("; your browser loads the Firebase JS SDK from unreachable.fbauth.test, and nothing else leaves this machine.") == true, "\(result.stderr)")
        #expect(!result.stderr.contains("(nothing leaves this machine)"))
        #expect(lines.contains("Your browser could not load the Firebase JS SDK from unreachable.fbauth.test (offline?), so the demo runs the loopback redirect flow instead, which needs nothing from the internet."), "\(result.stderr)")
        #expect(lines.contains { $0.hasPrefix("Signed in as demo@yahoo.com with yahoo.com on project fbauth-stand-in") } && !lines.contains { $0.hasPrefix("fbauth:") }, "\(result.stderr)")
        #expect(result.json.string("user", "email") == "demo@yahoo.com")
    }
}
