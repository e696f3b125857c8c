import Foundation
import TestSupport
import Testing

/// Issue 40, items 1, 2, 4 and 5: Scripts/release.sh from this checkout: the release build of
/// every product, the four artifacts and the installer with their SHA256SUMS, a Debian package
/// that inspects right, and a tarball whose `fbauth` needs no toolchain library (release.sh
/// itself runs its demo with PATH=/usr/bin:/bin before it writes anything).
@Suite struct ReleaseTests {
    static var linux: Bool {
        #if os(Linux)
        true
        #else
        false
        #endif
    }

    /// Scripts/release.sh from this checkout into `dist`, with `extra` in its environment.
    static func release(into dist: String, extra: [String: String] = [:]) throws -> RunResult {
        let repository = DistributionTests.repository.path
        return try Subprocess.run(URL(fileURLWithPath: repository + "/Scripts/release.sh"), [dist],
                                  environment: ProcessInfo.processInfo.environment.merging(extra) { $1 }, stdin: nil, directory: repository, timeout: 1100)
    }

    @Test(.enabled(if: linux && FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-deb"), "the Debian package is made on Debian and Ubuntu"),
          .timeLimit(.minutes(20)))
    func theReleaseArtifactsAreWhole() throws {
        let dist = NSTemporaryDirectory() + "fbauth-dist-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dist) }
        let release = try Self.release(into: dist)
        try #require(release.status == 0, "\(release)")
        let version = try #require(release.stdout.firstMatch(of: /fbauth (\d+\.\d+\.\d+), glibc >= (2\.\d+)/))
        let arch = InstallerTests.arch
        let tarball = "fbauth-\(version.output.1)-linux-\(arch).tar.gz"
        let files = try FileManager.default.contentsOfDirectory(atPath: dist).sorted()
        #expect(files.contains(tarball) && files.contains("fbauth.rb") && files.contains("get-fbauth.sh") && files.contains("SHA256SUMS")
                && files.contains("fbauth-\(version.output.1)-source.tar.gz") && files.contains { $0.hasSuffix(".deb") }, "\(files)")

        func run(_ command: String) throws -> RunResult {
            try Subprocess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", command], environment: ["PATH": "/usr/bin:/bin"], stdin: nil, directory: dist, timeout: 60)
        }
        let sums = try run("sha256sum -c SHA256SUMS")
        let rpmbuild = FileManager.default.isExecutableFile(atPath: "/usr/bin/rpmbuild")
        #expect(sums.status == 0 && sums.stdout.split(separator: "\n").count == (rpmbuild ? 6 : 5) && sums.stdout.split(separator: "\n").allSatisfy { $0.hasSuffix(": OK") }, "\(sums)")
        // Issue 51, item 3: the RPM, read back and installed into a throwaway root.
        if rpmbuild {
            let rpmArch = arch == "arm64" ? "aarch64" : arch
            let rpmFile = "fbauth-\(version.output.1)-1.\(rpmArch).rpm"
            #expect(files.contains(rpmFile), "\(files)")
            let listed = try run("rpm -qpl \(rpmFile)").stdout.split(separator: "\n").map(String.init)
            #expect(listed == ["/usr/bin/fbauth", "/usr/share/bash-completion/completions/fbauth", "/usr/share/doc/fbauth/README.md",
                               "/usr/share/fish/vendor_completions.d/fbauth.fish", "/usr/share/licenses/fbauth/LICENSE",
                               "/usr/share/man/man1/fbauth.1.gz", "/usr/share/zsh/site-functions/_fbauth"], "\(listed)")
            let requires = try run("rpm -qpR \(rpmFile)").stdout
            #expect(requires.contains("libcurl\n") && requires.contains("glibc >= \(version.output.2)"), "\(requires)")
            let licence = try run("rpm -qp --queryformat '%{LICENSE} %{URL}' \(rpmFile)").stdout
            #expect(licence == "Apache-2.0 https://github.com/fbauth/fbauth", "\(licence)")
            let installed = try run("mkdir root && rpm --root $PWD/root --initdb && rpm --root $PWD/root --nodeps -i \(rpmFile) 2>/dev/null && root/usr/bin/fbauth --version && rpm --root $PWD/root -q fbauth")
            #expect(installed.status == 0 && installed.stdout.contains("fbauth \(version.output.1) (commit ") && installed.stdout.contains("fbauth-\(version.output.1)-1.\(rpmArch)"), "\(installed)")
        }
        let control = try run("dpkg-deb -I fbauth_*.deb")
        #expect(control.stdout.contains("Package: fbauth") && control.stdout.contains("Depends: libc6 (>= \(version.output.2)), libcurl4 | libcurl4t64"), "\(control)")
        let contents = try run("dpkg-deb -c fbauth_*.deb | awk '{print $6}'").stdout.split(separator: "\n").map(String.init)
        for path in ["./usr/bin/fbauth", "./usr/share/man/man1/fbauth.1.gz", "./usr/share/bash-completion/completions/fbauth",
                     "./usr/share/zsh/vendor-completions/_fbauth", "./usr/share/fish/vendor_completions.d/fbauth.fish"] {
            #expect(contents.contains(path), "\(path): \(contents)")
        }
        let unpacked = try run("mkdir x && tar -xzf \(tarball) -C x && ls x/*/bin/fbauth x/*/share/man/man1/fbauth.1 x/*/README.md && ldd x/*/bin/fbauth && x/*/bin/fbauth --version")
        #expect(unpacked.status == 0 && !unpacked.stdout.contains("libswift") && !unpacked.stdout.contains("libFoundation")
                && !unpacked.stdout.contains("libdispatch"), "\(unpacked)")
        #expect(unpacked.stdout.contains("fbauth \(version.output.1) (commit "), "\(unpacked)")
        let formula = try String(contentsOfFile: dist + "/fbauth.rb", encoding: .utf8)
        #expect(formula.contains("class Fbauth < Formula") && formula.contains("test do") && formula.contains("generate_completions_from_executable"), "\(formula)")

        // Issue 51, items 4 and 5: the licence everywhere, the project's own fields, and the
        // project's home in one place (Scripts/project.env) that every artifact takes.
        #expect(formula.contains(#"license "Apache-2.0""#) && formula.contains(#"homepage "https://github.com/fbauth/fbauth""#), "\(formula)")
        #expect(control.stdout.contains("Homepage: https://github.com/fbauth/fbauth\n") && control.stdout.contains("Maintainer: The fbauth maintainers <fbauth@users.noreply.github.com>")
                && !control.stdout.contains(".invalid"), "\(control)")
        let copyright = try run("dpkg-deb --fsys-tarfile fbauth_*.deb | tar -xO ./usr/share/doc/fbauth/copyright")
        #expect(copyright.stdout.contains("License: Apache-2.0\n") && copyright.stdout.contains("/usr/share/common-licenses/Apache-2.0"), "\(copyright)")
        let licence = try run("tar -xzOf \(tarball) fbauth-\(version.output.1)/LICENSE | head -3")
        #expect(licence.stdout.contains("Apache License") && licence.stdout.contains("Version 2.0"), "\(licence)")
        let installer = try String(contentsOfFile: dist + "/get-fbauth.sh", encoding: .utf8)
        #expect(installer.contains("default_base=\"https://github.com/fbauth/fbauth/releases\""), "the installer's default base")

        // A fork changes Scripts/project.env's variables, and every artifact follows.
        let fork = dist + "-fork"
        defer { try? FileManager.default.removeItem(atPath: fork) }
        let forked = try Self.release(into: fork, extra: ["FBAUTH_HOME": "https://git.example.org/me/fbauth"])
        try #require(forked.status == 0, "\(forked)")
        let forkFormula = try String(contentsOfFile: fork + "/fbauth.rb", encoding: .utf8)
        let forkInstaller = try String(contentsOfFile: fork + "/get-fbauth.sh", encoding: .utf8)
        #expect(forkFormula.contains("https://git.example.org/me/fbauth/releases/download/v\(version.output.1)/") && !forkFormula.contains("github.com/fbauth"), "\(forkFormula)")
        #expect(forkInstaller.contains("default_base=\"https://git.example.org/me/fbauth/releases\""))
    }

    /// Packagers build every target as it stands, `swift build -c release` with no flags of ours:
    /// the libraries FirebaseCore and FirebaseAuth, the examples and the test helpers too, which
    /// release.sh's products do not reach. A scratch directory of its own, so that the build does
    /// not wait on the lock of the `swift test` that runs this.
    @Test(.timeLimit(.minutes(20)))
    func everyTargetBuildsForRelease() throws {
        let scratch = NSTemporaryDirectory() + "fbauth-packager-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let repository = DistributionTests.repository.path
        let build = try DistributionTests.swift(["build", "-c", "release", "--scratch-path", scratch], in: repository, timeout: 1100)
        #expect(build.status == 0 && build.stdout.contains("Build complete!"), "\(build)")
        #expect(!build.stdout.contains("error:") && !build.stderr.contains("error:") && !build.stdout.contains("warning:"), "\(build)")
    }
}

