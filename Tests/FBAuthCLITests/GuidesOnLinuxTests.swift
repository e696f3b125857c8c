import FBAuthStandIn
import Foundation
import TestSupport
import Testing

/// Issue 39: Firebase's guides' own Swift (Yahoo, Twitter, Microsoft on Apple platforms), in a
/// package outside the repository that depends on fbauth by path, built and run to the end
/// against the stand-in with a browser: sign-in with custom parameters and scopes, link,
/// reauthenticate, sign-out, account-exists resolved by linking the pending credential, a state
/// listener, and a wrong password's `localizedDescription`.
@Suite struct GuidesOnLinuxTests {
    @Test func theGuidesSwiftBuildsAndRunsOnLinux() throws {
        let harness = try Harness()
        let executable = try DistributionTests.buildExample("GuidesOnLinux", in: harness.directory)

        var environment = harness.environment
        environment["FBAUTH_FAKE_BROWSER_EMAIL"] = "pat@example.com"
        let run = try Subprocess.run(URL(fileURLWithPath: executable), [], environment: environment, stdin: nil,
                                     directory: harness.directory, timeout: 120)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.split(separator: "\n").map(String.init) == [
            "state: signed out",
            "state: pat@example.com",
            "signed in with yahoo.com: pat@example.com",
            "access token: true, ID token: true",
            "yahoo uid: present",
            "linked twitter.com (token secret: true); providers: [\"twitter.com\", \"yahoo.com\"]",
            "reauthenticated pat@example.com",
            "state: signed out",
            "account exists for pat@example.com: An account already exists with the same email address but different sign-in credentials. Sign in using a provider associated with this email address.",
            "state: pat@example.com",
            "linked the pending microsoft.com credential; providers: [\"microsoft.com\", \"twitter.com\", \"yahoo.com\"]",
            "wrong password: FIRAuthErrorDomain 17004 The supplied auth credential is malformed or has expired.",
        ], "\(run)")
        // What the guides ask of the provider reached it: Yahoo's parameters and scopes,
        // Microsoft's tenant.
        let authorizations = harness.standIn.requests(to: "accounts:createAuthUri").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.body.utf8))) as? [String: Any]
        }
        let yahoo = try #require(authorizations.first { $0["providerId"] as? String == "yahoo.com" })
        #expect(yahoo["customParameter"] as? [String: String] == ["prompt": "login", "language": "fr"], "\(yahoo)")
        #expect((yahoo["oauthScope"] as? String)?.contains("mail-r") == true, "\(yahoo)")
        let microsoft = try #require(authorizations.first { $0["providerId"] as? String == "microsoft.com" })
        #expect((microsoft["customParameter"] as? [String: String])?["tenant"] == "contoso.onmicrosoft.com", "\(microsoft)")
        // One user, with the three providers.
        #expect(harness.standIn.users.count == 1)
    }
}

/// Issue 39, item 7: the library's API reference builds with the toolchain's docc, without a
/// warning, and every public symbol of the three products is documented (issue 48, item 3).
@Suite struct APIReferenceTests {
    /// The share of firebase-admin-node's API FirebaseAdminAuth may not fall under (issue 57).
    static let adminFloor = 95.0

    @Test(.timeLimit(.minutes(20))) func theReferenceBuildsWithEverySymbolDocumented() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("fbauth-docs-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let script = DistributionTests.repository.appendingPathComponent("Scripts/docs.sh")
        let result = try Subprocess.run(script, [output], environment: ProcessInfo.processInfo.environment, stdin: nil,
                                        directory: DistributionTests.repository.path, timeout: 1100)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("every public symbol documented"), "\(result)")
        // Issue 48: the SDK's API, member by member, from the modules' symbol graphs; the table
        // docs/sdk-api.md shows is the one this build makes, and docs.sh fails under 95%.
        let coverage = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("SDK API: covered ") }, "\(result)")
        let share = try #require(coverage.split(separator: "(").last.flatMap { Double($0.dropLast(2)) })
        #expect(share >= 95, "\(coverage)")
        let made = try String(contentsOfFile: output + "/sdk-api.md", encoding: .utf8)
        let committed = try String(contentsOf: DistributionTests.repository.appendingPathComponent("docs/sdk-api.md"), encoding: .utf8)
        #expect(made == committed, "docs/sdk-api.md is not the table this build makes: run Scripts/docs.sh and copy .build/docs/sdk-api.md")
        // Issue 57: firebase-admin-node's Auth and App Check API, the same way; docs/admin-api.md
        // is the table this build makes, and docs.sh fails under 95%.
        let admin = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("Admin API: covered ") }, "\(result)")
        let adminShare = try #require(admin.split(separator: "(").last.flatMap { Double($0.dropLast(2)) })
        #expect(adminShare >= Self.adminFloor, "\(admin)")
        let adminTable = try String(contentsOfFile: output + "/admin-api.md", encoding: .utf8)
        #expect(adminTable == (try String(contentsOf: DistributionTests.repository.appendingPathComponent("docs/admin-api.md"), encoding: .utf8)),
                "docs/admin-api.md is not the table this build makes: run Scripts/docs.sh and copy .build/docs/admin-api.md")
        for module in ["firebaseauth", "firebasecore", "firebaseadminauth"] {
            let name = ["firebaseauth": "FirebaseAuth", "firebasecore": "FirebaseCore", "firebaseadminauth": "FirebaseAdminAuth"][module] ?? module
            #expect(FileManager.default.fileExists(atPath: output + "/\(name).doccarchive/data/documentation/\(module).json"), "\(name)")
        }
    }
}
