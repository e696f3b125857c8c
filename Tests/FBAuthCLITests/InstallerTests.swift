import Foundation
import TestSupport
import Testing

/// Issue 40, item 3: Scripts/get-fbauth.sh against a local release server: a good tarball is
/// installed; a tampered one, a missing release and a download cut short install nothing and
/// say why, naming the file.
@Suite(.serialized) struct InstallerTests {
    static let installer = DistributionTests.repository.appendingPathComponent("Scripts/get-fbauth.sh").path
    static let arch: String = {
        var name = utsname()
        uname(&name)
        let machine = withUnsafeBytes(of: &name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return machine == "aarch64" ? "arm64" : machine
    }()

    /// A release directory: `download/v9.9.9/` with a tarball of a stand-in `fbauth`, and
    /// SHA256SUMS; `latest/download/` the same. Served by a small HTTP server on loopback that
    /// also cuts downloads under `/truncated/` short.
    final class ReleaseServer {
        let root: String
        let port: UInt16
        let tarball = "fbauth-9.9.9-linux-\(InstallerTests.arch).tar.gz"
        let host: String
        private let process: ChildProcess

        /// `host`: the loopback address it listens on (the installer takes plain http from
        /// 127.0.0.1 alone without being told).
        init(host: String = "127.0.0.1") throws {
            self.host = host
            root = NSTemporaryDirectory() + "fbauth-release-" + UUID().uuidString
            let stage = root + "/stage/fbauth-9.9.9"
            try FileManager.default.createDirectory(atPath: stage + "/bin", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: stage + "/share/man/man1", withIntermediateDirectories: true)
            try "#!/bin/sh\necho 'fbauth 9.9.9'\n".write(toFile: stage + "/bin/fbauth", atomically: true, encoding: .utf8)
            chmod(stage + "/bin/fbauth", 0o755)
            try ".TH FBAUTH 1\n".write(toFile: stage + "/share/man/man1/fbauth.1", atomically: true, encoding: .utf8)
            try FileManager.default.createDirectory(atPath: stage + "/share/bash-completion/completions", withIntermediateDirectories: true)
            try "complete -F _fbauth fbauth\n".write(toFile: stage + "/share/bash-completion/completions/fbauth", atomically: true, encoding: .utf8)
            for directory in ["/download/v9.9.9", "/latest/download"] {
                let release = root + "/files" + directory
                try FileManager.default.createDirectory(atPath: release, withIntermediateDirectories: true)
                let tar = try Subprocess.run(URL(fileURLWithPath: "/bin/tar"), ["-C", root + "/stage", "-czf", release + "/" + tarball, "fbauth-9.9.9"],
                                             environment: ["PATH": "/usr/bin:/bin"], stdin: nil, directory: root, timeout: 30)
                #expect(tar.status == 0, "\(tar)")
                let sums = try Subprocess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "sha256sum \(tarball) > SHA256SUMS"],
                                              environment: ["PATH": "/usr/bin:/bin"], stdin: nil, directory: release, timeout: 30)
                #expect(sums.status == 0, "\(sums)")
            }
            let server = root + "/server.py"
            try """
            import http.server, os, socket, sys
            root, host = sys.argv[1], sys.argv[2]
            class Handler(http.server.BaseHTTPRequestHandler):
                def log_message(self, *args): pass
                def do_GET(self):
                    # /redirect/X answers with a redirect to plain http://host:port/X.
                    if self.path.startswith("/redirect/"):
                        self.send_response(302)
                        self.send_header("Location", "http://%s:%d%s" % (host, self.server.server_address[1], self.path[len("/redirect"):]))
                        self.send_header("Content-Length", "0")
                        self.end_headers()
                        return
                    truncated = self.path.startswith("/truncated/")
                    path = os.path.join(root, "files", self.path[len("/truncated"):].lstrip("/") if truncated else self.path.lstrip("/"))
                    if not os.path.isfile(path):
                        self.send_error(404)
                        return
                    data = open(path, "rb").read()
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    # A tarball cut short: half of it, then the connection closes.
                    self.wfile.write(data[: len(data) // 2] if truncated and path.endswith(".tar.gz") else data)
                    self.wfile.flush()
            server = http.server.HTTPServer((host, 0), Handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """.write(toFile: server, atomically: true, encoding: .utf8)
            let portFile = root + "/port"
            let descriptor = open(portFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            defer { close(descriptor) }
            process = try ChildProcess("/usr/bin/env", ["python3", server, root, host], environment: ProcessInfo.processInfo.environment, stdout: descriptor)
            var port: UInt16?
            _ = eventually(within: 20) {
                port = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { UInt16($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
                return port != nil
            }
            self.port = try #require(port, "the release server did not start")
        }

        var url: String { "http://\(host):\(port)" }

        /// Replaces both releases' SHA256SUMS with `text`.
        func writeSums(_ text: String) throws {
            for directory in ["/download/v9.9.9", "/latest/download"] {
                try text.write(toFile: root + "/files" + directory + "/SHA256SUMS", atomically: true, encoding: .utf8)
            }
        }

        /// The tarball's line of SHA256SUMS as the release wrote it.
        func sumsLine() throws -> String {
            try String(contentsOfFile: root + "/files/download/v9.9.9/SHA256SUMS", encoding: .utf8)
        }

        deinit {
            process.signal(SIGKILL)
            _ = process.wait(timeout: 10)
            try? FileManager.default.removeItem(atPath: root)
        }
    }

    func install(_ server: ReleaseServer, base: String? = nil, version: String? = "9.9.9", bindir: String? = nil,
                 extra: [String: String] = [:], shell: [String] = []) throws -> (result: RunResult, bindir: String) {
        let home = NSTemporaryDirectory() + "fbauth-installer-" + UUID().uuidString
        let bindir = bindir ?? home + "/bin"
        var environment = ["PATH": "/usr/bin:/bin", "HOME": home, "FBAUTH_DOWNLOAD_URL": base ?? server.url, "FBAUTH_INSTALL_DIR": bindir, "INSTALLER": Self.installer]
        if let version { environment["FBAUTH_VERSION"] = version }
        environment.merge(extra) { $1 }
        let result = try Subprocess.run(URL(fileURLWithPath: "/bin/sh"), shell.isEmpty ? [Self.installer] : shell, environment: environment, stdin: nil,
                                        directory: NSTemporaryDirectory(), timeout: 60)
        return (result, bindir)
    }

    /// Issue 60, item 4: the folder a release is made of (dist/, as release.sh writes it, its
    /// SHA256SUMS right in it), as a path, a file:// URL or a loopback mirror, as well as
    /// GitHub's layout; a folder another user may write in is refused, naming it.
    @Test(.enabled(if: Self.arch == "x86_64" || Self.arch == "arm64", "no release is made for this machine"))
    func theFolderAReleaseIsMadeOfIsTaken() throws {
        let server = try ReleaseServer()
        let dist = server.root + "/files/download/v9.9.9"
        for base in [dist, "file://" + dist, server.url + "/download/v9.9.9"] {
            let (result, bindir) = try install(server, base: base)
            #expect(result.status == 0 && result.stderr.hasPrefix("get-fbauth: installed fbauth-9.9.9-linux-\(Self.arch) as \(bindir)/fbauth\n"), "\(base): \(result)")
        }
        let (missing, _) = try install(server, base: server.root + "/nowhere")
        #expect(missing.status == 1 && missing.stderr == "get-fbauth: \(server.root)/nowhere is not a directory (FBAUTH_DOWNLOAD_URL)\n", "\(missing)")
        chmod(dist, 0o777)
        defer { chmod(dist, 0o755) }
        let (shared, sharedDir) = try install(server, base: dist)
        #expect(shared.status == 1 && shared.stderr == "get-fbauth: \(dist) can be written by other users (drwxrwxrwx), who could change what is installed from \(dist): nothing was installed\n", "\(shared)")
        #expect(!FileManager.default.fileExists(atPath: sharedDir + "/fbauth"))
    }

    @Test(.enabled(if: Self.arch == "x86_64" || Self.arch == "arm64", "no release is made for this machine"))
    func aGoodTarballIsInstalledAndTheLatestToo() throws {
        let server = try ReleaseServer()
        for version in ["9.9.9", nil] {
            let (result, bindir) = try install(server, version: version)
            #expect(result.status == 0 && result.stderr.hasPrefix("get-fbauth: installed fbauth-9.9.9-linux-\(Self.arch) as \(bindir)/fbauth\n"), "\(result)")
            let installed = try Subprocess.run(URL(fileURLWithPath: bindir + "/fbauth"), ["--version"], environment: [:], stdin: nil, directory: bindir, timeout: 10)
            #expect(installed.stdout == "fbauth 9.9.9\n")
            #expect(FileManager.default.fileExists(atPath: bindir + "/../share/man/man1/fbauth.1"))
            // Issue 51, item 5: where the man page and the completions went, and what loads them.
            let share = URL(fileURLWithPath: bindir).deletingLastPathComponent().path + "/share"
            #expect(result.stderr.contains("get-fbauth: man page: \(share)/man/man1/fbauth.1 (man finds it once \(bindir) is on PATH; else: man \(share)/man/man1/fbauth.1)\n"), "\(result.stderr)")
            let bashLoader = FileManager.default.fileExists(atPath: "/usr/share/bash-completion/bash_completion") || FileManager.default.fileExists(atPath: "/etc/bash_completion")
            #expect(result.stderr.contains(bashLoader
                ? "get-fbauth: bash completion: \(share)/bash-completion/completions/fbauth (the bash-completion package loads it in new shells)\n"
                : "get-fbauth: bash completion: \(share)/bash-completion/completions/fbauth; without the bash-completion package nothing loads it: add to ~/.bashrc: . \(share)/bash-completion/completions/fbauth\n"), "\(result.stderr)")
        }
    }

