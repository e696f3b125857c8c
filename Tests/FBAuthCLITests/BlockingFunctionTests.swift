import Foundation
import TestSupport
import Testing

/// Issue 59, item 1 (and issue 56, item 6): `fbauth emulator` calls blocking functions. Judged
/// by functions written with firebase-functions (PyPI) and served by functions-framework
/// (Fixtures/blocking-functions.py), configured through the Admin API as for Google's emulator;
/// where Google's emulator is built, the same script runs against a fresh instance of it too,
/// and the users and tokens must be the same.
@Suite struct BlockingFunctionTests {
    static let script = ImportedPasswordHashTests.fixtures.appendingPathComponent("blocking-functions.py").path
    static let project = "demo-blocking"

    static func runScript(_ mode: String, _ hosts: [String], timeout: TimeInterval = 120) throws -> [[String: Any]] {
        var environment = ProcessInfo.processInfo.environment
        environment["FIREBASE_AUTH_EMULATOR_HOST"] = hosts[0]
        let run = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, mode, project] + hosts,
                                     environment: environment, stdin: nil, directory: NSTemporaryDirectory(), timeout: timeout)
        let lines = run.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(run.status == 0 && lines.count == (mode == "compare" ? hosts.count : 1), "\(run)")
        return lines
    }

    static func json(_ value: Any?) -> String {
        guard let value, JSONSerialization.isValidJSONObject(value) else { return "\(value ?? "nil")" }
        return String(decoding: try! JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test(.enabled(if: FunctionsPython.available, "firebase-functions or functions-framework is not installed (pip install firebase-functions functions-framework)"))
    func firebaseFunctionsHandlersChangeUsersAndTokensAndRefuseSignUps() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator(["--project", Self.project])
        defer { emulator.interrupt(); _ = emulator.finish() }
        let report = try #require(try Self.runScript("compare", [host]).first)
        #expect(report["configured"] as? Int == 200, "\(report)")
        let steps = try #require(report["steps"] as? [String: [String: Any]])

        // beforeCreate's changes are kept; beforeSignIn's session claims are in the token only.
        let signedUp = try #require(steps["signUp"]?["claims"] as? [String: Any])
        #expect(steps["signUp"]?["displayName"] as? String == "Made by beforeCreate")
        #expect(Self.json(signedUp) == Self.json([
            "email": "alice@example.com", "email_verified": true, "name": "Made by beforeCreate", "role": "reader",
            "signedInVia": "beforeSignIn", "seenRole": "reader", "iss": "https://securetoken.google.com/\(Self.project)",
            "firebase": ["identities": ["email": ["alice@example.com"]], "sign_in_provider": "password"],
        ] as [String: Any]), "\(signedUp)")
        #expect(Self.json(steps["signInWithPassword"]?["claims"]) == Self.json(signedUp))
        // A refusal reaches the client in production's words, the function's own error whole.
        #expect(steps["signUpRefused"]?["status"] as? Int == 400)
        #expect(steps["signUpRefused"]?["error"] as? String
                == #"BLOCKING_FUNCTION_ERROR_RESPONSE : HTTP Cloud Function returned an error: {"error":{"message":"Unauthorized email","status":"PERMISSION_DENIED"}}"# + "\n")
        #expect(Self.json(steps["signUpDisabled"]) == Self.json(["status": 400, "error": "USER_DISABLED"]))

        // The users: the refused one was never kept, the one beforeSignIn disabled was.
        let users = try #require(report["users"] as? [[String: Any]])
        let madeByFunction: [String: Any] = ["displayName": "Made by beforeCreate", "emailVerified": true, "customAttributes": ["role": "reader"]]
        #expect(Self.json(users) == Self.json([
            ["email": NSNull(), "displayName": NSNull(), "emailVerified": false, "disabled": false, "customAttributes": [:] as [String: Any]],
            madeByFunction.merging(["email": "alice@example.com", "disabled": false]) { $1 },
            madeByFunction.merging(["email": "disable-me@example.com", "disabled": true]) { $1 },
        ] as [[String: Any]]), "\(users)")

        // What the functions were sent: firebase-tools' claims, each call to its own URL.
        let received = try #require(report["received"] as? [[String: Any]])
        #expect(received.map { "\($0["event_type"] ?? "?") \(($0["user_record"] as? [String: Any])?["email"] ?? "?")" } == [
            "beforeCreate alice@example.com", "beforeSignIn alice@example.com", "beforeCreate eve@blocked.example",
            "beforeSignIn alice@example.com", "beforeCreate disable-me@example.com", "beforeSignIn disable-me@example.com",
        ])
        #expect(received.allSatisfy { $0["iss"] as? String == "https://securetoken.google.com/\(Self.project)" && $0["sign_in_method"] as? String == "password" })
        let urls = try #require(report["urls"] as? [String: String])
        #expect(report["audiences"] as? [String] == received.map { urls[$0["event_type"] as? String ?? ""] ?? "?" })
    }

    /// The same handlers and requests against a fresh Google's emulator and fbauth's: the same
    /// users and tokens. What differs is what fbauth chose: production's refusal text, and the
    /// password provider in beforeCreate's record (the user is created with it).
    @Test(.enabled(if: FunctionsPython.available && EmulatorDifferenceTests.google != nil,
                   "Google's Auth emulator is not built here, or firebase-functions/functions-framework is not installed"))
    func googlesEmulatorGivesTheSameUsersAndTokens() throws {
        let harness = try Harness()
        let google = try GoogleEmulatorInstance(project: Self.project)
        defer { google.stop() }
        let (emulator, host) = try harness.startEmulator(["--project", Self.project])
        defer { emulator.interrupt(); _ = emulator.finish() }
        let reports = try Self.runScript("compare", [google.host, host])
        try #require(reports.count == 2)
        let (googles, ours) = (reports[0], reports[1])
        #expect(Self.json(googles["users"]) == Self.json(ours["users"]))
        var googleSteps = try #require(googles["steps"] as? [String: Any]), ourSteps = try #require(ours["steps"] as? [String: Any])
        let refusedByGoogle = (googleSteps.removeValue(forKey: "signUpRefused") as? [String: Any])?["error"] as? String ?? ""
        #expect(refusedByGoogle.hasPrefix("BLOCKING_FUNCTION_ERROR_RESPONSE : ((HTTP request to ") && refusedByGoogle.contains("Unauthorized email"), "\(refusedByGoogle)")
        ourSteps["signUpRefused"] = nil
        // Not a blocking function's: fbauth's anonymous tokens carry email_verified false.
        googleSteps["anonymous"] = nil
        ourSteps["anonymous"] = nil
        #expect(Self.json(googleSteps) == Self.json(ourSteps))
        let withoutCreatedProviders = { (report: [String: Any]) -> String in
            Self.json((report["received"] as? [[String: Any]] ?? []).map { sent -> [String: Any] in
                var sent = sent, record = sent["user_record"] as? [String: Any] ?? [:]
                if sent["event_type"] as? String == "beforeCreate" { record["provider_data"] = nil }
                sent["user_record"] = record
                return sent
            })
        }
        #expect(withoutCreatedProviders(googles) == withoutCreatedProviders(ours))
    }

    /// beforeSendEmail and beforeSendSms (which Google's emulator lacks), and functions that
    /// misbehave: one that hangs waits out production's 7-second deadline while other clients
    /// are answered; one that answers 1 GB is cut off at 1 MiB; a redirect is not followed.
    @Test(.enabled(if: FunctionsPython.available, "firebase-functions or functions-framework is not installed (pip install firebase-functions functions-framework)"))
    func sendFunctionsRunAndMisbehavingFunctionsStallNoOne() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator(["--project", Self.project])
        defer { emulator.interrupt(); _ = emulator.finish() }
        let report = try #require(try Self.runScript("safety", [host]).first)
        for allowed in ["resetAllowed", "linkAllowed", "smsAllowed"] {
            #expect((report[allowed] as? [String: Any])?["status"] as? Int == 200, "\(allowed): \(report)")
        }
        #expect((report["resetRefused"] as? [String: Any])?["error"] as? String
                == #"BLOCKING_FUNCTION_ERROR_RESPONSE : HTTP Cloud Function returned an error: {"error": {"status": "INVALID_ARGUMENT", "message": "No mail for you"}}"#)
        #expect((report["smsRefused"] as? [String: Any])?["error"] as? String
                == #"BLOCKING_FUNCTION_ERROR_RESPONSE : HTTP Cloud Function returned an error: {"error": {"status": "INVALID_ARGUMENT", "message": "No texts to that number"}}"#)
        // Only what the functions let through was "sent".
        #expect(report["mailed"] as? [String] == ["alice@example.com", "new@example.com"], "\(report)")
        #expect(report["texted"] as? [String] == ["+15555550111"], "\(report)")
        let hits = (report["sendHits"] as? [[String: Any]] ?? []).map { "\($0["event_type"] ?? "") \($0["email_type"] as? String ?? $0["sms_type"] as? String ?? "") \($0["email"] as? String ?? $0["phone_number"] as? String ?? "")" }
        #expect(hits == ["beforeSendEmail PASSWORD_RESET alice@example.com", "beforeSendEmail PASSWORD_RESET no-mail@example.com",
                         "beforeSendEmail EMAIL_SIGN_IN new@example.com", "beforeSendSms SIGN_IN_OR_SIGN_UP +15555550111",
                         "beforeSendSms SIGN_IN_OR_SIGN_UP +15555550100"])

        let huge = try #require(report["huge"] as? [String: Any])
        #expect(huge["status"] as? Int == 500 && (huge["error"] as? String ?? "").hasSuffix("/huge is larger than 1 MiB.))"), "\(huge)")
        let redirect = try #require(report["redirect"] as? [String: Any])
        #expect(Self.json(redirect) == Self.json(["status": 400, "error": "BLOCKING_FUNCTION_ERROR_RESPONSE : HTTP Cloud Function returned an error: "]))
        #expect(report["redirectPaths"] as? [String] == ["/huge", "/redirect"], "the redirect was followed: \(report)")

        #expect(report["hangReached"] as? Bool == true)
        #expect(report["othersWhileHanging"] as? [Int] == Array(repeating: 200, count: 10), "\(report)")
        #expect(report["othersDoneBeforeDeadline"] as? Bool == true, "other clients waited for the hanging function")
        let hang = try #require(report["hang"] as? [String: Any])
        #expect(hang["status"] as? Int == 500 && (hang["error"] as? String ?? "").hasPrefix("BLOCKING_FUNCTION_ERROR_RESPONSE : ((Deadline exceeded making request to http://127.0.0.1:"), "\(hang)")
        // No user the functions did not let through was kept.
        #expect(report["users"] as? [String] == ["alice@example.com", "no-mail@example.com"], "\(report)")
    }

    /// `--blocking-function EVENT=URL` configures what the Admin API shows; bad values are
    /// one-line usage errors.
    @Test func theOptionConfiguresTriggersAndRefusesBadValues() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator(["--project", Self.project, "--blocking-function", "beforeCreate=http://127.0.0.1:9/create",
                                                          "--blocking-function", "beforeSendSms=https://functions.example/sms"])
        defer { emulator.interrupt(); _ = emulator.finish() }
        let config = try EmulatorHTTP.call("GET", host, "/identitytoolkit.googleapis.com/v2/projects/\(Self.project)/config", nil, owner: true)
        #expect(Self.json(config["blockingFunctions"]) == Self.json(["triggers": ["beforeCreate": ["functionUri": "http://127.0.0.1:9/create"],
                                                                                  "beforeSendSms": ["functionUri": "https://functions.example/sms"]]]), "\(config)")
        // Nothing listens on port 9: the sign-up is refused with Google's words, and not kept.
        let refused = try EmulatorHTTP.call("POST", host, "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k", ["email": "a@example.com", "password": "correct horse 1"])
        #expect((refused["error"] as? [String: Any])?["message"] as? String == "BLOCKING_FUNCTION_ERROR_RESPONSE : ((Failed to make request to http://127.0.0.1:9/create.))", "\(refused)")
        let listed = try EmulatorHTTP.call("POST", host, "/identitytoolkit.googleapis.com/v1/projects/\(Self.project)/accounts:query", [:], owner: true)
        #expect((listed["userInfo"] as? [Any])?.isEmpty == true && listed["recordsCount"] as? String == "0", "\(listed)")

        for (value, message) in [
            ("beforeDelete=http://127.0.0.1/", "fbauth: --blocking-function 'beforeDelete=http://127.0.0.1/' is not EVENT=URL, EVENT one of beforeCreate, beforeSignIn, beforeSendEmail, beforeSendSms\n"),
            ("beforeCreate=file:///etc/passwd", "fbauth: --blocking-function beforeCreate: 'file:///etc/passwd' is not an http or https URL\n"),
        ] {
            let run = try harness.run(["emulator", "--port", "0", "--blocking-function", value])
            #expect(run.status == 2 && run.stderr == message && run.stdout.isEmpty, "\(value): \(run)")
        }
        let twice = try harness.run(["emulator", "--port", "0", "--blocking-function", "beforeSignIn=http://a.example/", "--blocking-function", "beforeSignIn=http://b.example/"])
        #expect(twice.status == 2 && twice.stderr == "fbauth: --blocking-function names beforeSignIn twice\n", "\(twice)")
    }
}

