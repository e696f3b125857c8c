import FBAuthStandIn
import Foundation
import TestSupport
import Testing

/// Issue 42, item 1: `fbauth verify-token` with the real binary. Tokens are minted for the real
/// clock by OpenSSL (Scripts/gen-firebase-token-vectors.py --now), and the stand-in publishes
/// their certificates where Google publishes securetoken's, under the emulator host.
@Suite(.enabled(if: TokenMinting.available || ProcessInfo.processInfo.environment["CI"] != nil, "Python's cryptography is not installed (.ci/run installs it)"))
struct VerifyTokenTests {
    struct Minted: Decodable {
        var certificates: [String: String]
        var tokens: [String: String]
    }

    /// A harness whose stand-in publishes freshly minted certificates, and the tokens. Its
    /// project is theirs, and it holds their user, uid-1, whose tokens are valid since before
    /// they were issued: against an emulator, every token's user is looked up.
    func minted() throws -> (Harness, [String: String]) {
        let tokens = try mint()
        var configuration = StandInConfiguration()
        configuration.projectId = "proj-1"
        configuration.publishedCertificates = tokens.certificates
        let harness = try Harness(configuration: configuration)
        try harness.admin("accounts", ["localId": "uid-1", "email": "ada@example.com"])
        try harness.admin("accounts:update", ["localId": "uid-1", "validSince": String(Int(Date().timeIntervalSince1970) - 3600)])
        return (harness, tokens.tokens)
    }

