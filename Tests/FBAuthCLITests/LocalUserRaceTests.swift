import FBAuthStandIn
import Foundation
import TestSupport
import Testing

/// Another user of the machine races the user's browser to the sign-in, as the attack did: it
/// reads the browser's command line from /proc (readable by every user), takes whatever address
/// it finds there before the browser does, and consents as itself — or, in the hosted flow,
/// posts a result it prepared in advance. The sign-in must still end as the user.
@Suite(.enabled(if: geteuid() == 0, "needs root: the attack runs as a second user, which only root can create"))
struct LocalUserRaceTests {
    enum Flow: String, CaseIterable, CustomTestStringConvertible {
        case loopbackSignIn, hostedSignIn, loopbackLink
        var testDescription: String { rawValue }
    }

    /// Both protections: the listener refusing other users' connections (the default on Linux,
    /// issue 27 item 10: the browser is given the address itself) and the launch page (macOS,
    /// and here `FBAUTH_CONNECTION_CHECK=off`).
    @Test(arguments: Flow.allCases, ["on", "off"])
    func anotherUserWhoReadsTheBrowsersArgumentsCannotSignInFirst(flow: Flow, connectionCheck: String) throws {
        let attacker = try OtherUser.ensure()
        let harness = try Harness()
        let shared = try attacker.sharedCopy(of: Binaries.url("fbauth-fake-browser").path)
        var arguments = ["signin", "--provider", "yahoo.com"]
        var victimResult: String?, attackerResult: String?
        switch flow {
        case .loopbackSignIn:
            arguments.append("--loopback")
        case .hostedSignIn:
            victimResult = try hostedResult(harness, email: "ada@example.com")
            attackerResult = try hostedResult(harness, email: "mallory@evil.example")
        case .loopbackLink:
            #expect(try harness.signIn("yahoo.com", ["--email", "ada@example.com"]).status == 0)
            arguments = ["link", "--provider", "github.com", "--loopback"]
        }

        // The user's browser: it starts (its arguments are public from then on), and is slow to
        // make its first request — here, until the attack is over.
        let go = harness.directory + "/go"
        #expect(mkfifo(go, 0o600) == 0)
        let browser = harness.directory + "/slow-browser"
        let script = """
            #!/bin/sh
            read line < '\(go)'
            FBAUTH_FAKE_BROWSER_EMAIL=ada@example.com FBAUTH_FAKE_BROWSER_RESULT='\(victimResult ?? "")' exec '\(shared.binary)' "$1"
            """
        _ = FileManager.default.createFile(atPath: browser, contents: Data(script.utf8), attributes: [.posixPermissions: 0o755])
        let running = try BackgroundProcess(arguments + ["--port", "0", "--timeout", "30"], harness: harness,
                                            environment: ["BROWSER": browser, "FBAUTH_CONNECTION_CHECK": connectionCheck])
        #expect(eventually(within: 20) { Self.processArguments().contains { $0.first == "/bin/sh" && $0.dropFirst().first == browser } })

        // The other user: whatever the browser's command line holds, used before the browser.
        let attack = try attacker.run(Self.attackScript, environment: [
            "FAKE_BROWSER": shared.binary, "FBAUTH_FAKE_BROWSER_EMAIL": "mallory@evil.example",
            "FBAUTH_FAKE_BROWSER_RESULT": attackerResult ?? "", "BROWSER_SCRIPT": browser,
        ])
        #expect(attack.stdout.contains("found "), "the attacker sees the browser's argument: \(attack)")
        #expect(attack.stdout.contains(connectionCheck == "on" ? "found http://localhost:" : "found file://"), "\(attack)")
        #expect(attack.status != 0, "the attack must not get through: \(attack)")

        // Now the user's browser goes ahead, and the sign-in ends as the user.
        let writer = open(go, O_WRONLY)
        #expect(writer >= 0)
        _ = write(writer, "go\n", 3)
        close(writer)
        let result = running.finish()
        #expect(result.status == 0, "\(result)")
        switch flow {
        case .loopbackSignIn, .hostedSignIn:
            #expect(result.json.string("user", "email") == "ada@example.com", "\(result)")
        case .loopbackLink:
            let github = (result.json[path: "user", "providerData"] as? [[String: Any]] ?? []).first { $0["providerId"] as? String == "github.com" }
            #expect(github?["email"] as? String == "ada@example.com", "the user's own GitHub account was linked: \(result)")
        }
        #expect(!harness.standIn.users.contains { $0.email == "mallory@evil.example" }, "the attacker never signed in")
        #expect(!result.stdout.contains("mallory"), "\(result)")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: harness.configDirectory)) ?? []
        #expect(!left.contains { $0.hasPrefix("signin-") }, "the page is removed when the sign-in ends: \(left)")
    }