    @Test func aTamperedTarballInstallsNothing() throws {
        let server = try ReleaseServer()
        let tarball = server.root + "/files/download/v9.9.9/" + server.tarball
        var bytes = try Data(contentsOf: URL(fileURLWithPath: tarball))
        bytes[bytes.count / 2] ^= 0xff
        try bytes.write(to: URL(fileURLWithPath: tarball))
        let (result, bindir) = try install(server)
        #expect(result.status == 1 && result.stderr.hasPrefix("get-fbauth: \(server.tarball) does not match SHA256SUMS (expected "), "\(result)")
        #expect(result.stderr.hasSuffix("nothing was installed\n") && result.stderr.split(separator: "\n").count == 1, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: bindir + "/fbauth") && !FileManager.default.fileExists(atPath: bindir))
    }

    @Test func aMissingReleaseInstallsNothing() throws {
        let server = try ReleaseServer()
        let (result, bindir) = try install(server, version: "1.2.3")
        #expect(result.status == 1 && result.stderr == "get-fbauth: cannot download \(server.url)/download/v1.2.3/SHA256SUMS\n", "\(result)")
        #expect(!FileManager.default.fileExists(atPath: bindir))
    }

    @Test func aDownloadCutShortInstallsNothing() throws {
        let server = try ReleaseServer()
        let (result, bindir) = try install(server, base: server.url + "/truncated")
        #expect(result.status == 1 && result.stderr.hasSuffix("get-fbauth: cannot download \(server.url)/truncated/download/v9.9.9/\(server.tarball)\n"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: bindir))
    }