    /// A fresh key, its certificate and tokens signed by it for the real clock.
    func mint() throws -> Minted {
        let scratch = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let out = scratch + "/tokens.json"
        let script = DistributionTests.repository.appendingPathComponent("Scripts/gen-firebase-token-vectors.py").path
        let made = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, "--now", String(Int(Date().timeIntervalSince1970)), "--out", out],
                                      environment: ProcessInfo.processInfo.environment, stdin: nil, directory: scratch, timeout: 60)
        #expect(made.status == 0, "\(made)")
        return try JSONDecoder().decode(Minted.self, from: Data(contentsOf: URL(fileURLWithPath: out)))
    }

    /// Another local user may write Google's certificates where fbauth keeps them: their own
    /// key, kid and all, so that their tokens would pass. Kept keys are trusted only from a file
    /// of the user's own (or root's) that no one else may write, else they are fetched again; a
    /// config directory others may write is refused, naming it (issue 47).
    @Test(.enabled(if: getuid() == 0, "needs root to give the file to another user"))
    func keptKeysAnotherUserCouldHaveWrittenAreNotTrusted() throws {
        let (harness, _) = try minted()
        let attacker = try mint()  // kid-1 too, another key
        let forged = try #require(attacker.tokens["valid"])
        let host = harness.standIn.hostAndPort
        let cache = harness.configDirectory + "/public-keys-id-token.json"
        func plant() throws {
            try? FileManager.default.createDirectory(atPath: harness.configDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let saved: [String: Any] = ["url": "http://\(host)/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com",
                                        "expires": Int(Date().timeIntervalSince1970) + 3600, "certificates": attacker.certificates]
            try? FileManager.default.removeItem(atPath: cache)
            try JSONSerialization.data(withJSONObject: saved).write(to: URL(fileURLWithPath: cache))
            chmod(cache, 0o600)
        }
        let refused = "fbauth: Firebase ID token has invalid signature." + Self.docs + "\n"

        // The control: a planted file of the user's own is what answers (the test can fail).
        try plant()
        #expect(try harness.run(["verify-token", "--project", "proj-1"], stdin: forged).status == 0)

        try plant()
        chown(cache, 65534, 65534)
        let otherOwner = try harness.run(["verify-token", "--project", "proj-1"], stdin: forged)
        #expect(otherOwner.status == 1 && otherOwner.stdout.isEmpty && otherOwner.stderr == refused, "\(otherOwner)")

        try plant()
        chmod(harness.configDirectory, 0o777)
        defer { chmod(harness.configDirectory, 0o700) }
        let openDirectory = try harness.run(["verify-token", "--project", "proj-1"], stdin: forged)
        #expect(openDirectory.status == 7 && openDirectory.stdout.isEmpty
                    && openDirectory.stderr == "fbauth: the config directory \(harness.configDirectory) can be written by other users (mode 0777), so another user could plant the keys tokens are checked with; run: chmod 700 '\(harness.configDirectory)'\n", "\(openDirectory)")
        #expect(harness.standIn.requests.filter { $0.path.contains("/robot/v1/metadata/x509/") }.count == 1, "fetched again for the other user's file, and for nothing else")
    }

    static let docs = " See https://firebase.google.com/docs/auth/admin/verify-id-tokens for details on how to retrieve an ID token."

    @Test func aValidTokenPrintsItsClaimsAndItsKeysAreKept() throws {
        let (harness, tokens) = try minted()
        let result = try harness.run(["verify-token", "--project", "proj-1"], stdin: try #require(tokens["valid"]))
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let claims = result.json
        #expect(claims["uid"] as? String == "uid-1" && claims["email"] as? String == "ada@example.com" && claims["admin"] as? Bool == true, "\(claims)")
        #expect((claims["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "password" && claims["exp"] as? Int != nil && claims["auth_time"] as? Int != nil)
        let cache = harness.configDirectory + "/public-keys-id-token.json"
        #expect(fileMode(cache) == 0o600, "Google's certificates kept, 0600")
        // Again, and from a file: the kept certificates answer, nothing is fetched.
        let file = harness.directory + "/token.txt"
        try #require(tokens["valid"]).write(toFile: file, atomically: true, encoding: .utf8)
        let again = try harness.run(["verify-token", "--project", "proj-1", "--token-file", file])
        #expect(again.status == 0 && again.stdout == result.stdout, "\(again)")
        #expect(harness.standIn.requests.filter { $0.path.contains("/robot/v1/metadata/x509/") }.count == 1, "\(harness.standIn.requests.map(\.path))")
    }

    @Test(arguments: [
        ("expired", "Firebase ID token has expired. Get a fresh ID token from your client app and try again (auth/id-token-expired)." + docs),
        ("issued in the future", nil),
        ("authenticated in the future", "Firebase ID token has no valid \"auth_time\" claim: it must be a time not in the future." + docs),
        ("another project", "Firebase ID token has incorrect \"aud\" (audience) claim. Expected \"proj-1\" but got \"proj-2\". Make sure the ID token comes from the same Firebase project as the service account used to authenticate this SDK." + docs),
        ("a long sub", "Firebase ID token has a \"sub\" (subject) claim longer than 128 characters." + docs),
        ("an unknown kid", "Firebase ID token has \"kid\" claim which does not correspond to a known public key. Most likely the ID token is expired, so get a fresh token from your client app and try again."),
        ("a bad signature", "Firebase ID token has invalid signature." + docs),
        ("HS256", "Firebase ID token has incorrect algorithm. Expected \"RS256\" but got \"HS256\"." + docs),
        ("two segments", "Decoding Firebase ID token failed. Make sure you passed the entire string JWT which represents an ID token." + docs),
    ] as [(String, String?)])
    func aRefusedTokenIsExitOneWithTheReason(name: String, message: String?) throws {
        let (harness, tokens) = try minted()
        let token = try #require(tokens[name])
        let result = try harness.run(["verify-token", "--project", "proj-1"], stdin: token)
        #expect(result.status == 1 && result.stdout.isEmpty, "\(result)")
        if let message {
            #expect(result.stderr == "fbauth: \(message)\n", "\(result.stderr)")
        } else {
            #expect(result.stderr.hasPrefix("fbauth: Firebase ID token is not yet valid: issued at future timestamp ") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
        #expect(!result.stderr.contains(token.split(separator: ".").last.map(String.init) ?? token), "the token is not repeated")
    }

    /// As firebase-admin: an emulator's unsigned token passes only under an emulator host.
    @Test func unsignedTokensPassOnlyAgainstAnEmulator() throws {
        let (harness, tokens) = try minted()
        let unsigned = try #require(tokens["unsigned"])
        let emulated = try harness.run(["verify-token"], stdin: unsigned, environment: ["GOOGLE_CLOUD_PROJECT": "proj-1"])
        #expect(emulated.status == 0 && emulated.json["uid"] as? String == "uid-1", "\(emulated)")
        // Taken, but not silently (issue 47): one line names the variable that made it so.
        let host = harness.environment["FIREBASE_AUTH_EMULATOR_HOST"] ?? ""
        #expect(emulated.stderr == "fbauth: warning: this token is not signed (alg none); it was taken only because FIREBASE_AUTH_EMULATOR_HOST is set (\(host)), as an emulator's tokens are: never set it where real users sign in\n", "\(emulated)")
        let production = try harness.run(["verify-token", "--project", "proj-1"], stdin: unsigned, environment: ["FIREBASE_AUTH_EMULATOR_HOST": ""])
        #expect(production.status == 1 && production.stderr == "fbauth: Firebase ID token has no \"kid\" claim." + Self.docs + "\n", "\(production)")
    }

    @Test func theTokenIsNeverTakenFromArgumentsAndTheProjectMustBeKnown() throws {
        let (harness, tokens) = try minted()
        let token = try #require(tokens["valid"])
        let argument = try harness.run(["verify-token", "--project", "proj-1", token])
        #expect(argument.status == 2 && argument.stderr == "fbauth: verify-token reads the token from stdin or --token-file, never from an argument, where other users of this machine can read it\n", "\(argument)")
        let unknown = try harness.run(["verify-token"], stdin: token, environment: ["FIREBASE_API_KEY": ""])
        #expect(unknown.status == 2 && unknown.stderr == "fbauth: which project? give --project ID (or set GOOGLE_CLOUD_PROJECT)\n", "\(unknown)")
    }
}

enum TokenMinting {
    /// Whether Python's cryptography can sign tokens here.
    static let available: Bool = {
        (try? Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import cryptography"], environment: ProcessInfo.processInfo.environment, stdin: nil,
                             directory: NSTemporaryDirectory(), timeout: 30).status) == 0
    }()
}

