import Foundation
import FBAuthStandIn
import TestSupport
import Testing

/// Issue 50, item 2: App Check tokens verified by `fbauth verify-token --app-check` as
/// firebase-admin verifies them, judged by the real firebase-admin (PyPI, its App Check
/// verifier pointed at the stand-in's key set and API) on the very same tokens.
@Suite(.enabled(if: EmulatorCompatibilityTests.adminSDK || ProcessInfo.processInfo.environment["CI"] != nil, "firebase-admin is not installed (pip install firebase-admin)"))
struct AppCheckVerifyTests {
    static let appID = "1:123456789012:web:abcdef"

    /// Each token and what any verifier must say of it: nil, taken; else a word of the refusal.
    static func tokens(_ harness: Harness) -> [String: (token: String, refusal: String?)] {
        let now = Int(Date().timeIntervalSince1970)
        func mint(_ changes: [String: (any Sendable)?] = [:]) -> String { harness.standIn.mintAppCheckToken(appID: appID, changes: changes) }
        let valid = mint()
        var parts = valid.split(separator: ".").map(String.init)
        let signature = Array(parts[2])
        parts[2] = String(signature[..<20]) + (signature[20] == "A" ? "B" : "A") + String(signature[21...])
        return [
            "valid": (valid, nil),
            "tampered signature": (parts.joined(separator: "."), "signature"),
            "expired": (mint(["iat": now - 7200, "exp": now - 60]), "expired"),
            "another project": (mint(["aud": ["projects/999", "projects/another-project"]]), "aud"),
            "audience not a list": (mint(["aud": "projects/fbauth-stand-in"]), "aud"),
            "another issuer": (mint(["iss": "https://securetoken.google.com/fbauth-stand-in"]), "iss"),
            "no subject": (mint(["sub": nil]), "sub"),
            "empty subject": (mint(["sub": ""]), "sub"),
            "unknown key": (mint(["header.kid": "not-a-key"]), "kid"),
            "HS256": (mint(["header.alg": "HS256"]), "alg"),
            // Issue 56, item 4: a time that is not a number never stands in for no expiry, a
            // token not yet valid is refused, and a kid that is not a string names no key.
            "expiry as text": (mint(["exp": "1"]), "exp"),
            "expiry null": (mint(["exp": JSONNull()]), "exp"),
            "expiry a fraction, past": (mint(["exp": 1.5]), "expired"),
            "expiry a fraction, ahead": (mint(["exp": Double(now) + 3600.5]), nil),
            "not yet valid": (mint(["nbf": now + 3600]), "not yet valid"),
            "not before as text": (mint(["nbf": "\(now + 3600)"]), "nbf"),
            "numeric kid": (mint(["header.kid": 5]), "kid"),
        ]
    }

    /// firebase-admin-node refuses an empty `sub` ("an empty string \"sub\" (subject) claim");
    /// the Python SDK checks only that it is a string. fbauth does as Node (docs/verify.md).
    static let takenByThePythonSDKOnly: Set<String> = ["empty subject"]