    // MARK: - Issue 47: a hostile mirror, and another user at the install directory

    /// A SHA256SUMS line whose name carries a sed command ran it, as the installing user, before
    /// any checksum was compared. Now downloaded text is only ever compared as fields: the
    /// command never runs, and a release with two lines for this machine installs nothing.
    @Test func aChecksumLineCannotRunACommand() throws {
        let server = try ReleaseServer()
        let marker = server.root + "/ran"
        let good = try server.sumsLine()
        let hostile = String(repeating: "0", count: 64) + "  fbauth-/x/;etouch${IFS}\(marker);#-linux-\(Self.arch).tar.gz\n"
        try server.writeSums(hostile + good)
        let (latest, bindir) = try install(server, version: nil)
        #expect(latest.status == 1 && latest.stderr == "get-fbauth: the release's SHA256SUMS names 2 tarballs for linux-\(Self.arch), where one is expected: nothing was installed\n", "\(latest)")
        try server.writeSums(hostile)
        let (alone, _) = try install(server, version: nil)
        #expect(alone.status == 1 && alone.stderr == "get-fbauth: the release's SHA256SUMS line for linux-\(Self.arch) is not a checksum and a tarball's name (fbauth-VERSION-linux-\(Self.arch).tar.gz): nothing was installed\n", "\(alone)")
        #expect(!FileManager.default.fileExists(atPath: marker), "the line's command ran")
        #expect(!FileManager.default.fileExists(atPath: bindir))
        // A named version takes only its own line, whatever else the file holds.
        try server.writeSums(hostile + good)
        let (named, namedDir) = try install(server)
        #expect(named.status == 0 && FileManager.default.fileExists(atPath: namedDir + "/fbauth"), "\(named)")
        #expect(!FileManager.default.fileExists(atPath: marker), "the line's command ran")
    }

