import Foundation
import TestSupport
import Testing

/// Issue 56, item 3: every method that takes an ID token refuses one of another tenant
/// (`TENANT_ID_MISMATCH`, 400), as Google's emulator does (firebase-tools `server.ts`). A
/// tenant-A token sent with `tenantId` B looked up, updated, sent mail for and deleted the
/// tenant-A user. The real `fbauth emulator`, as any client reaches it.
@Suite struct TenantIsolationTests {
    @Test func aTokenOfOneTenantDoesNothingInAnother() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator()
        defer { emulator.interrupt() }
        let api = "/identitytoolkit.googleapis.com"
        func tenant(_ name: String) throws -> String {
            let made = try EmulatorHTTP.call("POST", host, "\(api)/v2/projects/demo-fbauth/tenants", ["displayName": name, "allowPasswordSignup": true], owner: true)
            return try #require(made["tenantId"] as? String, "\(made)")
        }
        let (a, b) = (try tenant("alpha"), try tenant("beta"))
        let signUp = try EmulatorHTTP.call("POST", host, "\(api)/v1/accounts:signUp?key=fake", ["tenantId": a, "email": "ada@example.com", "password": "correct horse"])
        let idToken = try #require(signUp["idToken"] as? String, "\(signUp)")
        let localId = try #require(signUp["localId"] as? String)

        func code(_ answer: [String: Any]) -> String? { (answer["error"] as? [String: Any])?["message"] as? String }
        let attempts: [(String, [String: Any])] = [
            ("\(api)/v1/accounts:lookup?key=fake", ["idToken": idToken, "tenantId": b]),
            ("\(api)/v1/accounts:update?key=fake", ["idToken": idToken, "tenantId": b, "displayName": "Mallory"]),
            ("\(api)/v1/accounts:sendOobCode?key=fake", ["idToken": idToken, "tenantId": b, "requestType": "VERIFY_EMAIL"]),
            ("\(api)/v1/accounts:delete?key=fake", ["idToken": idToken, "tenantId": b]),
            ("\(api)/v2/accounts/mfaEnrollment:start?key=fake", ["idToken": idToken, "tenantId": b, "totpEnrollmentInfo": [String: Any]()]),
            ("\(api)/v1/projects/demo-fbauth/tenants/\(b)/accounts:lookup", ["idToken": idToken]),
            ("\(api)/v1/projects/demo-fbauth/tenants/\(b)/accounts:delete", ["idToken": idToken]),
        ]
        for (path, body) in attempts {
            let answer = try EmulatorHTTP.call("POST", host, path, body, owner: path.contains("/projects/"))
            #expect(code(answer) == "TENANT_ID_MISMATCH" && (answer["error"] as? [String: Any])?["code"] as? Int == 400, "\(path): \(answer)")
        }
        // The path and the body naming two tenants is refused too.
        let both = try EmulatorHTTP.call("POST", host, "\(api)/v1/projects/demo-fbauth/tenants/\(a)/accounts:lookup", ["idToken": idToken, "tenantId": b], owner: true)
        #expect(code(both) == "TENANT_ID_MISMATCH", "\(both)")

        // The user is as it was, and no mail went out: the controls, in the token's own tenant.
        let own = try EmulatorHTTP.call("POST", host, "\(api)/v1/accounts:lookup?key=fake", ["idToken": idToken, "tenantId": a])
        let user = try #require((own["users"] as? [[String: Any]])?.first, "\(own)")
        #expect(user["localId"] as? String == localId && user["displayName"] == nil && user["tenantId"] as? String == a, "\(user)")
        let mail = try EmulatorHTTP.call("GET", host, "/emulator/v1/projects/demo-fbauth/oobCodes")
        #expect((mail["oobCodes"] as? [Any])?.isEmpty == true, "\(mail)")
        // A request that names no tenant is the token's own (the JS SDK's getAccountInfo sends none).
        let unnamed = try EmulatorHTTP.call("POST", host, "\(api)/v1/accounts:lookup?key=fake", ["idToken": idToken])
        #expect((unnamed["users"] as? [[String: Any]])?.first?["localId"] as? String == localId, "\(unnamed)")
    }

    /// A project-level token sent with a tenant finds nobody there: tenants keep their own users.
    @Test func aProjectTokenFindsNobodyInATenant() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator()
        defer { emulator.interrupt() }
        let api = "/identitytoolkit.googleapis.com"
        let made = try EmulatorHTTP.call("POST", host, "\(api)/v2/projects/demo-fbauth/tenants", ["displayName": "gamma", "allowPasswordSignup": true], owner: true)
        let tenant = try #require(made["tenantId"] as? String, "\(made)")
        let signUp = try EmulatorHTTP.call("POST", host, "\(api)/v1/accounts:signUp?key=fake", ["email": "grace@example.com", "password": "correct horse"])
        let idToken = try #require(signUp["idToken"] as? String, "\(signUp)")
        let answer = try EmulatorHTTP.call("POST", host, "\(api)/v1/accounts:delete?key=fake", ["idToken": idToken, "tenantId": tenant])
        #expect((answer["error"] as? [String: Any])?["message"] as? String == "USER_NOT_FOUND", "\(answer)")
        let still = try EmulatorHTTP.call("POST", host, "\(api)/v1/accounts:lookup?key=fake", ["idToken": idToken])
        #expect((still["users"] as? [[String: Any]])?.count == 1, "\(still)")
    }
}