/// Issue 42, Done when: docs/verify.md's server-side use, a plain function a middleware calls,
/// built as a package outside the repository against fbauth by path, and run on real headers.
@Suite(.enabled(if: TokenMinting.available || ProcessInfo.processInfo.environment["CI"] != nil, "Python's cryptography is not installed (.ci/run installs it)"))
struct VerifyOnServerTests {
    @Test(.timeLimit(.minutes(20))) func theServerExampleBuildsAndLetsInOnlyGoodTokens() throws {
        let (harness, tokens) = try VerifyTokenTests().minted()
        let executable = try DistributionTests.buildExample("VerifyOnServer", in: harness.directory)

        let headers = ["Bearer " + (tokens["valid"] ?? ""), "Bearer " + (tokens["expired"] ?? ""), "Basic abc", "Bearer " + (tokens["another project"] ?? "")]
        var environment = harness.environment
        environment["GOOGLE_CLOUD_PROJECT"] = "proj-1"
        let run = try Subprocess.run(URL(fileURLWithPath: executable), [], environment: environment,
                                     stdin: headers.joined(separator: "\n") + "\n", directory: harness.directory, timeout: 120)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        let docs = " See https://firebase.google.com/docs/auth/admin/verify-id-tokens for details on how to retrieve an ID token."
        #expect(run.stdout.split(separator: "\n").map(String.init) == [
            "200 uid-1 ada@example.com admin=true",
            "401 Firebase ID token has expired. Get a fresh ID token from your client app and try again (auth/id-token-expired)." + docs,
            "401 no bearer token",
            "401 Firebase ID token has incorrect \"aud\" (audience) claim. Expected \"proj-1\" but got \"proj-2\". Make sure the ID token comes from the same Firebase project as the service account used to authenticate this SDK." + docs,
        ], "\(run)")

        // The same token once its user is disabled, then revoked: the emulator's users are
        // looked up (as the emulator's owner), as they would be with checkRevoked in production.
        try harness.admin("accounts:update", ["localId": "uid-1", "disableUser": true])
        try harness.admin("accounts:update", ["localId": "uid-1", "validSince": String(CheckRevokedTests.authTime(tokens["valid"] ?? "") + 1)])
        let after = try Subprocess.run(URL(fileURLWithPath: executable), ["--check-revoked"], environment: environment,
                                       stdin: headers[0] + "\n", directory: harness.directory, timeout: 120)
        #expect(after.status == 0 && after.stderr.isEmpty && after.stdout == "401 The user record is disabled.\n", "\(after)")
        try harness.admin("accounts:update", ["localId": "uid-1", "disableUser": false])
        let revoked = try Subprocess.run(URL(fileURLWithPath: executable), ["--check-revoked"], environment: environment,
                                         stdin: headers[0] + "\n", directory: harness.directory, timeout: 120)
        #expect(revoked.status == 0 && revoked.stderr.isEmpty && revoked.stdout == "401 The Firebase ID token has been revoked.\n", "\(revoked)")

        // An emulator's unsigned tokens are taken, and AdminAuth says so once, on its log
        // (standard error by default), however many it takes (issue 47).
        try harness.admin("accounts:update", ["localId": "uid-1", "validSince": "0"])
        let unsigned = "Bearer " + (tokens["unsigned"] ?? "")
        let emulated = try Subprocess.run(URL(fileURLWithPath: executable), [], environment: environment,
                                          stdin: unsigned + "\n" + unsigned + "\n" + headers[0] + "\n", directory: harness.directory, timeout: 120)
        #expect(emulated.status == 0 && emulated.stdout == String(repeating: "200 uid-1 ada@example.com admin=true\n", count: 3), "\(emulated)")
        let host = environment["FIREBASE_AUTH_EMULATOR_HOST"] ?? ""
        #expect(emulated.stderr == "FirebaseAdminAuth: an unsigned token (alg none) was accepted because an Auth emulator is configured (FIREBASE_AUTH_EMULATOR_HOST or emulatorHost: \(host)); never configure one where real users sign in\n", "\(emulated)")
    }
}