    /// Finds an address in any process's arguments and hands it to a browser that consents as
    /// the attacker (posting the attacker's own result on fbauth's hosted page).
    static let attackScript = #"""
        for f in /proc/[0-9]*/cmdline; do
            tr '\0' '\n' < "$f" 2>/dev/null | { read -r first; read -r second; read -r third
                [ "$second" = "$BROWSER_SCRIPT" ] && printf '%s\n' "$third"; }
        done > "$HOME/seen"
        url=$(head -n 1 "$HOME/seen")
        [ -n "$url" ] || { echo "no address in the browser's arguments"; exit 10; }
        echo "found $url"
        exec "$FAKE_BROWSER" "$url"
        """#

    /// What Firebase's hosted handler hands the page after `email` consents at the provider:
    /// `{"requestUri", "sessionId"}`, prepared before the race.
    private func hostedResult(_ harness: Harness, email: String) throws -> String {
        let handler = "\(harness.standIn.baseURL)/emulator/auth/handler?apiKey=test-api-key&appName=%5BDEFAULT%5D"
            + "&authType=signInViaPopup&providerId=yahoo.com&eventId=1"
        let relay = try #require(try HeadlessBrowser(email: email).visit(handler).last?.body)
        let start = try #require(relay.firstRange(of: "var authEvent = ")).upperBound
        let json = String(relay[start...].prefix { $0 != "\n" }).trimmingCharacters(in: CharacterSet(charactersIn: ";"))
        let event = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let result = ["requestUri": try #require(event["urlResponse"] as? String), "sessionId": try #require(event["sessionId"] as? String)]
        return String(decoding: try JSONSerialization.data(withJSONObject: result), as: UTF8.self)
    }

    /// Every process's arguments, as another user reads them.
    static func processArguments() -> [[String]] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.filter { $0.allSatisfy(\.isNumber) }.compactMap { pid in
            FileManager.default.contents(atPath: "/proc/\(pid)/cmdline").map { data in
                data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            }
        }
    }
}

/// A second, unprivileged user of this machine (created once), and what it runs.
struct OtherUser {
    static let name = "fbauth-race"
    let uid: uid_t
    let gid: gid_t

    static func ensure() throws -> OtherUser {
        if getpwnam(name) == nil {
            let made = try Subprocess.run(URL(fileURLWithPath: "/usr/sbin/useradd"), ["--system", "--no-create-home", "--shell", "/bin/sh", name],
                                          environment: ["PATH": "/usr/sbin:/usr/bin:/bin"], stdin: nil, directory: "/", timeout: 30)
            guard made.status == 0 || made.status == 9 else { throw OtherUserError(description: "useradd failed: \(made)") }
        }
        guard let entry = getpwnam(name) else { throw OtherUserError(description: "no user \(name)") }
        return OtherUser(uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
    }

    /// A copy of `binary` this user can run, in a directory of its own that it can use as home.
    func sharedCopy(of binary: String) throws -> (directory: String, binary: String) {
        let directory = NSTemporaryDirectory() + "fbauth-race-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        chown(directory, uid, gid)
        let copy = directory + "/fbauth-fake-browser"
        try FileManager.default.copyItem(atPath: binary, toPath: copy)
        chmod(copy, 0o755)
        return (directory, copy)
    }

    /// Runs a shell script as this user, with its home in a directory of its own.
    func run(_ script: String, environment: [String: String]) throws -> RunResult {
        let home = NSTemporaryDirectory() + "fbauth-race-home-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        chown(home, uid, gid)
        defer { try? FileManager.default.removeItem(atPath: home) }
        return try Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--", "/bin/sh", "-c", script],
            environment: environment.merging(["PATH": "/usr/bin:/bin", "HOME": home]) { $1 }, stdin: nil, directory: home, timeout: 60)
    }
}

struct OtherUserError: Error, CustomStringConvertible {
    var description: String
}
