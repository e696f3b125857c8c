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
        private let process: ChildProcess

        init() throws {
            root = NSTemporaryDirectory() + "fbauth-release-" + UUID().uuidString
            let stage = root + "/stage/fbauth-9.9.9"
            try FileManager.default.createDirectory(atPath: stage + "/bin", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: stage + "/share/man/man1", withIntermediateDirectories: true)
            try "#!/bin/sh\necho 'fbauth 9.9.9'\n".write(toFile: stage + "/bin/fbauth", atomically: true, encoding: .utf8)
            chmod(stage + "/bin/fbauth", 0o755)
            try ".TH FBAUTH 1\n".write(toFile: stage + "/share/man/man1/fbauth.1", atomically: true, encoding: .utf8)
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
            root = sys.argv[1]
            class Handler(http.server.BaseHTTPRequestHandler):
                def log_message(self, *args): pass
                def do_GET(self):
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
            server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """.write(toFile: server, atomically: true, encoding: .utf8)
            let portFile = root + "/port"
            let descriptor = open(portFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            defer { close(descriptor) }
            process = try ChildProcess("/usr/bin/env", ["python3", server, root], environment: ProcessInfo.processInfo.environment, stdout: descriptor)
            var port: UInt16?
            let deadline = Date().addingTimeInterval(20)
            while port == nil, Date() < deadline {
                port = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { UInt16($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
                if port == nil { usleep(50_000) }
            }
            self.port = try #require(port, "the release server did not start")
        }

        var url: String { "http://127.0.0.1:\(port)" }

        deinit {
            process.signal(SIGKILL)
            _ = process.wait(timeout: 10)
            try? FileManager.default.removeItem(atPath: root)
        }
    }

    func install(_ server: ReleaseServer, base: String? = nil, version: String? = "9.9.9") throws -> (result: RunResult, bindir: String) {
        let home = NSTemporaryDirectory() + "fbauth-installer-" + UUID().uuidString
        let bindir = home + "/bin"
        var environment = ["PATH": "/usr/bin:/bin", "HOME": home, "FBAUTH_DOWNLOAD_URL": base ?? server.url, "FBAUTH_INSTALL_DIR": bindir]
        if let version { environment["FBAUTH_VERSION"] = version }
        let result = try Subprocess.run(URL(fileURLWithPath: "/bin/sh"), [Self.installer], environment: environment, stdin: nil,
                                        directory: NSTemporaryDirectory(), timeout: 60)
        return (result, bindir)
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
}
