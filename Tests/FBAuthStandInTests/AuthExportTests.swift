@testable import FBAuthStandIn
import Foundation
import Testing

/// The stand-in's users written and read in Google's Auth emulator's export layout
/// (firebase-tools `src/emulator/hubExport.ts`, `src/emulator/auth/index.ts`).
@Suite struct AuthExportTests {
    private func directory() throws -> String {
        let path = NSTemporaryDirectory() + "fbauth-export-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func write(_ text: String, _ path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func whatIsExportedComesBackWithEveryPartOfTheUser() throws {
        var configuration = StandInConfiguration()
        configuration.emailEnumerationProtection = true
        let original = try StandIn(configuration: configuration)
        let ada = original.createPasswordUser(email: "ada@example.com", password: "correct horse")
        original.verifyEmail(uid: ada)
        original.setCustomClaims(uid: ada, ["admin": true])
        let (totpId, secret) = original.enrollTOTP(uid: ada, displayName: "phone app")
        original.enrollPhone(uid: ada, phoneNumber: "+15555550100", displayName: "mobile")
        original.linkProvider(uid: ada, providerId: "yahoo.com", email: "ada@yahoo.example")
        let tenantUser = original.createPasswordUser(email: "t@example.com", password: "tenant pw", tenantId: "tenant-1")
        original.disableUser(uid: tenantUser)
        let folder = try directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try original.exportAuth(to: folder, version: "test")

        let metadata = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/firebase-export-metadata.json"))) as? [String: Any])
        #expect((metadata["auth"] as? [String: Any])?["path"] as? String == "auth_export")
        let accounts = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/auth_export/accounts.json"))) as? [String: Any])
        let exported = try #require((accounts["users"] as? [[String: Any]])?.first)
        #expect(accounts["kind"] as? String == "identitytoolkit#DownloadAccountResponse")
        #expect((exported["passwordHash"] as? String)?.hasSuffix(":password=correct horse") == true, "Google's emulator's fakeHash")
        #expect(FileManager.default.fileExists(atPath: folder + "/auth_export/accounts-tenant-1.json"))

        var fresh = StandInConfiguration()
        fresh.emailEnumerationProtection = false
        let restored = try StandIn(configuration: fresh)
        try restored.importAuth(from: folder)
        #expect(restored.configuration.emailEnumerationProtection, "config.json's setting")
        let user = try #require(restored.users.first { $0.uid == ada })
        #expect(user.email == "ada@example.com" && user.emailVerified && user.providerIds == ["yahoo.com"])
        #expect(restored.password(uid: ada) == "correct horse")
        #expect(Set(restored.secondFactors(uid: ada).map(\.factorId)) == ["totp", "phone"])
        #expect(restored.secondFactors(uid: ada).contains { $0.enrollmentId == totpId && $0.displayName == "phone app" })
        _ = secret
        let tenant = try #require(restored.users.first { $0.uid == tenantUser })
        #expect(tenant.disabled && restored.password(uid: tenantUser) == "tenant pw")
    }

    @Test func anExportOfGooglesEmulatorIsRead() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(#"{"version":"14.2.0","auth":{"version":"14.2.0","path":"auth_export"}}"#, folder + "/firebase-export-metadata.json")
        try write(#"{"signIn":{"allowDuplicateEmails":true},"emailPrivacyConfig":{"enableImprovedEmailPrivacy":false}}"#, folder + "/auth_export/config.json")
        try write("""
            {"kind":"identitytoolkit#DownloadAccountResponse","users":[{"localId":"KkLa8dxwRi1hE5q","createdAt":"1732000000000","lastLoginAt":"1732000100000",\
            "displayName":"Grace","passwordHash":"fakeHash:salt=fakeSaltAbC:password=secret-1","salt":"fakeSaltAbC","passwordUpdatedAt":1732000000000,\
            "providerUserInfo":[{"providerId":"password","email":"grace@example.com","federatedId":"grace@example.com","rawId":"grace@example.com","displayName":"Grace"},\
            {"providerId":"google.com","rawId":"1234","federatedId":"https://accounts.google.com/1234","email":"grace@gmail.example"}],\
            "validSince":"1732000000","email":"grace@example.com","emailVerified":true,"disabled":false,"customAttributes":"{\\"role\\":\\"tester\\"}",\
            "mfaInfo":[{"mfaEnrollmentId":"e1","displayName":"work","phoneInfo":"+15555550199","enrolledAt":"2024-11-19T07:06:40.000Z"}]}]}
            """, folder + "/auth_export/accounts.json")
        let standIn = try StandIn()
        try standIn.importAuth(from: folder)
        standIn.start()
        #expect(!standIn.configuration.oneAccountPerEmail)
        let user = try #require(standIn.users.first)
        #expect(user.uid == "KkLa8dxwRi1hE5q" && user.email == "grace@example.com" && user.providerIds == ["google.com"] && user.hasPassword)
        #expect(standIn.secondFactors(uid: user.uid).map(\.factorId) == ["phone"])
        let client = StandInClient(standIn: standIn)
        let signIn = client.accounts("signInWithPassword", ["email": "grace@example.com", "password": "secret-1"])
        #expect(signIn.json["mfaPendingCredential"] is String, "the phone factor came along: \(signIn.json)")
    }

    @Test(arguments: [
        (#"{"users":[{"email":"x@example.com"}]}"#, "has no localId"),
        (#"{"users":[{"localId":"a\nb"}]}"#, "localId must be 1 to 128 characters"),
        (#"{"users":[{"localId":"a","passwordHash":"bcrypt$2a$..."}]}"#, "passwordHash is neither an emulator's fakeHash:salt=…:password=… nor base64"),
        (#"{"users":[{"localId":"a","createdAt":"99999999999999999"}]}"#, "createdAt is not a time"),
        (#"{"users":"everyone"}"#, "\"users\" is not a list"),
        ("not json", "is not a JSON object"),
    ])
    func whatCannotBeReadIsRefusedWithWhereAndWhy(accounts: String, message: String) throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try write(accounts, folder + "/auth_export/accounts.json")
        let standIn = try StandIn()
        #expect {
            try standIn.importAuth(from: folder)
        } throws: { error in
            (error as? AuthExport.Problem)?.description.contains(message) == true
        }
        let notAFolder = folder + "/auth_export/accounts.json"
        #expect(throws: AuthExport.Problem.self) { try standIn.importAuth(from: notAFolder) }
    }
}