/// Issue 50, item 1: the project falls back to the saved session's, as docs/verify.md says: the
/// first pipe a user tries, exactly so, against `fbauth emulator`, with and without an API key
/// named, and for a session of an anonymous user and of a provider's.
@Suite struct VerifyTheSessionsOwnTokenTests {
    @Test(arguments: [true, false])
    func tokenPipedIntoVerifyTokenNeedsNoProject(namedKey: Bool) throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator()
        defer { emulator.interrupt(); _ = emulator.finish() }
        var environment = ["FIREBASE_AUTH_EMULATOR_HOST": host, "GOOGLE_CLOUD_PROJECT": "", "GCLOUD_PROJECT": ""]
        #expect(try harness.run(["signin", "--provider", "anonymous"], environment: environment).status == 0)
        if !namedKey { environment["FIREBASE_API_KEY"] = "" }
        var shell = harness.environment.merging(environment) { $1 }
        shell["FBAUTH"] = Binaries.url("fbauth").path
        let piped = try Subprocess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "\"$FBAUTH\" token | \"$FBAUTH\" verify-token"], environment: shell,
                                       stdin: nil, directory: harness.directory, timeout: 60)
        // The emulator's tokens are unsigned by default, as Google's: taken, with the one warning.
        #expect(piped.status == 0 && piped.stderr.hasPrefix("fbauth: warning: this token is not signed (alg none)") && piped.stderr.split(separator: "\n").count == 1, "\(piped)")
        let claims = piped.json
        #expect(claims["aud"] as? String == "demo-fbauth" && (claims["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "anonymous", "\(claims)")
        let uid = try harness.run(["whoami"], environment: environment).json["uid"] as? String
        #expect(uid != nil && claims["uid"] as? String == uid)
    }
}

/// Issue 42, item 4: `fbauth emulator --sign-tokens` signs its ID tokens with RS256 and publishes its
/// certificate where Google publishes securetoken's, so a signed token is checked end to end,
/// by fbauth and by Google's auth library alike.
@Suite struct EmulatorSigningTests {
    @Test func theEmulatorsTokensAreSignedAndChecked() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator(["--sign-tokens"])
        defer { emulator.interrupt(); _ = emulator.finish() }
        let environment = ["FIREBASE_AUTH_EMULATOR_HOST": host]
        #expect(try harness.run(["signup", "--email", "signed@example.com"], stdin: "correct horse\n", environment: environment).status == 0)
        let token = try harness.run(["token"], environment: environment).stdout.trimmingCharacters(in: .newlines)

