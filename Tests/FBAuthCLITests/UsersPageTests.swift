import Foundation
import TestSupport
import Testing

/// Issue 59, item 5: `http://127.0.0.1:PORT/` of `fbauth emulator` is a users page. Headless
/// Chromium opens it and plays a user (Browser/users-page.js): it lists, searches, adds, edits
/// and deletes users of a project, of its tenant and of another project. What the page showed
/// is judged here, and what it did is judged by the emulator's REST API afterwards.
@Suite struct UsersPageTests {
    static let project = "demo-users-page"
    static let otherProject = "demo-users-other"
    static let hostile = #"<img src=x onerror="document.title='pwned'">"#

    @Test(.enabled(if: Chromium.isInstalled, "chromium is not installed"))
    func aBrowserListsSearchesAddsEditsAndDeletesUsersOfEachProjectAndTenant() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator(["--project", Self.project])
        defer { emulator.interrupt(); _ = emulator.finish() }
        func admin(_ method: String, _ path: String, _ body: [String: Any]? = nil) throws -> [String: Any] {
            try EmulatorHTTP.call(method, host, "/identitytoolkit.googleapis.com" + path, body, owner: true)
        }
        let users = "/v1/projects/\(Self.project)"
        let alice = try #require(try admin("POST", users + "/accounts", ["email": "alice@example.com", "password": "alice-password-1", "displayName": "Alice"])["localId"] as? String)
        let mallory = try #require(try admin("POST", users + "/accounts", ["email": "mallory@example.com", "displayName": Self.hostile])["localId"] as? String)
        _ = try admin("POST", users + "/accounts:update", ["localId": mallory, "customAttributes": #"{"note":"<script>alert(1)</script>"}"#])
        let tenantName = try #require(try admin("POST", "/v2/projects/\(Self.project)/tenants", ["displayName": "Team A"])["name"] as? String)
        let tenant = String(tenantName.split(separator: "/").last!)
        let tenantUser = try #require(try admin("POST", users + "/tenants/\(tenant)/accounts", ["email": "member@example.com"])["localId"] as? String)
        let anonymous = try #require(try admin("POST", users + "/tenants/\(tenant)/accounts", [:])["localId"] as? String)
        _ = try #require(try admin("POST", "/v1/projects/\(Self.otherProject)/accounts", ["email": "other@example.com", "phoneNumber": "+15555550100"])["localId"] as? String)

        let log = harness.directory + "/users-page.log"
        let browser = try Subprocess.run(Binaries.url("fbauth-test-chromium"), ["http://\(host)/"], environment: ProcessInfo.processInfo.environment.merging([
            "FBAUTH_CHROMIUM_SCRIPT": Chromium.fixtures + "/users-page.js", "FBAUTH_CHROMIUM_LOG": log, "FBAUTH_CHROMIUM_TIMEOUT": "60",
        ]) { $1 }, stdin: nil, directory: harness.directory, timeout: 90)
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(browser.status == 0 && text.contains("page verified:"), "\(text)")
        let reportLine = try #require(text.split(separator: "\n").first { $0.hasPrefix("page report: ") }, "\(text)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(reportLine.dropFirst("page report: ".count).utf8)) as? [String: Any])
        #expect(report["failure"] == nil && !text.contains("exception:"), "\(text)")

        // What the page showed: the users sorted by uid, as the Admin API lists them, and every
        // stored value as text — the hostile name made no element, ran nothing.
        #expect(report["projects"] as? [String] == [Self.project, Self.otherProject])
        #expect(report["tenants"] as? [String] == ["(none)", "\(tenant) · Team A"])
        let first = [
            [alice, "alice@example.com", "Alice", "", "password", "no", "no", ""],
            [mallory, "mallory@example.com", Self.hostile, "", "", "no", "no", #"{"note":"<script>alert(1)</script>"}"#],
        ].sorted { $0[0] < $1[0] }
        #expect(report["first"] as? [[String]] == first, "\(report)")
        #expect(report["elementsInCells"] as? Int == 0 && report["title"] as? String == "Users · fbauth emulator")
        #expect(report["searched"] as? [String] == ["alice@example.com"] && report["searchedCount"] as? String == "1 of 2 users")
        #expect(Self.json(report["afterAdd"]) == Self.json([
            "status": "Added \(try uid(of: "bob@example.com")).", "editorHidden": true,
            "row": ["bob@example.com", "Bob <b>", "", "password", "yes", "no", #"{"role":"admin"}"#],
        ] as [String: Any]), "\(report)")
        #expect(report["editorTitle"] as? String == "Edit \(alice)")
        #expect(Self.json(report["refusedClaims"]) == Self.json(["status": "Custom claims must be a JSON object.", "error": "error", "editorHidden": false]))
        #expect(Self.json(report["afterEdit"]) == Self.json([
            "status": "Saved \(alice).", "row": ["alice@example.com", "", "", "password", "no", "yes", #"{"tier":2}"#],
        ] as [String: Any]), "\(report)")
        #expect(report["askedToConfirm"] as? String == "Confirm delete")
        let remaining = [(alice, "alice@example.com"), (try uid(of: "bob@example.com"), "bob@example.com")].sorted { $0.0 < $1.0 }.map(\.1)
        #expect(Self.json(report["afterDelete"]) == Self.json(["status": "Deleted \(mallory).", "emails": remaining, "count": "2 users"] as [String: Any]))
        let tenantRows = [(tenantUser, ["member@example.com", "", "", "", "no", "no", ""]), (anonymous, ["", "", "", "anonymous", "no", "no", ""])]
        #expect(report["tenantRows"] as? [[String]] == tenantRows.sorted { $0.0 < $1.0 }.map(\.1), "\(report)")
        #expect(report["tenantLocation"] as? String == "#project=\(Self.project)&tenant=\(tenant)")
        #expect(report["otherProjectRows"] as? [[String]] == [["other@example.com", "", "+15555550100", "phone", "no", "no", ""]], "\(report)")
        #expect(report["otherProjectTenants"] as? [String] == ["(none)"])

        // What the page did, as clients see it: Bob signs in with the password typed and has the
        // claims; Alice's new password is hers but she is disabled; Mallory is gone; the
        // tenant's and the other project's users are untouched.
        func signIn(_ email: String, _ password: String) throws -> [String: Any] {
            try EmulatorHTTP.call("POST", host, "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=any",
                                  ["email": email, "password": password, "returnSecureToken": true])
        }
        let bob = try signIn("bob@example.com", "bob-password-1")
        let claims = try #require(Self.payload(bob["idToken"] as? String))
        #expect(claims["role"] as? String == "admin" && claims["email_verified"] as? Bool == true && claims["name"] as? String == "Bob <b>", "\(claims)")
        #expect(Self.errorMessage(try signIn("alice@example.com", "alice-new-password")) == "USER_DISABLED")
        #expect(Self.errorMessage(try signIn("alice@example.com", "alice-password-1")) == "USER_DISABLED")
        let aliceNow = try #require((try admin("POST", users + "/accounts:lookup", ["localId": [alice]])["users"] as? [[String: Any]])?.first)
        #expect(aliceNow["customAttributes"] as? String == #"{"tier":2}"# && aliceNow["disabled"] as? Bool == true && aliceNow["displayName"] == nil, "\(aliceNow)")
        #expect(try admin("POST", users + "/accounts:lookup", ["localId": [mallory]])["users"] == nil)
        #expect((try admin("POST", users + "/tenants/\(tenant)/accounts:lookup", ["localId": [tenantUser, anonymous]])["users"] as? [[String: Any]])?.count == 2)
        #expect((try admin("GET", "/v1/projects/\(Self.otherProject)/accounts:batchGet")["users"] as? [[String: Any]])?.count == 1)

        func uid(of email: String) throws -> String {
            let found = try admin("POST", users + "/accounts:lookup", ["email": [email]])["users"] as? [[String: Any]]
            return try #require(found?.first?["localId"] as? String)
        }
    }

    static func json(_ value: Any?) -> String {
        guard let value, JSONSerialization.isValidJSONObject(value) else { return "\(value ?? "nil")" }
        return String(decoding: try! JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
    }

    static func errorMessage(_ answer: [String: Any]) -> String? { (answer["error"] as? [String: Any])?["message"] as? String }

    static func payload(_ token: String?) -> [String: Any]? {
        guard let part = token?.split(separator: ".").dropFirst().first else { return nil }
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }
}
