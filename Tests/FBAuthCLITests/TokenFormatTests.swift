import Foundation
import TestSupport
import Testing

/// Issue 31, item 2: `fbauth token --format`, each shape read back by the program it is for —
/// the Kubernetes Python client loading docs/tokens.md's kubeconfig, Google's auth library
/// running docs/tokens.md's credential configuration — and by exact checks here.
@Suite struct TokenFormatTests {
    /// Python with the Kubernetes client and google-auth (`.ci/run` installs them from PyPI).
    static let python: Bool = {
        guard let result = try? Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import kubernetes, google.auth.pluggable"],
                                               environment: ProcessInfo.processInfo.environment, stdin: nil, directory: NSTemporaryDirectory(), timeout: 60)
        else { return false }
        return result.status == 0
    }()

    /// A fenced block of docs/tokens.md, after `<!-- example: NAME -->`, with `fbauth` made the
    /// built binary.
    static func example(_ name: String) throws -> String {
        let text = try String(contentsOf: DistributionTests.repository.appendingPathComponent("docs/tokens.md"), encoding: .utf8)
        let marker = "<!-- example: \(name) -->\n```"
        let start = try #require(text.range(of: marker))
        let body = text[start.upperBound...].drop { $0 != "\n" }.dropFirst()
        let end = try #require(body.range(of: "\n```"))
        return String(body[..<end.lowerBound])
    }

    func signedIn() throws -> Harness {
        let harness = try Harness()
        let signin = try harness.signIn("yahoo.com")
        #expect(signin.status == 0, "\(signin)")
        return harness
    }

    @Test func theHeaderLineIsForCurl() throws {
        let harness = try signedIn()
        let raw = try harness.run(["token"]).stdout
        let header = try harness.run(["token", "--format", "header"])
        #expect(header.status == 0 && header.stdout == "Authorization: Bearer \(raw)", "\(header)")
        #expect(try harness.run(["token", "--format", "raw"]).stdout == raw)
        #expect(try harness.run(["token", "--format", "json"]).stdout == harness.run(["token", "--json"]).stdout)
    }

    @Test func theExecCredentialIsWhatClientGoReads() throws {
        let harness = try signedIn()
        let result = try harness.run(["token", "--format", "exec-credential"])
        let json = result.json
        #expect(json["apiVersion"] as? String == "client.authentication.k8s.io/v1" && json["kind"] as? String == "ExecCredential", "\(result)")
        let status = try #require(json["status"] as? [String: Any])
        #expect(status["token"] as? String == harness.savedSessions.first?["idToken"] as? String)
        let expiry = try #require(status["expirationTimestamp"] as? String)
        #expect(expiry.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "RFC 3339: \(expiry)")
        let beta = try harness.run(["token", "--format", "exec-credential"],
                                   environment: ["KUBERNETES_EXEC_INFO": #"{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","spec":{"interactive":false}}"#])
        #expect(beta.json["apiVersion"] as? String == "client.authentication.k8s.io/v1beta1")
        let alpha = try harness.run(["token", "--format", "exec-credential"], environment: ["KUBERNETES_EXEC_INFO": #"{"apiVersion":"client.authentication.k8s.io/v1alpha1"}"#])
        #expect(alpha.status == 2 && alpha.stderr.contains("asks for client.authentication.k8s.io/v1alpha1"), "\(alpha)")
    }

    @Test func theGoogleExecutableResponseAndItsOutputFile() throws {
        let harness = try signedIn()
        let output = harness.directory + "/google-token.json"
        let result = try harness.run(["token", "--format", "google-executable"], environment: ["GOOGLE_EXTERNAL_ACCOUNT_OUTPUT_FILE": output])
        let json = result.json
        #expect(json["version"] as? Int == 1 && json["success"] as? Bool == true, "\(result)")
        #expect(json["token_type"] as? String == "urn:ietf:params:oauth:token-type:id_token")
        #expect(json["id_token"] as? String == harness.savedSessions.first?["idToken"] as? String)
        let expiry = try #require(json["expiration_time"] as? Int)
        #expect(abs(Double(expiry) - Date().timeIntervalSince1970 - 3600) < 120, "seconds since 1970, an hour ahead: \(expiry)")
        #expect(result.stdout.contains("\"expiration_time\" : \(expiry)"), "an integer, not a string or a float")
        #expect(FileManager.default.contents(atPath: output) == Data(result.stdout.utf8))
        let mode = try FileManager.default.attributesOfItem(atPath: output)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let jwt = try harness.run(["token", "--format", "google-executable"], environment: ["GOOGLE_EXTERNAL_ACCOUNT_TOKEN_TYPE": "urn:ietf:params:oauth:token-type:jwt"])
        #expect(jwt.json["token_type"] as? String == "urn:ietf:params:oauth:token-type:jwt")

        #expect(try harness.run(["signout"]).status == 0)
        let failed = try harness.run(["token", "--format", "google-executable"])
        #expect(failed.status == 3 && failed.json["success"] as? Bool == false && failed.json["version"] as? Int == 1, "\(failed)")
        #expect((failed.json["code"] as? String)?.isEmpty == false && (failed.json["message"] as? String)?.contains("sign in") == true, "\(failed)")
    }

    /// Issue 37, item 5: what fbauth wrote for google-auth goes with the session: signout,
    /// signout --all and delete-account remove the output file (google-auth would go on handing
    /// out the signed-out user's token) and the session's refresh lock; a file something else
    /// wrote over since stays.
    @Test(arguments: [["signout"], ["signout", "--all"], ["delete-account", "--yes"]])
    func signingOutRemovesTheFilesWrittenForOtherPrograms(_ command: [String]) throws {
        let harness = try signedIn()
        let output = harness.directory + "/google-token.json"
        let kept = harness.directory + "/written-over.json"
        for path in [output, kept] {
            let written = try harness.run(["token", "--format", "google-executable", "--force-refresh"], environment: ["GOOGLE_EXTERNAL_ACCOUNT_OUTPUT_FILE": path])
            #expect(written.status == 0 && FileManager.default.fileExists(atPath: path), "\(written)")
        }
        try Data("{\"mine\": true}".utf8).write(to: URL(fileURLWithPath: kept))
        let locks = { (try? FileManager.default.contentsOfDirectory(atPath: harness.configDirectory))?.filter { $0.hasPrefix("sessions.refresh-") } ?? [] }
        #expect(locks().count == 1, "the forced refresh made the session's lock: \(locks())")

        let ended = try harness.run(command)
        #expect(ended.status == 0, "\(ended)")
        #expect(!FileManager.default.fileExists(atPath: output), "the token fbauth wrote for google-auth is gone")
        #expect(FileManager.default.contents(atPath: kept) == Data("{\"mine\": true}".utf8), "a file written over since stays as it is")
        #expect(locks().isEmpty, "\(locks())")
        let files = try FileManager.default.contentsOfDirectory(atPath: harness.configDirectory).sorted()
        #expect(files == ["sessions.json", "sessions.lock"], "nothing else of the session is left: \(files)")
    }

    @Test func wrongFormatsAreUsageErrors() throws {
        let harness = try Harness()
        let unknown = try harness.run(["token", "--format", "yaml"])
        #expect(unknown.status == 2 && unknown.stderr.contains("--format 'yaml' is not one of raw, json, header, exec-credential, google-executable"), "\(unknown)")
        #expect(try harness.run(["token", "--format", "header", "--json"]).status == 2)
        #expect(try harness.run(["token", "--format", "header", "--provider", "yahoo.com"]).status == 2)
    }

    /// kubectl's own logic, in the Kubernetes Python client: docs/tokens.md's kubeconfig loaded,
    /// its exec entry run, the ExecCredential checked (apiVersion, kind, status, the expiry
    /// parsed), the token set as the bearer token.
    @Test(.enabled(if: python, "needs python3 with the kubernetes package (pip install kubernetes)"))
    func theDocumentedKubeconfigGivesKubernetesTheToken() throws {
        let harness = try signedIn()
        let kubeconfig = harness.directory + "/kubeconfig"
        try Self.example("kubeconfig").replacingOccurrences(of: "command: fbauth", with: "command: \(Binaries.url("fbauth").path)")
            .write(toFile: kubeconfig, atomically: true, encoding: .utf8)
        let script = """
            import sys
            from kubernetes import client, config
            configuration = client.Configuration()
            config.load_kube_config(config_file=sys.argv[1], client_configuration=configuration)
            print(configuration.api_key["BearerToken"])
            """
        let result = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, kubeconfig],
                                        environment: harness.environment, stdin: nil, directory: harness.directory, timeout: 60)
        let idToken = try #require(harness.savedSessions.first?["idToken"] as? String)
        #expect(result.status == 0 && result.stdout == "Bearer \(idToken)\n", "\(result)")
    }

    /// Google's auth library (google-auth for Python) with docs/tokens.md's credential
    /// configuration: it runs fbauth, checks the response by its rules, and reads the output
    /// file back on the next call instead of running fbauth again.
    @Test(.enabled(if: python, "needs python3 with google-auth (pip install google-auth)"))
    func theDocumentedCredentialConfigurationGivesGoogleTheToken() throws {
        let harness = try signedIn()
        let output = harness.directory + "/google-token.json"
        let configuration = try Self.example("credential-configuration")
            .replacingOccurrences(of: "\"command\": \"fbauth ", with: "\"command\": \"\(Binaries.url("fbauth").path) ")
            .replacingOccurrences(of: "/home/ada/.cache/fbauth-google-token.json", with: output)
        let script = """
            import json, sys
            import google.auth
            credentials, _ = google.auth.load_credentials_from_dict(json.loads(sys.argv[1]))
            print(credentials.retrieve_subject_token(None))
            """
        var environment = harness.environment
        environment["GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES"] = "1"
        let result = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, configuration],
                                        environment: environment, stdin: nil, directory: harness.directory, timeout: 60)
        let idToken = try #require(harness.savedSessions.first?["idToken"] as? String)
        #expect(result.status == 0 && result.stdout == idToken + "\n", "\(result)")
        #expect(FileManager.default.fileExists(atPath: output))

        // The still-valid output file is read back without running fbauth…
        let cached = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, configuration],
                                        environment: ["PATH": environment["PATH"] ?? "/usr/bin:/bin", "HOME": harness.directory + "/nowhere",
                                                      "GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES": "1"],
                                        stdin: nil, directory: harness.directory, timeout: 60)
        #expect(cached.status == 0 && cached.stdout == idToken + "\n", "without fbauth's environment, from the file: \(cached)")
        // …until the user signs out: the file goes with the session (issue 37), so the library
        // runs fbauth, and reports its error response, instead of the signed-out user's token.
        #expect(try harness.run(["signout"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: output))
        let failed = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, configuration],
                                        environment: environment, stdin: nil, directory: harness.directory, timeout: 60)
        #expect(failed.status != 0 && failed.stderr.contains("Executable exited with non-zero return code 3"), "\(failed)")
    }
}
