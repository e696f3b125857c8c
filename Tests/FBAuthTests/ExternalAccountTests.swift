import FBAuthHTTP
import FBAuthSupport
@testable import FBAuthVerification
import Foundation
import Testing

/// Issue 57, item 2: workload identity federation's credentials (`external_account`), judged by
/// Google's own auth library: google-auth's `identity_pool.Credentials` (PyPI) and fbauth read
/// the same credentials file against the same stand-in Security Token Service and IAM, and must
/// send the same exchange (RFC 8693's form) and the same impersonation request.
@Suite(.enabled(if: GoogleAuthLibrary.installed || ProcessInfo.processInfo.environment["CI"] != nil, "google-auth is not installed (pip install google-auth)"))
struct ExternalAccountTests {
    /// A stand-in STS and IAM on loopback that write each request (path, Authorization, body)
    /// as a JSON line to `log`, and google-auth's refresh of `credentials` with firebase-admin's
    /// scopes, run against it: google-auth's token.
    static let script = """
        import http.server, json, sys, threading
        log, credentials, scopes = sys.argv[1], sys.argv[2], sys.argv[3].split(" ")
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
                with open(log, "a") as out:
                    out.write(json.dumps({"path": self.path, "authorization": self.headers.get("Authorization"), "body": body}) + "\\n")
                answer = {"access_token": "sts-token", "issued_token_type": "urn:ietf:params:oauth:token-type:access_token", "token_type": "Bearer",
                          "expires_in": 3600} if self.path == "/v1/token" else {"accessToken": "sa-token", "expireTime": "2099-01-01T00:00:00Z"}
                data = json.dumps(answer).encode()
                self.send_response(200); self.send_header("Content-Type", "application/json"); self.send_header("Content-Length", str(len(data)))
                self.end_headers(); self.wfile.write(data)
            def log_message(self, *_): pass
        server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        info = json.load(open(credentials))
        info = json.loads(json.dumps(info).replace("PORT", str(server.server_address[1])))
        open(credentials, "w").write(json.dumps(info))
        from google.auth import identity_pool
        import google.auth.transport.requests
        google_auth = identity_pool.Credentials.from_info(info, scopes=scopes)
        google_auth.refresh(google.auth.transport.requests.Request())
        print(google_auth.token, flush=True)
        sys.stdin.read()
        """

    struct Recorded: Decodable, Equatable {
        let path: String
        let authorization: String?
        let body: String
    }

