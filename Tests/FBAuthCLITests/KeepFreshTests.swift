import Foundation
import TestSupport
import Testing

/// Issue 60, item 1: `fbauth token --keep-fresh FILE` keeps the token where other programs read
/// it: written whole, 0600, with no trailing newline, again before it expires; read by curl
/// (`-H @FILE`) and by google-auth's workload identity credentials (`credential_source.file`);
/// stopped by SIGTERM with the file kept, and the file gone at sign-out.
@Suite struct KeepFreshTests {
    @Test func theFileIsRewrittenBeforeTheTokenExpiresAndReadAsItIs() throws {
        let harness = try Harness()
        // Tokens of 64 s, rewritten 60 s before they expire: a new one every 4 s or so.
        let (emulator, host) = try harness.startEmulator(["--token-lifetime", "64"])
        defer { emulator.interrupt(); _ = emulator.finish() }
        let environment = ["FIREBASE_AUTH_EMULATOR_HOST": host]
        #expect(try harness.run(["signup", "--email", "fresh@example.com"], stdin: "correct horse\n", environment: environment).status == 0)
        let file = harness.directory + "/token", headerFile = harness.directory + "/header"
        let keeper = try BackgroundProcess(["token", "--keep-fresh", file, "--min-valid", "60"], harness: harness, environment: environment)
        let header = try BackgroundProcess(["token", "--keep-fresh", headerFile, "--format", "header", "--min-valid", "60"], harness: harness, environment: environment)
        #expect(keeper.waitForStderr(containing: "Keeping "), "\(keeper.stderr)")
        #expect(header.waitForStderr(containing: "Keeping "), "\(header.stderr)")
        let first = try String(contentsOfFile: file, encoding: .utf8)
        #expect(first.split(separator: ".", omittingEmptySubsequences: false).count == 3 && !first.hasSuffix("\n"), "a bare token, no newline: \(first.suffix(10).debugDescription)")
        #expect(fileMode(file) == 0o600)
        // A new token before the old one expires.
        #expect(eventually(within: 30) { (try? String(contentsOfFile: file, encoding: .utf8)).map { $0 != first } ?? false }, "\(keeper.stderr)")
        let second = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!second.isEmpty && second != first)

