import FBAuthStandIn
import Foundation
import TestSupport
import Testing

/// Issue 41, item 6: CI without storage, with the real binary. A refresh token given as
/// FBAUTH_REFRESH_TOKEN (or --refresh-token-file) is the run's session, in memory only;
/// `--store none` keeps nothing. Neither reads or writes the config directory or a keyring.
@Suite struct StorelessCITests {
    /// A signed-in harness, and the refresh token `fbauth token --refresh-token` gives for it.
    func refreshTokenOfASignIn(_ email: String = "ci@example.com") throws -> (Harness, String, String) {
        let harness = try Harness()
        let uid = harness.standIn.createPasswordUser(email: email, password: "correct horse")
        #expect(try harness.run(["signin", "--provider", "password", "--email", email], stdin: "correct horse\n").status == 0)
        let printed = try harness.run(["token", "--refresh-token"])
        #expect(printed.status == 0 && printed.stderr.isEmpty, "no warning off a terminal: \(printed)")
        #expect(printed.stdout == (harness.savedSessions.first?["refreshToken"] as? String ?? "?") + "\n", "\(printed)")
        return (harness, uid, printed.stdout.trimmingCharacters(in: .newlines))
    }

    /// An empty, private config directory to prove nothing is written.
    func emptyConfigDirectory(_ harness: Harness) throws -> String {
        let directory = harness.directory + "/ci-config"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        return directory
    }