        let verified = try harness.run(["verify-token", "--project", "demo-fbauth"], stdin: token, environment: environment)
        #expect(verified.status == 0 && verified.json["email"] as? String == "signed@example.com" && verified.stderr.isEmpty, "\(verified)")
        var parts = token.split(separator: ".").map(String.init)
        parts[2] = String(parts[2].dropLast(4)) + (parts[2].hasSuffix("AAAA") ? "BBBB" : "AAAA")
        let tampered = try harness.run(["verify-token", "--project", "demo-fbauth"], stdin: parts.joined(separator: "."), environment: environment)
        #expect(tampered.status == 1 && tampered.stderr == "fbauth: Firebase ID token has invalid signature. See https://firebase.google.com/docs/auth/admin/verify-id-tokens for details on how to retrieve an ID token.\n", "\(tampered)")

        // Google's auth library, with the emulator's certificates, takes the same token.
        guard TokenMinting.available || ProcessInfo.processInfo.environment["CI"] != nil else { return }
        let certificates = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(string: "http://\(host)/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com")!)) as? [String: String])
        #expect(certificates.keys.sorted() == ["stand-in"])
        let fixture = harness.directory + "/emulator-token.json"
        try JSONSerialization.data(withJSONObject: ["now": Int(Date().timeIntervalSince1970), "project": "demo-fbauth", "certificates": certificates,
                                                    "tokens": ["emulator": token]]).write(to: URL(fileURLWithPath: fixture))
        let script = DistributionTests.repository.appendingPathComponent("Tests/FBAuthTests/Fixtures/FirebaseTokens/google_auth_verdicts.py").path
        let google = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, fixture], environment: ProcessInfo.processInfo.environment, stdin: nil,
                                        directory: harness.directory, timeout: 60)
        #expect(google.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"emulator": "accepted"}"#, "\(google)")
    }

    /// Issue 59, item 2: the key set and the issuer's OpenID Connect discovery document, which
    /// JWT libraries and API gateways read: PyJWT's PyJWKClient and google-auth, led from the
    /// issuer to the key set, take the token and refuse it with one byte of its signature changed.
    @Test(.enabled(if: Self.pyJWT || ProcessInfo.processInfo.environment["CI"] != nil, "PyJWT is not installed (.ci/run installs it)"))
    func gatewaysFindTheKeyThroughTheIssuer() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator(["--sign-tokens"])
        defer { emulator.interrupt(); _ = emulator.finish() }
        let environment = ["FIREBASE_AUTH_EMULATOR_HOST": host]
        #expect(try harness.run(["signup", "--email", "gateway@example.com"], stdin: "correct horse\n", environment: environment).status == 0)
        let token = try harness.run(["token"], environment: environment).stdout.trimmingCharacters(in: .newlines)
        let script = DistributionTests.repository.appendingPathComponent("Scripts/jwks-check.py").path
        let run = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, host, "demo-fbauth"], environment: ProcessInfo.processInfo.environment,
                                     stdin: token, directory: harness.directory, timeout: 60)
        let verdicts = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run)")
        #expect(verdicts["pyjwt"] as? String == "accepted" && verdicts["googleAuth"] as? String == "accepted", "\(verdicts)")
        #expect(verdicts["pyjwtTampered"] as? String == "refused: InvalidSignatureError" && verdicts["googleAuthTampered"] as? String == "refused: InvalidSignatureError", "\(verdicts)")
        let discovery = try #require(verdicts["discovery"] as? [String: Any])
        #expect(discovery["issuer"] as? String == "https://securetoken.google.com/demo-fbauth")
        #expect(discovery["jwks_uri"] as? String == "http://\(host)/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com")

        // Without --sign-tokens the tokens are unsigned, and no key is published.
        let (plain, plainHost) = try harness.startEmulator([])
        defer { plain.interrupt(); _ = plain.finish() }
        let probe = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                       ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "http://\(plainHost)/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"],
                                       environment: ProcessInfo.processInfo.environment, stdin: nil, directory: harness.directory, timeout: 30)
        #expect(probe.stdout == "404", "\(probe)")
    }

    static let pyJWT: Bool = {
        (try? Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import jwt, google.oauth2.id_token"], environment: ProcessInfo.processInfo.environment,
                             stdin: nil, directory: NSTemporaryDirectory(), timeout: 30).status) == 0
    }()
}