        // curl sends the header file's line as it is (the version before or after its read:
        // the file is renewed every few seconds).
        let before = try String(contentsOfFile: headerFile, encoding: .utf8)
        let curl = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["curl", "-sv", "-o", "/dev/null", "-H", "@" + headerFile, "http://\(host)/"],
                                      environment: ProcessInfo.processInfo.environment, stdin: nil, directory: harness.directory, timeout: 30)
        let after = try String(contentsOfFile: headerFile, encoding: .utf8)
        #expect(before.hasPrefix("Authorization: Bearer ") && !before.hasSuffix("\n"), "\(before.suffix(10).debugDescription)")
        #expect([before, after].contains { curl.stderr.contains("> " + $0 + "\r\n") }, "\(curl.stderr)")

        // google-auth's workload identity credentials read the subject token from the file.
        if KeepFreshTests.googleAuth || ProcessInfo.processInfo.environment["CI"] != nil {
            let script = """
                import json, sys
                from google.auth import identity_pool
                info = {"type": "external_account", "audience": "//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/p/providers/fbauth",
                        "subject_token_type": "urn:ietf:params:oauth:token-type:id_token", "token_url": "https://sts.googleapis.com/v1/token",
                        "credential_source": {"file": sys.argv[1]}}
                print(identity_pool.Credentials.from_info(info).retrieve_subject_token(None), end="")
                """
            let before = try String(contentsOfFile: file, encoding: .utf8)
            let read = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, file], environment: ProcessInfo.processInfo.environment,
                                          stdin: nil, directory: harness.directory, timeout: 60)
            let after = try String(contentsOfFile: file, encoding: .utf8)
            #expect(read.status == 0 && Self.isOneWritten(read.stdout, between: before, and: after), "\(read)")
        }

        // The Kubernetes Python client, with a kubeconfig's tokenFile, reads the token as it is
        // now (a header with no newline), and the newer one once the file was written again.
        if KeepFreshTests.kubernetes || ProcessInfo.processInfo.environment["CI"] != nil {
            let kubeconfig = harness.directory + "/kubeconfig"
            try """
                apiVersion: v1
                kind: Config
                clusters: [{name: c, cluster: {server: "https://127.0.0.1:6443"}}]
                users: [{name: u, user: {tokenFile: "\(file)"}}]
                contexts: [{name: x, context: {cluster: c, user: u}}]
                current-context: x
                """.write(toFile: kubeconfig, atomically: true, encoding: .utf8)
            let script = """
                import sys
                from kubernetes import client, config
                configuration = client.Configuration()
                config.load_kube_config(config_file=sys.argv[1], client_configuration=configuration)
                print(configuration.api_key["BearerToken"], end="")
                """
            func kubeHeader() throws -> RunResult {
                try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, kubeconfig], environment: ProcessInfo.processInfo.environment,
                                   stdin: nil, directory: harness.directory, timeout: 60)
            }
            // The file may be renewed while Python starts: each token read must be one the keeper
            // wrote between the reads of the file around it.
            func kubeToken() throws -> String {
                let before = try String(contentsOfFile: file, encoding: .utf8)
                let run = try kubeHeader()
                let after = try String(contentsOfFile: file, encoding: .utf8)
                let token = run.stdout.hasPrefix("Bearer ") ? String(run.stdout.dropFirst(7)) : ""
                #expect(run.status == 0 && Self.isOneWritten(token, between: before, and: after), "\(run)")
                return token
            }
            let seen = try kubeToken()
            #expect(eventually(within: 30) { (try? String(contentsOfFile: file, encoding: .utf8)).map { $0 != seen } ?? false })
            #expect(try kubeToken() != seen, "the renewed file is read again")
        }

        // SIGTERM stops it cleanly, the file kept; signing out removes the files.
        kill(keeper.pid, SIGTERM)
        #expect(keeper.finish().status == 0)
        #expect(FileManager.default.fileExists(atPath: file))
        kill(header.pid, SIGTERM)
        _ = header.finish()
        #expect(try harness.run(["signout"], environment: environment).status == 0)
        #expect(!FileManager.default.fileExists(atPath: file) && !FileManager.default.fileExists(atPath: headerFile), "signing out removes the kept files")
    }

    @Test func itsArgumentsAreChecked() throws {
        let harness = try Harness()
        for arguments in [["token", "--keep-fresh", "f", "--json"], ["token", "--keep-fresh", "f", "--claims"], ["token", "--keep-fresh", "f", "--format", "yaml"]] {
            let run = try harness.run(arguments)
            #expect(run.status == 2 && run.stderr.hasPrefix("fbauth: ") && run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run)")
        }
    }

    /// Whether `token` is `first`, `last`, or one written between them: the keeper renews the
    /// file every few seconds, so a reader as slow as Python may see a later one than `first`.
    static func isOneWritten(_ token: String, between first: String, and last: String) -> Bool {
        func issued(_ token: String) -> Int? { MultiFactorTests.claims(token)["iat"] as? Int }
        guard token.split(separator: ".", omittingEmptySubsequences: false).count == 3, !token.hasSuffix("\n") else { return false }
        if token == first || token == last { return true }
        guard let at = issued(token), let from = issued(first), let to = issued(last) else { return false }
        return from < at && at < to
    }

    static let kubernetes: Bool = {
        (try? Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import kubernetes"], environment: ProcessInfo.processInfo.environment,
                             stdin: nil, directory: NSTemporaryDirectory(), timeout: 30).status) == 0
    }()

    static let googleAuth: Bool = {
        (try? Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import google.auth.identity_pool"], environment: ProcessInfo.processInfo.environment,
                             stdin: nil, directory: NSTemporaryDirectory(), timeout: 30).status) == 0
    }()
}