    @Test func aRefreshTokenIsTheRunsSessionAndNothingIsWrittenOrAskedOfABus() throws {
        let (harness, uid, refreshToken) = try refreshTokenOfASignIn()
        // The config directory holds another user's fresh session: it must not answer.
        let other = harness.standIn.createPasswordUser(email: "other@example.com", password: "correct horse")
        #expect(try harness.run(["signin", "--provider", "password", "--email", "other@example.com"], stdin: "correct horse\n").status == 0)
        let strace = try #require(["/usr/bin/strace", "/bin/strace"].first(where: FileManager.default.isExecutableFile(atPath:)), "strace (Debian: strace; .ci/run installs it)")
        let log = harness.directory + "/strace.log"
        let bus = harness.directory + "/no-bus"
        let environment = harness.environment.merging(["FBAUTH_REFRESH_TOKEN": refreshToken, "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(bus)"]) { $1 }
        let traced = try Subprocess.run(URL(fileURLWithPath: strace), ["-f", "-e", "trace=openat,connect,mkdir,rename,unlink", "-o", log, Binaries.url("fbauth").path, "token"],
                                        environment: environment, stdin: nil, directory: harness.directory, timeout: 30)
        #expect(traced.status == 0 && traced.stderr.isEmpty, "\(traced)")
        let claims = MultiFactorTests.claims(traced.stdout.trimmingCharacters(in: .newlines))
        #expect(claims["user_id"] as? String == uid && claims["user_id"] as? String != other, "the refresh token's user, not the saved one: \(claims)")
        let calls = try String(contentsOfFile: log, encoding: .utf8)
        #expect(calls.contains("connect("), "the trace saw the refresh: \(calls.prefix(2000))")
        #expect(!calls.contains(harness.configDirectory) && !calls.contains(bus), "neither the config directory nor a bus: \(calls)")
        #expect(harness.standIn.requests(to: "token").count == 1)

        // Every output format, from a config directory that stays empty.
        let empty = try emptyConfigDirectory(harness)
        for format in ["raw", "json", "header", "exec-credential"] {
            let result = try harness.run(["token", "--format", format], environment: ["FBAUTH_REFRESH_TOKEN": refreshToken, "FBAUTH_CONFIG_DIR": empty])
            #expect(result.status == 0 && result.stderr.isEmpty && result.stdout.contains("eyJ"), "\(format): \(result)")
        }
        let whoami = try harness.run(["whoami"], environment: ["FBAUTH_REFRESH_TOKEN": refreshToken, "FBAUTH_CONFIG_DIR": empty])
        #expect(whoami.status == 0 && whoami.json["email"] as? String == "ci@example.com", "\(whoami)")
        let status = try harness.run(["status"], environment: ["FBAUTH_REFRESH_TOKEN": refreshToken, "FBAUTH_CONFIG_DIR": empty])
        #expect(KeyringTrustTests.masked(status.stdout) == [
            "Signed in as ci@example.com (uid UID) on fbauth-stand-in (key …pi-key, emulator HOST)",
            "  providers: password",
            "  token: valid for N min; refresh token in memory only",
            "Sessions are stored in memory only (nothing is kept after this run)"], "\(status)")
        let fromFile = try harness.run(["token", "--refresh-token-file", "-"], stdin: refreshToken + "\n", environment: ["FBAUTH_CONFIG_DIR": empty])
        #expect(fromFile.status == 0 && fromFile.stdout.hasPrefix("eyJ") && fromFile.stderr.isEmpty, "\(fromFile)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty).isEmpty, "nothing written")
    }

    @Test func storeNoneSignsInAndKeepsNothing() throws {
        let harness = try Harness()
        _ = harness.standIn.createPasswordUser(email: "ci@example.com", password: "correct horse")
        let empty = try emptyConfigDirectory(harness)
        for (arguments, environment) in [(["--store", "none"], [:]), ([], ["FBAUTH_STORE": "none"])] as [([String], [String: String])] {
            let signin = try harness.run(arguments + ["signin", "--provider", "password", "--email", "ci@example.com", "--json"], stdin: "correct horse\n",
                                         environment: environment.merging(["FBAUTH_CONFIG_DIR": empty]) { $1 })
            #expect(signin.status == 0, "\(signin)")
            #expect(signin.stderr == "Signed in as ci@example.com with a password on project fbauth-stand-in (emulator \(harness.standIn.hostAndPort)); nothing was saved (--store none): its refresh token is in the result (--json).\n", "\(signin.stderr)")
            let refreshToken = try #require(signin.json.string("user", "refreshToken"))
            // The result is the CI recipe's input: it makes the next run's session.
            let token = try harness.run(["token", "--refresh-token-file", "-"], stdin: refreshToken, environment: ["FBAUTH_CONFIG_DIR": empty])
            #expect(token.status == 0 && token.stdout.hasPrefix("eyJ"), "\(token)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty).isEmpty, "nothing written")
        let nobody = try harness.run(["--store", "none", "status"], environment: ["FBAUTH_CONFIG_DIR": empty])
        #expect(nobody.status == 3 && nobody.stdout == "Not signed in.\nSessions are stored in memory only (nothing is kept after this run)\n", "\(nobody)")
    }

    @Test func badAndRefusedRefreshTokensAreOneLine() throws {
        let (harness, uid, refreshToken) = try refreshTokenOfASignIn()
        let empty = try emptyConfigDirectory(harness)
        let run = { (extra: [String: String], arguments: [String]) in try harness.run(arguments, environment: extra.merging(["FBAUTH_CONFIG_DIR": empty]) { $1 }) }

        let malformed = try run(["FBAUTH_REFRESH_TOKEN": "not a token"], ["token"])
        #expect(malformed.status == 2 && malformed.stdout.isEmpty && malformed.stderr == "fbauth: FBAUTH_REFRESH_TOKEN holds no refresh token (letters, digits and -._~+/=, as `fbauth token --refresh-token` prints one)\n", "\(malformed)")
        let noKey = try run(["FBAUTH_REFRESH_TOKEN": refreshToken, "FIREBASE_API_KEY": ""], ["token"])
        #expect(noKey.status == 2 && noKey.stderr == "fbauth: FBAUTH_REFRESH_TOKEN needs the API key of its project: set FIREBASE_API_KEY, or pass --api-key KEY or --app-config FILE\n", "\(noKey)")
        let both = try run(["FBAUTH_REFRESH_TOKEN": refreshToken], ["--store", "keyring", "token"])
        #expect(both.status == 2 && both.stderr == "fbauth: --store keyring keeps the session, and FBAUTH_REFRESH_TOKEN keeps nothing: give one\n", "\(both)")

        harness.standIn.revokeTokens(uid: uid)
        let revoked = try run(["FBAUTH_REFRESH_TOKEN": refreshToken], ["token"])
        #expect(revoked.status == 3 && revoked.stdout.isEmpty && revoked.stderr == "fbauth: FBAUTH_REFRESH_TOKEN: the refresh token was refused [TOKEN_EXPIRED]; take a new one where the session was signed in\n", "\(revoked)")
        #expect(!revoked.stderr.contains(refreshToken))
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty).isEmpty)
    }

    /// Printed on request only, and warned about where it would stay on screen.
    @Test func theRefreshTokenOnATerminalComesWithAWarning() throws {
        let (harness, _, refreshToken) = try refreshTokenOfASignIn()
        let shown = try BackgroundProcess(["token", "--refresh-token"], harness: harness, stdoutOnTerminal: true)
        let result = shown.finish()
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "fbauth: warning: this refresh token signs in as ci@example.com until the user is signed out everywhere; keep it in a secret store, not in a file, a log or a chat (pipe it: fbauth token --refresh-token | gh secret set FBAUTH_REFRESH_TOKEN).\n", "\(result)")
        #expect(try #require(shown.terminal).screen().contains(refreshToken))
        let mixed = try harness.run(["token", "--refresh-token", "--json"])
        #expect(mixed.status == 2 && mixed.stderr == "fbauth: --refresh-token prints the refresh token alone; leave out --json\n", "\(mixed)")
    }
}