    /// google-auth's requests and fbauth's, for the credentials file `fields` (PORT is the stand-in's).
    static func requests(_ fields: [String: Any]) throws -> (googleAuth: [Recorded], fbauth: [Recorded], tokens: (String, String), again: Int) {
        let directory = NSTemporaryDirectory() + "fbauth-wif-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "subject-token-from-the-other-provider\n".write(toFile: directory + "/subject.txt", atomically: true, encoding: .utf8)
        var fields = fields
        fields["credential_source"] = ["file": directory + "/subject.txt"]
        try JSONSerialization.data(withJSONObject: fields).write(to: URL(fileURLWithPath: directory + "/credentials.json"))
        let log = directory + "/requests.jsonl"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, log, directory + "/credentials.json", AdminAccessTokens.scopes]
        let (output, input) = (Pipe(), Pipe())
        (process.standardOutput, process.standardInput) = (output, input)
        try process.run()
        defer { try? input.fileHandleForWriting.close(); process.waitUntilExit() }
        // google-auth's token once it has refreshed (the line ends its turn).
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line += chunk
        }
        let theirs = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        func read() throws -> [Recorded] {
            try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { try JSONDecoder().decode(Recorded.self, from: Data($0.utf8)) }
        }
        let googleAuth = try read()
        let tokens = AdminAccessTokens(transport: CurlTransport(), clock: SystemClock()) { () throws(TokenRefusal) in
            try AdminCredentials.file(directory + "/credentials.json")
        }
        let ours = try tokens.authorization().header
        let all = try read()
        _ = try tokens.authorization()
        let again = try read().count - all.count
        return (googleAuth, Array(all.dropFirst(googleAuth.count)), (theirs, ours), again)
    }

    static func form(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }

    static var base: [String: Any] { [
        "type": "external_account", "audience": "//iam.googleapis.com/projects/123/locations/global/workloadIdentityPools/pool/providers/github",
        "subject_token_type": "urn:ietf:params:oauth:token-type:jwt", "token_url": "http://127.0.0.1:PORT/v1/token",
    ] }

    @Test func theExchangeIsGoogleAuthsWithAndWithoutImpersonation() throws {
        // Impersonating a service account: the STS token for IAM's scope, then the account's.
        var impersonating = Self.base
        impersonating["service_account_impersonation_url"] = "http://127.0.0.1:PORT/v1/projects/-/serviceAccounts/admin@demo.iam.gserviceaccount.com:generateAccessToken"
        let first = try Self.requests(impersonating)
        #expect(first.tokens.0 == "sa-token" && first.tokens.1 == "Bearer sa-token", "\(first.tokens)")
        #expect(first.googleAuth.map(\.path) == first.fbauth.map(\.path) && first.fbauth.count == 2, "\(first.googleAuth) \(first.fbauth)")
        #expect(Self.form(first.fbauth[0].body) == Self.form(first.googleAuth[0].body), "fbauth \(first.fbauth[0].body)\ngoogle-auth \(first.googleAuth[0].body)")
        // The file's text as it is, its line break included, as google-auth sends it.
        #expect(Self.form(first.fbauth[0].body)["subject_token"] == "subject-token-from-the-other-provider\n")
        let (ours, theirs) = (try JSONSerialization.jsonObject(with: Data(first.fbauth[1].body.utf8)) as? [String: Any],
                              try JSONSerialization.jsonObject(with: Data(first.googleAuth[1].body.utf8)) as? [String: Any])
        #expect(ours?["scope"] as? [String] == theirs?["scope"] as? [String] && ours?["lifetime"] as? String == theirs?["lifetime"] as? String, "\(String(describing: ours)) \(String(describing: theirs))")
        #expect(first.fbauth[1].authorization == "Bearer sts-token" && first.googleAuth[1].authorization == "Bearer sts-token")
        #expect(first.again == 0, "the kept token serves the next call")

        // Without: the STS token is the access token, for the Admin API's scopes.
        let direct = try Self.requests(Self.base)
        #expect(direct.tokens.1 == "Bearer sts-token" && direct.fbauth.count == 1)
        #expect(Self.form(direct.fbauth[0].body) == Self.form(direct.googleAuth[0].body), "fbauth \(direct.fbauth[0].body)\ngoogle-auth \(direct.googleAuth[0].body)")
    }

    @Test func aFileThatDoesNotFitIsRefusedInOneLine() throws {
        func refusal(_ fields: [String: Any]) -> String? {
            do {
                _ = try AdminCredentials.parse(try JSONSerialization.data(withJSONObject: fields), source: "wif.json")
                return nil
            } catch let refusal as TokenRefusal { return "\(refusal.code) \(refusal.message)" } catch { return "\(error)" }
        }
        var fields = Self.base
        fields["credential_source"] = ["file": "/tmp/token"]
        fields["token_url"] = "http://sts.example.com/v1/token"
        #expect(refusal(fields) == "app/invalid-credential The \"token_url\" of wif.json is not an https URL.")
        fields["token_url"] = "https://sts.googleapis.com/v1/token"
        fields["credential_source"] = ["executable": ["command": "/bin/true"]]
        #expect(refusal(fields) == "app/invalid-credential External account credentials from an executable or AWS (wif.json) are not supported: use a credential_source file or url.")
        fields["credential_source"] = ["file": "/tmp/token"]
        fields["audience"] = nil
        #expect(refusal(fields) == "app/invalid-credential External account credentials must contain a string \"audience\" property (wif.json).")
    }
}

/// Whether Google's auth library for Python is installed, to judge by.
enum GoogleAuthLibrary {
    static let installed: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import google.auth.identity_pool, requests"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()
}
