import Foundation
import TestSupport
import Testing

/// Issue 51, item 1: the release tarball's `fbauth` on Debian 11 (bullseye, glibc 2.31), the
/// oldest glibc the release is linked for: its symbols (`objdump -T`), then `fbauth demo`, and
/// `fbauth emulator`, `signin`, `token` and `token | verify-token` to the end, run inside a
/// bullseye root made by debootstrap (kept under ~/.cache between runs).
@Suite struct OldGlibcTests {
    static let debootstrap = ["/usr/sbin/debootstrap", "/usr/bin/debootstrap"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: ReleaseTests.linux && InstallerTests.arch == "x86_64" && getuid() == 0 && debootstrap != nil,
                   "needs Linux on x86_64, root (chroot) and debootstrap (.ci/run installs it)"),
          .timeLimit(.minutes(20)))
    func theTarballRunsOnDebian11() throws {
        let root = try Self.bullseyeRoot()
        let dist = NSTemporaryDirectory() + "fbauth-dist-glibc-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dist) }
        let release = try ReleaseTests.release(into: dist)
        try #require(release.status == 0, "\(release)")
        let version = try #require(release.stdout.firstMatch(of: /fbauth (\d+\.\d+\.\d+), glibc >= 2\.(\d+)/))
        #expect(Int(version.output.2)! <= 31, "the release asks for glibc 2.\(version.output.2)")

        // The newest glibc symbol version the binary names, read off it here too.
        let staged = root + "/opt/fbauth-test"
        try? FileManager.default.removeItem(atPath: staged)
        try FileManager.default.createDirectory(atPath: staged, withIntermediateDirectories: true)
        let tarball = "\(dist)/fbauth-\(version.output.1)-linux-x86_64.tar.gz"
        let unpack = try Self.sh("tar -xzf '\(tarball)' -C '\(staged)' && objdump -T '\(staged)'/fbauth-*/bin/fbauth | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1")
        #expect(unpack.status == 0 && ["GLIBC_2.27", "GLIBC_2.28", "GLIBC_2.29", "GLIBC_2.30", "GLIBC_2.31"].contains(unpack.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(unpack)")

        // Inside the root: nothing of this machine's but the kernel.
        let port = Int.random(in: 20_000...40_000)
        let script = """
        set -e
        export HOME=/root/fbauth-home PATH=/usr/bin:/bin
        rm -rf "$HOME" && mkdir -p "$HOME"
        fbauth=$(echo /opt/fbauth-test/fbauth-*/bin/fbauth)
        ldd --version | head -1
        "$fbauth" --version
        "$fbauth" demo </dev/null >"$HOME/demo.out" 2>&1 || { cat "$HOME/demo.out"; exit 1; }
        grep -E '^(Signed in as|Demo complete|  .* demo --config-dir)' "$HOME/demo.out"
        "$fbauth" emulator --port \(port) >"$HOME/emulator.log" 2>&1 &
        emulator=$!
        trap 'kill $emulator 2>/dev/null' EXIT
        until (exec 3<>/dev/tcp/127.0.0.1/\(port)) 2>/dev/null; do sleep 0.05; done
        export FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:\(port) FIREBASE_API_KEY=any-key-an-emulator-takes
        "$fbauth" signin --provider anonymous >/dev/null
        "$fbauth" token | "$fbauth" verify-token
        """
        let run = try Subprocess.run(URL(fileURLWithPath: "/usr/sbin/chroot"), [root, "/bin/bash", "-c", script], environment: ["PATH": "/usr/sbin:/usr/bin:/bin"],
                                     stdin: nil, directory: "/", timeout: 120)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("GLIBC 2.31") && run.stdout.contains("fbauth \(version.output.1) (commit "), "\(run)")
        #expect(run.stdout.contains("Signed in as demo@yahoo.com with yahoo.com") && run.stdout.contains("Demo complete"), "\(run)")
        #expect(run.stdout.contains(#""aud" : "demo-fbauth""#) && run.stdout.contains(#""sign_in_provider" : "anonymous""#), "\(run)")
        // Without /proc in the root, the demo's suggestions still name the binary by its path (argv[0]).
        #expect(run.stdout.contains("  /opt/fbauth-test/fbauth-\(version.output.1)/bin/fbauth demo --config-dir ./fbauth-demo") && !run.stdout.contains("swift run"), "\(run)")
        // stderr holds the first sign-in's note that there is no keyring (no D-Bus in the root), its
        // line, and the emulator's unsigned-token warning, and nothing else.
        let stderr = run.stderr.split(separator: "\n")
        #expect(stderr.count == 3 && stderr[0].hasPrefix("no keyring found (no D-Bus session")
                && stderr[1].hasPrefix("Signed in as ") && stderr[1].contains(" anonymously on project demo-fbauth (emulator 127.0.0.1:\(port))")
                && stderr[2].hasPrefix("fbauth: warning: this token is not signed (alg none)"), "\(run)")
    }

    /// A minimal Debian 11 root with libcurl (which fbauth loads), made once and kept:
    /// FBAUTH_TEST_BULLSEYE_ROOT, else ~/.cache/fbauth-tests/debian-11. Cancels the test when
    /// debootstrap cannot make one (no route to Debian's archive).
    static func bullseyeRoot() throws -> String {
        let home = ProcessInfo.processInfo.environment["HOME"] ?? "/root"
        let root = ProcessInfo.processInfo.environment["FBAUTH_TEST_BULLSEYE_ROOT"] ?? home + "/.cache/fbauth-tests/debian-11"
        if FileManager.default.fileExists(atPath: root + "/.fbauth-ready") { return root }
        let partial = root + ".partial"
        try? FileManager.default.removeItem(atPath: partial)
        try FileManager.default.createDirectory(atPath: partial, withIntermediateDirectories: true)
        let made = try Subprocess.run(URL(fileURLWithPath: debootstrap!), ["--variant=minbase", "--include=libcurl4,ca-certificates", "bullseye", partial,
                                                                          ProcessInfo.processInfo.environment["FBAUTH_DEBIAN_MIRROR"] ?? "http://deb.debian.org/debian"],
                                      environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], stdin: nil, directory: "/", timeout: 900)
        guard made.status == 0 else {
            try? FileManager.default.removeItem(atPath: partial)
            let last = made.stderr.split(separator: "\n").last.map(String.init) ?? made.stdout.split(separator: "\n").last.map(String.init) ?? ""
            try Test.cancel("debootstrap could not make a Debian 11 root: \(last)")
        }
        try? FileManager.default.removeItem(atPath: root)
        try FileManager.default.moveItem(atPath: partial, toPath: root)
        _ = FileManager.default.createFile(atPath: root + "/.fbauth-ready", contents: nil)
        return root
    }

    static func sh(_ command: String) throws -> RunResult {
        try Subprocess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", command], environment: ["PATH": "/usr/bin:/bin"], stdin: nil, directory: "/", timeout: 60)
    }
}