/// Issue 51, item 2: the signed apt repository release.sh writes when given a key, served on
/// loopback and used by the real apt-get (its `-o Dir::…` options, the host's dpkg status as
/// the installed packages, a throwaway root for the files); a repository signed by another key
/// is refused.
@Suite struct AptRepositoryTests {
    static let tools = ["/usr/bin/apt-get", "/usr/bin/gpg", "/usr/bin/dpkg-scanpackages", "/usr/bin/dpkg-deb"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: ReleaseTests.linux && tools && getuid() == 0, "needs apt-get, gpg, dpkg-dev and root (apt's downloads run as root)"),
          .timeLimit(.minutes(20)))
    func aptGetInstallsFromTheSignedRepositoryAndRefusesAnotherKey() throws {
        let scratch = NSTemporaryDirectory() + "fbauth-apt-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: scratch + "/gnupg", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        func sh(_ command: String, _ extra: [String: String] = [:]) throws -> RunResult {
            try Subprocess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", command], environment: ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "GNUPGHOME": scratch + "/gnupg"].merging(extra) { $1 },
                               stdin: nil, directory: scratch, timeout: 300)
        }
        func key(_ name: String) throws -> String {
            let made = try sh("gpg --batch --passphrase '' --quick-gen-key '\(name) <\(name)@example.com>' rsa3072 sign 1d && gpg --list-keys --with-colons '\(name)@example.com' | awk -F: '/^fpr/ { print $10; exit }'")
            let fingerprint = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            try #require(made.status == 0 && fingerprint.count == 40, "\(made)")
            return fingerprint
        }
        let signing = try key("fbauth-release"), other = try key("someone-else")
        let release = try ReleaseTests.release(into: scratch + "/dist", extra: ["FBAUTH_APT_KEY": signing, "GNUPGHOME": scratch + "/gnupg"])
        try #require(release.status == 0, "\(release)")
        let apt = scratch + "/dist/apt"
        for file in ["dists/stable/Release", "dists/stable/InRelease", "dists/stable/Release.gpg", "fbauth-archive-keyring.gpg"] {
            #expect(FileManager.default.fileExists(atPath: apt + "/" + file), "\(file)")
        }
        #expect(try sh("gpg --verify \(apt)/dists/stable/Release.gpg \(apt)/dists/stable/Release").status == 0)

        // The repository on loopback.
        let server = try PythonServer(#"""
        import http.server, functools, sys
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
        handler.log_message = lambda *a: None
        server = http.server.HTTPServer(("127.0.0.1", 0), handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#, [apt])
        defer { server.process.terminate() }
        let port = server.port

        func aptGet(keyring: String, _ root: String) throws -> (update: RunResult, install: RunResult) {
            _ = try sh("mkdir -p \(root)/keyrings \(root)/lists/partial \(root)/cache/archives/partial \(root)/dpkg/updates \(root)/dpkg/info \(root)/files && cp /var/lib/dpkg/status \(root)/dpkg/status && touch \(root)/dpkg/available && cp \(keyring) \(root)/keyrings/fbauth.gpg")
            try "deb [signed-by=\(root)/keyrings/fbauth.gpg] http://127.0.0.1:\(port) stable main\n".write(toFile: root + "/sources.list", atomically: true, encoding: .utf8)
            let options = ["Dir::Etc::SourceList=\(root)/sources.list", "Dir::Etc::SourceParts=/dev/null", "Dir::State::Lists=\(root)/lists", "Dir::Cache=\(root)/cache",
                           "Dir::State::status=\(root)/dpkg/status", "Dir::Log=\(root)", "Debug::NoLocking=1", "APT::Sandbox::User=root",
                           "DPkg::Options::=--root=\(root)/files", "DPkg::Options::=--admindir=\(root)/dpkg", "DPkg::Options::=--force-script-chrootless",
                           // apt's own defaults, which some images turn off (this machine's does)
                           "Acquire::Check-Valid-Until=true", "Acquire::Check-Date=true"]
                .map { "-o " + $0 }.joined(separator: " ")
            return (try sh("apt-get \(options) update 2>&1"), try sh("apt-get \(options) install -y fbauth 2>&1", ["DEBIAN_FRONTEND": "noninteractive"]))
        }
        // The release's own key: update and install, and the program runs.
        try #require(Int(port) != nil, "the server's port: \(port)")
        let (update, install) = try aptGet(keyring: apt + "/fbauth-archive-keyring.gpg", scratch + "/good")
        #expect(update.status == 0 && !update.stdout.contains("NO_PUBKEY"), "\(update)")
        #expect(install.status == 0 && install.stdout.contains("Setting up fbauth"), "\(install)")
        let installed = try sh("\(scratch)/good/files/usr/bin/fbauth --version")
        #expect(installed.status == 0 && installed.stdout.hasPrefix("fbauth "), "\(installed)")

        // Issue 56, item 5: the Release is valid for 30 days from its date, and apt refuses one
        // past it, so an old signed Release cannot be served for ever. The re-signing
        // (Scripts/apt-sign.sh, weekly in .github/workflows/apt-resign.yml) makes it good again.
        let releaseText = try String(contentsOfFile: apt + "/dists/stable/Release", encoding: .utf8)
        func field(_ name: String) -> String? {
            releaseText.split(separator: "\n").first { $0.hasPrefix(name + ": ") }.map { String($0.dropFirst(name.count + 2)) }
        }
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        let dated = try #require(field("Date").flatMap(format.date(from:)), "\(releaseText)")
        let validUntil = try #require(field("Valid-Until").flatMap(format.date(from:)), "\(releaseText)")
        #expect(validUntil.timeIntervalSince(dated) == 30 * 86400 && abs(dated.timeIntervalSinceNow) < 3600, "\(releaseText)")
        let fingerprint = try String(contentsOfFile: apt + "/fbauth-archive-keyring.fingerprint", encoding: .utf8)
        #expect(fingerprint == signing + "\n", "the fingerprint the README's lines check: \(fingerprint)")
        let sign = ["FBAUTH_APT_KEY": signing, "GNUPGHOME": scratch + "/gnupg"]
        let script = DistributionTests.repository.appendingPathComponent("Scripts/apt-sign.sh").path
        let old = try sh("\(script) \(apt)", sign.merging(["FBAUTH_APT_DATE": String(Int(Date().timeIntervalSince1970) - 40 * 86400)]) { $1 })
        try #require(old.status == 0, "\(old)")
        let (expired, notInstalled) = try aptGet(keyring: apt + "/fbauth-archive-keyring.gpg", scratch + "/expired")
        #expect(expired.status != 0 && expired.stdout.contains("is expired"), "\(expired)")
        #expect(notInstalled.status != 0 && !FileManager.default.fileExists(atPath: scratch + "/expired/files/usr/bin/fbauth"), "\(notInstalled)")
        let renewed = try sh("\(script) \(apt)", sign)
        try #require(renewed.status == 0, "\(renewed)")
        let (fresh, freshInstall) = try aptGet(keyring: apt + "/fbauth-archive-keyring.gpg", scratch + "/renewed")
        #expect(fresh.status == 0 && freshInstall.status == 0 && freshInstall.stdout.contains("Setting up fbauth"), "\(fresh) \(freshInstall)")

        // Trusting another key: the repository is refused and nothing is installed.
        _ = try sh("gpg --batch --yes --export \(other) > \(scratch)/other.gpg")
        let (refusedUpdate, refusedInstall) = try aptGet(keyring: scratch + "/other.gpg", scratch + "/bad")
        #expect(refusedUpdate.stdout.contains("NO_PUBKEY") || refusedUpdate.stdout.contains("is not signed") || refusedUpdate.stdout.contains("signatures couldn't be verified"), "\(refusedUpdate)")
        #expect(refusedInstall.status != 0 && !FileManager.default.fileExists(atPath: scratch + "/bad/files/usr/bin/fbauth"), "\(refusedInstall)")
    }
}

/// A Python program that serves on loopback and prints its port first.
struct PythonServer {
    let process = Process()
    let port: String

    init(_ script: String, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        port = String(decoding: line, as: UTF8.self)
    }
}