/// Python with firebase-functions and functions-framework, which the handlers are written with.
enum FunctionsPython {
    static let available = PythonModules.importable("firebase_functions, functions_framework")
}

/// A fresh Google's Auth emulator of its own, for a test that changes a project's configuration
/// (the shared one serves other tests meanwhile).
struct GoogleEmulatorInstance {
    struct StartFailure: Error, CustomStringConvertible { let description: String }
    let host: String
    let port: UInt16

    init(project: String) throws {
        // A port the kernel chose, let go just before Google's emulator binds it.
        port = try HeldPort().number
        let start = DistributionTests.repository.deletingLastPathComponent().appendingPathComponent("shared/auth-emulator/start.sh")
        var environment = ProcessInfo.processInfo.environment
        environment["OREMU_PROJECT"] = project
        let run = try Subprocess.run(start, ["-d", String(port)], environment: environment, stdin: nil, directory: NSTemporaryDirectory(), timeout: 60)
        guard run.status == 0 else { throw StartFailure(description: "Google's emulator did not start: \(run)") }
        host = "127.0.0.1:\(port)"
    }

    func stop() {
        if let pid = try? String(contentsOfFile: "/tmp/auth-emulator-\(port).pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), let number = Int32(pid) {
            kill(number, SIGTERM)
        }
    }
}
