import FBAuthStandIn
import Foundation
import TestSupport
import Testing

/// Issue 47, item 1: fbauth decides on what it opened, never on a path checked before. The
/// config directory is opened one directory at a time from `/`, each checked on its descriptor
/// (OpenSSH's `safe_path` rule for those above it), and every file in it is opened through it.
/// A folder above it that another user may write (a shared team folder, a CI workspace) let
/// that user exchange the config directory for one of their own between the check and the
/// open: it is refused now, naming the folder, by every command that keeps or reads files
/// there.
@Suite struct DecidedOnWhatWasOpenedTests {
    /// A harness whose config directory is `FOLDER/fbauth`, with a session in it, FOLDER made
    /// by `prepare`.
    func inSharedFolder(_ prepare: (String) -> Void) throws -> (Harness, folder: String, config: String) {
        let harness = try Harness()
        let folder = harness.directory + "/shared"
        let config = folder + "/fbauth"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        harness.environment["FBAUTH_CONFIG_DIR"] = config
        #expect(try harness.signIn("yahoo.com", ["--email", "ada@example.com"]).status == 0)
        prepare(folder)
        return (harness, folder, config)
    }

    @Test func aFolderOthersMayWriteAboveTheConfigDirectoryIsRefused() throws {
        let (harness, folder, config) = try inSharedFolder { chmod($0, 0o777) }
        let sentence = "fbauth: the config directory \(config) is inside \(folder), which can be written by other users (mode 0777)"
        // The user's own folder: they can make it private.
        let fix = "run: chmod go-w '\(folder)'\n"
        for command in [["token"], ["status"], ["whoami"], ["signout"]] {
            let result = try harness.run(command)
            #expect(result.status == 7 && result.stdout.isEmpty
                        && result.stderr == "\(sentence), so another user could replace or read your sessions; \(fix)", "\(command): \(result)")
        }
        let verify = try harness.run(["verify-token", "--project", "fbauth-stand-in"], stdin: "x.y.z")
        #expect(verify.status == 7 && verify.stdout.isEmpty
                    && verify.stderr == "\(sentence), so another user could plant the keys tokens are checked with; \(fix)", "\(verify)")

        // Sticky (as /tmp is), others cannot rename or remove what is not theirs: fine.
        chmod(folder, 0o1777)
        let token = try harness.run(["token"])
        #expect(token.status == 0 && token.stdout.hasPrefix("eyJ"), "\(token)")
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give the folder to another user"))
    func aFolderOfAnotherUserAboveTheConfigDirectoryIsRefused() throws {
        let (harness, folder, config) = try inSharedFolder { #expect(chown($0, 65534, 65534) == 0) }
        for command in [["token"], ["status"]] {
            let result = try harness.run(command)
            #expect(result.status == 7 && result.stdout.isEmpty
                        && result.stderr == "fbauth: the config directory \(config) is inside \(folder), which is owned by another user (uid 65534), so another user could replace or read your sessions; use a directory of your own (--config-dir or FBAUTH_CONFIG_DIR)\n", "\(command): \(result)")
        }
        // Root's folders above are as good as the user's own (the control: the test can fail).
        #expect(chown(folder, 0, 0) == 0)
        #expect(try harness.run(["token"]).status == 0)
    }

    /// A link on the way is read inside a checked directory and walked the same way: the
    /// directory it names is checked as if it had been named.
    @Test func linksOnTheWayAreWalkedAndChecked() throws {
        let (harness, folder, config) = try inSharedFolder { _ in }
        let link = harness.directory + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "shared/./fbauth/../fbauth")
        harness.environment["FBAUTH_CONFIG_DIR"] = link
        let through = try harness.run(["token"])
        #expect(through.status == 0 && through.stdout.hasPrefix("eyJ"), "\(through)")
        chmod(folder, 0o777)
        let refused = try harness.run(["status"])
        #expect(refused.status == 7 && refused.stderr.hasPrefix("fbauth: the config directory \(link) is inside \(folder), which can be written by other users (mode 0777)"), "\(refused)")
        _ = config
    }

    /// Issue 56, item 1: a link in a sticky folder anyone may write (`/tmp`) is followed only
    /// when the user, root or the folder's owner made it, as the kernel's
    /// `fs.protected_symlinks` rules. Another user's link there chose which of the user's
    /// directories a throwaway store used: `signout --all` through it emptied the real one.
    @Test(.enabled(if: geteuid() == 0, "needs root to make a link another user's"))
    func aLinkAnotherUserMadeInAStickyFolderIsNotFollowed() throws {
        let (harness, _, config) = try inSharedFolder { _ in }
        let sticky = harness.directory + "/tmp"
        try FileManager.default.createDirectory(atPath: sticky, withIntermediateDirectories: false)
        chmod(sticky, 0o1777)
        let link = sticky + "/ci-store"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: config)
        #expect(lchown(link, 65534, 65534) == 0)
        let before = try String(contentsOfFile: config + "/sessions.json", encoding: .utf8)
        let refusal = "the config directory \(link) is a symbolic link that another user (uid 65534) made in \(sticky), where anyone may make one (mode 1777), so another user could replace or read your sessions; use a directory of your own (--config-dir or FBAUTH_CONFIG_DIR)"
        for command in [["signout", "--all"], ["token"], ["status"]] {
            let result = try harness.run(["--config-dir", link] + command)
            #expect(result.status == 7 && result.stdout.isEmpty && result.stderr == "fbauth: \(refusal)\n", "\(command): \(result)")
        }
        #expect(try String(contentsOfFile: config + "/sessions.json", encoding: .utf8) == before, "the real store is untouched")

        // Through a link of hers further up, a sign-in would have made a directory where she chose.
        let planted = harness.directory + "/fbauth-planted"
        let above = sticky + "/above"
        try FileManager.default.createSymbolicLink(atPath: above, withDestinationPath: harness.directory)
        #expect(lchown(above, 65534, 65534) == 0)
        let signIn = try harness.signIn("yahoo.com", ["--email", "ada@example.com"], environment: ["FBAUTH_CONFIG_DIR": above + "/fbauth-planted"])
        #expect(signIn.status == 7 && signIn.stderr.hasPrefix("fbauth: the config directory \(above)/fbauth-planted is inside \(above), which is a symbolic link that another user (uid 65534) made in \(sticky)"), "\(signIn)")
        #expect(!FileManager.default.fileExists(atPath: planted), "nothing was made where the link led")

        // The controls (the test can fail): the user's own link (root's, here) is followed, and
        // so is any link in a folder that is not sticky and shared.
        #expect(lchown(link, geteuid(), getegid()) == 0)
        let own = try harness.run(["--config-dir", link, "token"])
        #expect(own.status == 0 && own.stdout.hasPrefix("eyJ"), "\(own)")
        #expect(lchown(link, 65534, 65534) == 0)
        chmod(sticky, 0o755)
        let unshared = try harness.run(["--config-dir", link, "token"])
        #expect(unshared.status == 0 && unshared.stdout.hasPrefix("eyJ"), "\(unshared)")
    }

    /// A loop of links, or a chain of more than 40, is said as such, naming the path given.
    @Test func aLoopOfLinksIsSaidAsSuch() throws {
        let harness = try Harness()
        let first = harness.directory + "/a", second = harness.directory + "/b"
        try FileManager.default.createSymbolicLink(atPath: first, withDestinationPath: "b/fbauth")
        try FileManager.default.createSymbolicLink(atPath: second, withDestinationPath: "a")
        for command in [["token"], ["status"]] {
            let result = try harness.run(["--config-dir", first] + command)
            #expect(result.status == 7 && result.stderr == "fbauth: cannot open \(first): its symbolic links make a loop, or a chain of more than 40\n", "\(result)")
        }
        // Forty links in a chain are walked; the 41st is one too many.
        let chain = harness.directory + "/chain"
        try FileManager.default.createDirectory(atPath: chain + "/end", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for index in 1...41 {
            try FileManager.default.createSymbolicLink(atPath: chain + "/l\(index)", withDestinationPath: index == 1 ? "end" : "l\(index - 1)")
        }
        #expect(try harness.run(["--config-dir", chain + "/l40", "status"]).status != 7)
        let tooLong = try harness.run(["--config-dir", chain + "/l41", "status"])
        #expect(tooLong.status == 7 && tooLong.stderr == "fbauth: cannot open \(chain)/l41: its symbolic links make a loop, or a chain of more than 40\n", "\(tooLong)")
    }

    /// The finding itself, with another user on the far end: while the other user exchanges the
    /// config directory for one of their own (`renameat2(RENAME_EXCHANGE)`) in a folder they may
    /// write, `verify-token` took their self-signed token 24 times in 300, and `token` could
    /// print their session's token. Now every run is refused, whatever the moment of the swap.
    @Test(.enabled(if: geteuid() == 0, "needs root: the attack runs as a second user"))
    func anotherUserExchangingTheConfigDirectoryGetsNothingIn() throws {
        let attacker = try OtherUser.ensure()
        let (harness, tokens) = try VerifyTokenTests().minted()
        let forged = try VerifyTokenTests().mint()
        let folder = harness.directory + "/shared"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        chmod(harness.directory, 0o755)
        chmod(folder, 0o777)
        // The user's config directory, with a session and the stand-in's keys kept, made while
        // the folder was still theirs alone.
        let config = folder + "/cfg"
        chmod(folder, 0o755)
        harness.environment["FBAUTH_CONFIG_DIR"] = config
        #expect(try harness.signIn("yahoo.com", ["--email", "grace@example.com"]).status == 0)
        let kept = try harness.run(["verify-token", "--project", "proj-1"], stdin: try #require(tokens["valid"]))
        #expect(kept.status == 0, "\(kept)")
        let userToken = try harness.run(["token"]).stdout
        chmod(folder, 0o777)

        // The other user's copy: their certificates under the same name, their session.
        let evil = folder + "/evil"
        try FileManager.default.createDirectory(atPath: evil, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let host = harness.standIn.hostAndPort
        let saved: [String: Any] = ["url": "http://\(host)/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com",
                                    "fetched": Int(Date().timeIntervalSince1970), "expires": Int(Date().timeIntervalSince1970) + 3600, "certificates": forged.certificates]
        try JSONSerialization.data(withJSONObject: saved).write(to: URL(fileURLWithPath: evil + "/public-keys-id-token.json"))
        let sessions = try String(contentsOfFile: config + "/sessions.json", encoding: .utf8)
        let evilToken = "eyJhbGciOiJub25lIn0.eyJldmlsIjp0cnVlfQ."
        try sessions.replacingOccurrences(of: userToken.trimmingCharacters(in: .newlines), with: evilToken)
            .write(toFile: evil + "/sessions.json", atomically: true, encoding: .utf8)
        for file in ["", "/public-keys-id-token.json", "/sessions.json"] {
            chown(evil + file, attacker.uid, attacker.gid)
            chmod(evil + file, file.isEmpty ? 0o700 : 0o600)
        }
        chmod(evil, 0o755)

        let stop = harness.directory + "/stop"
        let swapper = harness.directory + "/swap.py"
        try """
            import ctypes, os, sys, time
            libc = ctypes.CDLL(None, use_errno=True)
            a, b, stop = (arg.encode() for arg in sys.argv[1:4])
            deadline = time.time() + 60
            swaps = 0
            while not os.path.exists(stop) and time.time() < deadline:
                if libc.renameat2(-100, a, -100, b, 2) == 0:
                    swaps += 1
            print(swaps, flush=True)
            """.write(toFile: swapper, atomically: true, encoding: .utf8)
        chmod(swapper, 0o644)
        let out = harness.directory + "/swaps"
        let outFile = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0o666)
        defer { close(outFile) }
        fchown(outFile, attacker.uid, attacker.gid)
        let swapping = try ChildProcess("/usr/bin/setpriv", ["--reuid=\(attacker.uid)", "--regid=\(attacker.gid)", "--clear-groups", "--",
                                                              "/usr/bin/python3", swapper, config, evil, stop],
                                        environment: ["PATH": "/usr/bin:/bin"], stdout: outFile)
        var results: [RunResult] = []
        for _ in 0..<50 {
            results.append(try harness.run(["verify-token", "--project", "proj-1"], stdin: try #require(forged.tokens["valid"])))
            results.append(try harness.run(["token"]))
        }
        FileManager.default.createFile(atPath: stop, contents: nil)
        #expect(swapping.wait(timeout: 30))
        let swaps = Int((try? String(contentsOfFile: out, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
        #expect(swaps > 100, "the other user kept swapping: \(swaps)")
        #expect(!results.contains { $0.status == 0 }, "\(results.filter { $0.status == 0 })")
        #expect(!results.contains { $0.stdout.contains(evilToken) || $0.stdout.contains("uid-1") })
        #expect(results.allSatisfy { $0.status == 7 && $0.stderr.contains("is inside \(folder), which can be written by other users (mode 0777)") },
                "\(results.first { $0.status != 7 }.map(String.init(describing:)) ?? "")")
    }
}

/// Issue 47, item 1, for the files a user names: each is opened once and judged on what was
/// opened. Another user's file (their App Check debug token), or one others may write, is
/// refused in one line. (A credentials file: RevocationCheckTests.)
@Suite(.enabled(if: geteuid() == 0, "needs root to give a file to another user"))
struct NamedFilesTests {
    @Test func anotherUsersAppCheckTokenFileIsRefused() throws {
        let harness = try Harness()
        let file = harness.directory + "/debug-token"
        try "0a1b2c3d-4e5f\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        #expect(chown(file, 65534, 65534) == 0)
        let refused = try harness.run(["--app-check-debug-token-file", file, "--app-id", "1:123456789:web:0a1b2c3d4e5f", "signin", "--provider", "anonymous"])
        #expect(refused.status == 2 && refused.stdout.isEmpty
                    && refused.stderr == "fbauth: cannot read --app-check-debug-token-file: \(file) is owned by another user (uid 65534), so it is not trusted\n", "\(refused)")
        chown(file, 0, 0)
        chmod(file, 0o622)
        let writable = try harness.run(["--app-check-debug-token-file", file, "--app-id", "1:123456789:web:0a1b2c3d4e5f", "signin", "--provider", "anonymous"])
        #expect(writable.status == 2 && writable.stderr == "fbauth: cannot read --app-check-debug-token-file: \(file) can be written by other users (mode 0622), so it is not trusted\n", "\(writable)")
        #expect(harness.standIn.requests.isEmpty, "nothing was sent")
    }
}

/// Issue 47, items 5 and 6, with the real binary.
@Suite(.enabled(if: TokenMinting.available || ProcessInfo.processInfo.environment["CI"] != nil, "Python's cryptography is not installed (.ci/run installs it)"))
struct VerificationHardeningTests {
    /// Bidirectional controls and line separators in claims are escaped in the JSON printed:
    /// `RED\u202Egnp.exe` must not read as `REDexe.png` on a terminal. The value is the same for
    /// every JSON parser.
    @Test func claimsCannotReorderWhatTheTerminalShows() throws {
        let (harness, _) = try VerifyTokenTests().minted()
        let now = Int(Date().timeIntervalSince1970)
        let name = "RED\u{202E}gnp.exe \u{2066}x\u{2069}\u{200E}\u{200F}\u{061C}\u{202A}\u{2028}\u{2029}"
        let claims: [String: Any] = ["iss": "https://securetoken.google.com/proj-1", "aud": "proj-1", "sub": "uid-1", "iat": now - 10,
                                     "exp": now + 3000, "auth_time": now - 10, "name": name]
        func segment(_ object: [String: Any]) throws -> String {
            try JSONSerialization.data(withJSONObject: object).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let token = try segment(["alg": "none", "typ": "JWT"]) + "." + segment(claims) + "."
        let result = try harness.run(["verify-token", "--project", "proj-1"], stdin: token)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains(#""name" : "RED\u202egnp.exe \u2066x\u2069\u200e\u200f\u061c\u202a\u2028\u2029""#), "\(result.stdout)")
        #expect(!result.stdout.unicodeScalars.contains { (0x2000...0x206F).contains($0.value) || $0.value == 0x061C }, "no raw control left")
        #expect(result.json["name"] as? String == name, "the same value for a parser")
    }

    /// "At most once a minute" holds across processes: twenty `verify-token`s with a forged kid,
    /// at once, fetch Google's keys once between them (each took its own before).
    @Test func twentyProcessesWithForgedKidsFetchOnce() throws {
        let (harness, tokens) = try VerifyTokenTests().minted()
        let forged = try #require(tokens["an unknown kid"])
        let results = LockedList<RunResult>()
        DispatchQueue.concurrentPerform(iterations: 20) { _ in
            if let result = try? harness.run(["verify-token", "--project", "proj-1"], stdin: forged) { results.append(result) }
        }
        let all = results.items
        #expect(all.count == 20 && all.allSatisfy { $0.status == 1 && $0.stderr.contains("has \"kid\" claim which does not correspond to a known public key") }, "\(all.first { $0.status != 1 }.map(String.init(describing:)) ?? "")")
        #expect(harness.standIn.requests.filter { $0.path.contains("/robot/v1/metadata/x509/") }.count == 1)
    }
}

/// A list many threads append to.
final class LockedList<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var elements: [Element] = []
    func append(_ element: Element) { lock.withLock { elements.append(element) } }
    var items: [Element] { lock.withLock { elements } }
}