    static func firebaseAdmin(_ harness: Harness, _ tokens: [String: String], consume: Bool = false) throws -> [String: String] {
        let script = DistributionTests.repository.appendingPathComponent("Scripts/app-check-check.py")
        let input = String(decoding: try JSONSerialization.data(withJSONObject: tokens), as: UTF8.self)
        let result = try Subprocess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, harness.standIn.hostAndPort, "fbauth-stand-in"] + (consume ? ["--consume"] : []),
                                        environment: ProcessInfo.processInfo.environment, stdin: input, directory: harness.directory, timeout: 120)
        return try #require((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: String], "\(result)")
    }

    @Test func fbauthAndFirebaseAdminAgreeOnEveryToken() throws {
        let harness = try Harness()
        let cases = Self.tokens(harness)
        let admin = try Self.firebaseAdmin(harness, cases.mapValues(\.token))
        for (name, (token, refusal)) in cases.sorted(by: { $0.key < $1.key }) {
            let ours = try harness.run(["verify-token", "--app-check", "--project", "fbauth-stand-in"], stdin: token)
            let theirs = admin[name] ?? "missing"
            if let refusal {
                #expect(ours.status == 1 && ours.stdout.isEmpty, "\(name): \(ours)")
                let line = ours.stderr.split(separator: "\n").last.map(String.init) ?? ""
                #expect(line.hasPrefix("fbauth: The provided App Check token") && line.contains(refusal), "\(name): \(ours.stderr)")
                if Self.takenByThePythonSDKOnly.contains(name) {
                    #expect(theirs == "ok ", "\(name): \(theirs)")
                } else {
                    #expect(theirs.hasPrefix("refused: "), "firebase-admin took \(name): \(theirs)")
                }
            } else {
                #expect(ours.status == 0 && ours.json["app_id"] as? String == Self.appID && ours.json["sub"] as? String == Self.appID, "\(name): \(ours)")
                #expect(theirs == "ok \(Self.appID)", "\(name): \(theirs)")
            }
        }
    }

    /// Replay protection: the first to consume a token is told it is fresh, every later one that
    /// it was consumed, whichever of firebase-admin and fbauth asks.
    @Test func consumingATokenIsSeenByBothVerifiers() throws {
        let harness = try Harness()
        let token = harness.standIn.mintAppCheckToken(appID: Self.appID)
        #expect(try Self.firebaseAdmin(harness, ["token": token], consume: true) == ["token": "ok \(Self.appID) fresh"])
        let ours = try harness.run(["verify-token", "--app-check", "--consume", "--project", "fbauth-stand-in"], stdin: token)
        #expect(ours.status == 0 && ours.json["already_consumed"] as? Bool == true, "\(ours)")
        // Another token (a claim of its own: minted in the same second, it would be the same bytes).
        let other = harness.standIn.mintAppCheckToken(appID: Self.appID, changes: ["jti": UUID().uuidString])
        let first = try harness.run(["verify-token", "--app-check", "--consume", "--project", "fbauth-stand-in"], stdin: other)
        #expect(first.status == 0 && first.json["already_consumed"] as? Bool == false, "\(first)")
        #expect(try Self.firebaseAdmin(harness, ["token": other], consume: true) == ["token": "ok \(Self.appID) consumed"])
        let plain = try harness.run(["verify-token", "--app-check", "--project", "fbauth-stand-in"], stdin: other)
        #expect(plain.status == 0 && plain.json["already_consumed"] == nil, "without --consume nothing is asked: \(plain)")
    }

    /// Replay protection fails closed: an answer to verifyAppCheckToken that is no JSON object
    /// was read as "not consumed". The control: a JSON answer without the field is "not
    /// consumed", as firebase-admin-node reads it.
    @Test func anAnswerThatSaysNothingIsNotTakenAsFresh() throws {
        let harness = try Harness()
        for (body, expectedStatus) in [("<html>ok</html>", 6), ("[]", 6), ("null", 6), ("{}", 0)] {
            let token = harness.standIn.mintAppCheckToken(appID: Self.appID, changes: ["jti": UUID().uuidString])
            harness.standIn.inject(Fault(":verifyAppCheckToken", .raw(status: 200, contentType: "application/json", body: body)))
            let result = try harness.run(["verify-token", "--app-check", "--consume", "--project", "fbauth-stand-in"], stdin: token)
            if expectedStatus == 0 {
                #expect(result.status == 0 && result.json["already_consumed"] as? Bool == false, "\(body): \(result)")
            } else {
                // Exit 6, as for any answer of the API's that is not one: the server misbehaved.
                #expect(result.status == 6 && result.stdout.isEmpty
                            && result.stderr.hasSuffix("The App Check API's answer to verifyAppCheckToken is not a JSON object, so whether the token was used before is unknown.\n"), "\(body): \(result)")
            }
        }
    }

    @Test func theOptionsThatDoNotGoTogetherAreRefused() throws {
        let harness = try Harness()
        for (arguments, message) in [(["--app-check", "--session-cookie"], "--app-check and --session-cookie name different tokens; give one"),
                                     (["--consume"], "--consume is for App Check tokens: give --app-check"),
                                     (["--app-check", "--check-revoked"], "--check-revoked is for ID tokens and session cookies; an App Check token names no user")] {
            let result = try harness.run(["verify-token", "--project", "p"] + arguments, stdin: "x")
            #expect(result.status == 2 && result.stderr == "fbauth: \(message)\n", "\(result)")
        }
    }
}
