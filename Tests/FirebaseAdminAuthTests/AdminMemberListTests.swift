import FBAuthAdmin
@testable import FirebaseAdminAuth
import Foundation
import Testing

/// Issue 57: the list of firebase-admin-node's members that docs/admin-api.md and docs.sh's
/// coverage count (Scripts/admin-api/members-14.3.0.tsv) is the one its own API reports give at
/// v14.3.0 (`etc/firebase-admin.auth.api.md`, `etc/firebase-admin.app-check.api.md`), read by
/// Scripts/admin-api.py. It runs where a fetched firebase-admin-node is named
/// (`FBAUTH_TEST_ADMIN_NODE`, a git directory; `.ci/run` names one where a session fetched it).
@Suite(.enabled(if: FetchedAdminNode.path != nil, "FBAUTH_TEST_ADMIN_NODE is not set (no fetched firebase-admin-node to read)"))
struct AdminMemberListTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theCommittedListIsTheOneTheAPIReportsGive() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.repository.appendingPathComponent("Scripts/admin-api.py").path, "members", try #require(FetchedAdminNode.path), "v14.3.0"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let listed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let committed = try String(contentsOf: Self.repository.appendingPathComponent("Scripts/admin-api/members-14.3.0.tsv"), encoding: .utf8)
        #expect(listed == committed, "Scripts/admin-api/members-14.3.0.tsv differs from what firebase-admin-node's API reports list")
        let rows = listed.split(separator: "\n")
        // The whole API, not a fragment: BaseAuth's 26 methods and `_verifyAuthBlockingToken`, and the 104 error codes.
        #expect(rows.filter { $0.hasPrefix("auth\tBaseAuth.") }.count == 27 && rows.filter { $0.split(separator: "\t").count == 3 }.count == 104)
        for member in ["auth\tBaseAuth.importUsers", "auth\tTenantManager.authForTenant", "app-check\tAppCheck.createToken", "auth\tUserRecord.uid"] {
            #expect(rows.contains(Substring(member)), "\(member)")
        }
    }
}

/// A fetched firebase-admin-node (a git directory), when one is named.
enum FetchedAdminNode {
    static let path = ProcessInfo.processInfo.environment["FBAUTH_TEST_ADMIN_NODE"].flatMap { $0.isEmpty ? nil : $0 }
}

/// Issue 57: the Admin SDK's error codes are typed: every `auth/` code FirebaseAdminAuth throws
/// is one of firebase-admin's `AuthErrorCode` values, and every value is there.
@Suite struct AdminErrorCodeTests {
    @Test func everyCodeIsFirebaseAdminsAndEveryValueIsThere() throws {
        let committed = try String(contentsOf: AdminMemberListTests.repository.appendingPathComponent("Scripts/admin-api/members-14.3.0.tsv"), encoding: .utf8)
        let values = committed.split(separator: "\n").map { $0.split(separator: "\t") }.filter { $0.count == 3 }
        let auth = Set(values.filter { $0[1].hasPrefix("AuthErrorCode.") }.map { String($0[2]) })
        let appCheck = Set(values.filter { $0[1].hasPrefix("AppCheckErrorCode.") }.map { String($0[2]) })
        #expect(Set(AdminAuthErrorCode.allCases.map(\.rawValue)) == auth && auth.count == 95)
        #expect(Set(AppCheckErrorCode.allCases.map(\.rawValue)) == appCheck && appCheck.count == 9)
        let refusal = AdminAuthError(code: "auth/user-not-found", message: "", cause: .invalidToken)
        #expect(refusal.authErrorCode == .userNotFound && refusal.appCheckErrorCode == nil)
        #expect(AdminAuthError(code: "app-check/app-check-token-expired", message: "", cause: .invalidToken).appCheckErrorCode == .appCheckTokenExpired)
        // Every code the engine's table (firebase-admin-node's error.ts) gives is one of them.
        let thrown = Set(AdminErrorTable.client.values.map(\.code))
        let unnamed = thrown.filter { !$0.hasPrefix("auth/") || AdminAuthErrorCode(rawValue: String($0.dropFirst(5))) == nil }
        #expect(unnamed.isEmpty, "codes firebase-admin's AuthErrorCode does not name: \(unnamed.sorted())")
    }
}