    /// `cp` to `$bindir/.fbauth.new.$$` followed a link planted under that name, overwriting
    /// what it pointed to. The file the link points to is left as it was now.
    @Test func aLinkAtAPredictableNameIsNotFollowed() throws {
        let server = try ReleaseServer()
        let home = NSTemporaryDirectory() + "fbauth-installer-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: home + "/bin", withIntermediateDirectories: true)
        let victim = home + "/victim"
        try "precious\n".write(toFile: victim, atomically: true, encoding: .utf8)
        chmod(victim, 0o600)
        // The shell that runs the installer keeps its process id across exec: every name made
        // from `$$` is known in advance.
        let (result, bindir) = try install(server, bindir: home + "/bin", extra: ["VICTIM": victim],
                                           shell: ["-c", "ln -s \"$VICTIM\" \"$FBAUTH_INSTALL_DIR/.fbauth.new.$$\"; exec /bin/sh \"$INSTALLER\""])
        #expect(result.status == 0, "\(result)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        var info = stat()
        #expect(stat(victim, &info) == 0 && info.st_mode & 0o7777 == 0o600)
        let installed = try Subprocess.run(URL(fileURLWithPath: bindir + "/fbauth"), ["--version"], environment: [:], stdin: nil, directory: bindir, timeout: 10)
        #expect(installed.stdout == "fbauth 9.9.9\n")
    }

    /// An install directory that other users may write in, or that another user owns, is
    /// refused before anything is put there, naming it.
    @Test func anInstallDirectoryAnotherUserControlsIsRefused() throws {
        let server = try ReleaseServer()
        let shared = NSTemporaryDirectory() + "fbauth-shared-bin-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        chmod(shared, 0o777)
        let (open, _) = try install(server, bindir: shared)
        #expect(open.status == 1 && open.stderr == "get-fbauth: \(shared) can be written by other users (drwxrwxrwx), who could replace fbauth there: choose another FBAUTH_INSTALL_DIR; nothing was installed\n", "\(open)")
        #expect((try FileManager.default.contentsOfDirectory(atPath: shared)).isEmpty)
        guard geteuid() == 0 else { return }  // only root can give a directory away
        chmod(shared, 0o755)
        #expect(chown(shared, 4242, 4242) == 0)
        let (owned, _) = try install(server, bindir: shared)
        #expect(owned.status == 1 && owned.stderr == "get-fbauth: \(shared) is owned by another user (uid 4242), who could replace fbauth there: choose another FBAUTH_INSTALL_DIR; nothing was installed\n", "\(owned)")
        #expect((try FileManager.default.contentsOfDirectory(atPath: shared)).isEmpty)
    }

    /// Over plain http nothing would be checked against the network (SHA256SUMS travels the same
    /// way): https only, but for a mirror on 127.0.0.1, localhost or [::1], or when
    /// FBAUTH_ALLOW_HTTP=1 says so (with a warning). A redirect to plain http is refused.
    @Test func plainHTTPOnlyFromLoopbackOrWhenAskedFor() throws {
        let server = try ReleaseServer(host: "127.0.0.2")
        let (refused, bindir) = try install(server)
        #expect(refused.status == 1 && refused.stderr == "get-fbauth: refusing \(server.url): releases are downloaded over https only (http only from 127.0.0.1, localhost or [::1], or with FBAUTH_ALLOW_HTTP=1)\n", "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: bindir))
        let (ftp, _) = try install(server, base: "ftp://127.0.0.1/files")
        #expect(ftp.status == 1 && ftp.stderr == "get-fbauth: refusing ftp://127.0.0.1/files: FBAUTH_DOWNLOAD_URL must be an https:// URL\n", "\(ftp)")
        let (allowed, allowedDir) = try install(server, extra: ["FBAUTH_ALLOW_HTTP": "1"])
        #expect(allowed.status == 0 && allowed.stderr.hasPrefix("get-fbauth: warning: downloading over plain http (\(server.url)): anyone on the way can replace both the tarball and SHA256SUMS\nget-fbauth: installed fbauth-9.9.9-linux-\(Self.arch) as \(allowedDir)/fbauth\n"), "\(allowed)")

        let loopback = try ReleaseServer()
        let (redirected, redirectedDir) = try install(loopback, base: loopback.url + "/redirect")
        #expect(redirected.status == 1 && redirected.stderr == "get-fbauth: cannot download \(loopback.url)/redirect/download/v9.9.9/SHA256SUMS\n", "\(redirected)")
        #expect(!FileManager.default.fileExists(atPath: redirectedDir))
    }

    /// Issue 56, item 2: the loopback exception compares the URL's host exactly. A user part
    /// that reads as loopback (`http://127.0.0.1:80@HOST/`, which is HOST to curl) took plain
    /// http from another host, with no warning. 127.0.0.2 stands for that host here.
    @Test func aUserPartThatReadsAsLoopbackIsAnotherHost() throws {
        let server = try ReleaseServer(host: "127.0.0.2")
        for base in ["http://127.0.0.1:80@127.0.0.2:\(server.port)", "http://localhost@127.0.0.2:\(server.port)",
                     "http://[::1]:1@127.0.0.2:\(server.port)/", "http://127.0.0.1.\(server.port):\(server.port)"] {
            let (refused, bindir) = try install(server, base: base)
            #expect(refused.status == 1 && refused.stderr == "get-fbauth: refusing \(base.hasSuffix("/") ? String(base.dropLast()) : base): releases are downloaded over https only (http only from 127.0.0.1, localhost or [::1], or with FBAUTH_ALLOW_HTTP=1)\n", "\(base): \(refused)")
            #expect(!FileManager.default.fileExists(atPath: bindir))
        }
    }

    /// A mirror on loopback is asked directly, past any proxy the environment names (a proxy is
    /// another host on the way). The proxy here answers nothing, so using it would fail.
    @Test func aLoopbackMirrorBypassesTheProxy() throws {
        let server = try ReleaseServer()
        let proxy = ["http_proxy": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9", "all_proxy": "http://127.0.0.1:9"]
        let (result, bindir) = try install(server, extra: proxy)
        #expect(result.status == 0 && result.stderr.hasPrefix("get-fbauth: installed fbauth-9.9.9-linux-\(Self.arch) as \(bindir)/fbauth\n"), "\(result)")
        // The control: the same proxy for a download that is not loopback's is used, and fails.
        let direct = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/curl"), ["-fsS", "-o", "/dev/null", "http://127.0.0.3:\(server.port)/"],
                                        environment: ["PATH": "/usr/bin:/bin"].merging(proxy) { $1 }, stdin: nil, directory: "/", timeout: 30)
        #expect(direct.status != 0, "the proxy is dead: \(direct)")
    }

    /// The directories above the install directory are judged as fbauth judges those above its
    /// config directory: a bin directory of the user's (root's, here) inside a folder anyone may
    /// write was installed into, and could then be swapped for another user's.
    @Test func aFolderOthersMayWriteAboveTheInstallDirectoryIsRefused() throws {
        let server = try ReleaseServer()
        let shared = NSTemporaryDirectory() + "fbauth-shared-" + UUID().uuidString
        let bindir = shared + "/bin"
        try FileManager.default.createDirectory(atPath: bindir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        chmod(shared, 0o777)
        defer { try? FileManager.default.removeItem(atPath: shared) }
        let (refused, _) = try install(server, bindir: bindir)
        #expect(refused.status == 1 && refused.stderr == "get-fbauth: \(bindir) is inside \(shared), which can be written by other users (drwxrwxrwx), who could replace fbauth there: choose another FBAUTH_INSTALL_DIR; nothing was installed\n", "\(refused)")
        #expect((try FileManager.default.contentsOfDirectory(atPath: bindir)).isEmpty)
        // Sticky, as /tmp is: others cannot rename the bin directory away (the control).
        chmod(shared, 0o1777)
        let (sticky, _) = try install(server, bindir: bindir)
        #expect(sticky.status == 0, "\(sticky)")
    }

    /// A link the user made to their install directory is resolved, then judged where it leads:
    /// it was refused as `lrwxrwxrwx`, a link's own mode. One to a directory others may write is
    /// refused naming both.
    @Test func aLinkedInstallDirectoryIsJudgedWhereItLeads() throws {
        let server = try ReleaseServer()
        let home = NSTemporaryDirectory() + "fbauth-linked-" + UUID().uuidString
        let real = home + "/real-bin", link = home + "/bin"
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real-bin")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let (linked, _) = try install(server, bindir: link)
        #expect(linked.status == 0 && linked.stderr.hasPrefix("get-fbauth: installed fbauth-9.9.9-linux-\(Self.arch) as \(link)/fbauth\n"), "\(linked)")
        #expect(FileManager.default.isExecutableFile(atPath: real + "/fbauth"))
        chmod(real, 0o777)
        let (refused, _) = try install(server, bindir: link)
        #expect(refused.status == 1 && refused.stderr == "get-fbauth: \(link) (which is \(real)) can be written by other users (drwxrwxrwx), who could replace fbauth there: choose another FBAUTH_INSTALL_DIR; nothing was installed\n", "\(refused)")
    }
}
