import Foundation
import LoopbackHTTP
import Testing

/// Issue 27, items 1 and 2: `fbauth emulator --import/--export-on-exit` against another user of
/// the machine (a shared folder, planted links) and against a hostile local client (tenant ids
/// that would become file names). The real binary, as the attack ran it.
@Suite struct EmulatorFilesHardeningTests {
    /// Another user: `nobody`, who owns and opens the shared folder.
    static let otherUser: uid_t = 65534

    private func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    /// A folder of someone's that the export must not touch.
    private func victimFolder(_ harness: Harness) throws -> (folder: String, config: String) {
        let folder = harness.directory + "/someapp"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let config = folder + "/config.json"
        try Data(#"{"theme":"dark"}"#.utf8).write(to: URL(fileURLWithPath: config))
        return (folder, config)
    }

    private func serve(_ harness: Harness, _ arguments: [String]) throws -> (BackgroundProcess, String) {
        let emulator = try BackgroundProcess(["emulator", "--port", "0"] + arguments, harness: harness)
        #expect(emulator.waitForStdout(containing: "127.0.0.1:"), "\(emulator.stderr)")
        return (emulator, emulator.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func aSharedFolderOfAnotherUserIsRefusedBeforeAnythingIsServed() throws {
        let harness = try Harness()
        let (victim, config) = try victimFolder(harness)
        // The attacker's folder, open to all, with a link to the victim's folder in it.
        let shared = harness.directory + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: shared + "/auth_export", withDestinationPath: victim)
        chmod(shared, 0o777)
        lchown(shared + "/auth_export", Self.otherUser, Self.otherUser)
        chown(shared, Self.otherUser, Self.otherUser)

        let result = try harness.run(["emulator", "--port", "0", "--export-on-exit", shared])
        #expect(result.status == 7, "\(result)")
        #expect(result.stderr.contains("\(shared) is owned by another user (uid \(Self.otherUser))") && result.stderr.contains("; give --export-on-exit a directory of your own, such as ./emulator-data (made 0700 if new)\n"),
                "\(result.stderr)")
        #expect(try String(contentsOfFile: config, encoding: .utf8) == #"{"theme":"dark"}"#)
        #expect(!FileManager.default.fileExists(atPath: victim + "/accounts.json"))

        let imported = try harness.run(["emulator", "--port", "0", "--import", shared])
        #expect(imported.status == 2 && imported.stderr.contains("owned by another user"), "\(imported)")
    }

    @Test func aFolderOthersMayWriteInIsRefusedWithItsWholeMode() throws {
        let harness = try Harness()
        let open = harness.directory + "/open"
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: true)
        chmod(open, 0o1777)
        let result = try harness.run(["emulator", "--port", "0", "--export-on-exit", open])
        #expect(result.status == 7, "\(result)")
        #expect(result.stderr.contains("can be written by other users (mode 1777)") && result.stderr.contains("; give --export-on-exit a directory of your own, such as ./emulator-data (made 0700 if new)\n")
                && !result.stderr.contains("chmod"), "\(result.stderr)")
        chmod(open, 0o777)
        let loose = try harness.run(["emulator", "--port", "0", "--export-on-exit", open])
        #expect(loose.stderr.contains("(mode 0777)") && loose.stderr.contains("chmod 700 '\(open)'"), "\(loose.stderr)")
    }

    @Test func aLinkPlantedInsideTheExportIsNotFollowed() throws {
        let harness = try Harness()
        let (victim, config) = try victimFolder(harness)
        let data = harness.directory + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: data + "/auth_export", withDestinationPath: victim)
        let result = try harness.run(["emulator", "--port", "0", "--export-on-exit", data])
        #expect(result.status == 7, "\(result)")
        #expect(result.stderr.contains("\(data)/auth_export is a symbolic link"), "\(result.stderr)")
        #expect(try String(contentsOfFile: config, encoding: .utf8) == #"{"theme":"dark"}"#)

        // A link in place of one of the files is replaced, never written through.
        try FileManager.default.removeItem(atPath: data + "/auth_export")
        try FileManager.default.createDirectory(atPath: data + "/auth_export", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: data + "/auth_export/config.json", withDestinationPath: config)
        let (emulator, _) = try serve(harness, ["--export-on-exit", data])
        emulator.interrupt()
        #expect(emulator.finish().status == 0)
        #expect(try String(contentsOfFile: config, encoding: .utf8) == #"{"theme":"dark"}"#)
        #expect(try FileManager.default.attributesOfItem(atPath: data + "/auth_export/config.json")[.type] as? FileAttributeType == .typeRegular,
                "config.json is a file of the export now")
    }

    @Test func anExportIsPrivateAndAFirstImportFolderIsMade() throws {
        let harness = try Harness()
        let data = harness.directory + "/new/emulator-data"
        try FileManager.default.createDirectory(atPath: harness.directory + "/new", withIntermediateDirectories: true)
        let (emulator, host) = try serve(harness, ["--import", data, "--export-on-exit"])
        #expect(try harness.run(["signup", "--email", "kept@example.com"], stdin: "correct horse\n",
                                environment: ["FIREBASE_AUTH_EMULATOR_HOST": host]).status == 0)
        emulator.interrupt()
        #expect(emulator.finish().status == 0)
        #expect(try mode(data) == 0o700 && mode(data + "/auth_export") == 0o700)
        for file in ["firebase-export-metadata.json", "auth_export/accounts.json", "auth_export/config.json", "auth_export/fbauth-totp-factors.json"] {
            #expect(try mode(data + "/" + file) == 0o600, "\(file)")
        }
        #expect(try String(contentsOfFile: data + "/auth_export/accounts.json", encoding: .utf8).contains("password=correct horse"))
    }

    @Test func aTenantIdThatIsAPathIsRefusedAndTheExportCompletes() throws {
        let harness = try Harness()
        let data = harness.directory + "/data"
        let (emulator, host) = try serve(harness, ["--import", data, "--export-on-exit"])
        let port = try #require(UInt16(host.split(separator: ":").last ?? ""))
        for tenant in ["../../x", "a/b", String(repeating: "t", count: 64), "tenant\n1"] {
            let answer = try harness.postToStandIn("/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k",
                                  ["email": "t@example.com", "password": "secret1", "tenantId": tenant], port: port)
            #expect(answer.status == 400 && answer.body.contains("INVALID_TENANT_ID"), "\(tenant): \(answer)")
        }
        let good = try harness.postToStandIn("/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k",
                            ["email": "t@example.com", "password": "secret1", "tenantId": "tenant-1"], port: port)
        #expect(good.status == 200, "\(good)")
        emulator.interrupt()
        let stopped = emulator.finish()
        #expect(stopped.status == 0, "\(stopped)")
        #expect(FileManager.default.fileExists(atPath: data + "/auth_export/accounts-tenant-1.json"))
        #expect(FileManager.default.fileExists(atPath: data + "/auth_export/config.json"))
        #expect(!FileManager.default.fileExists(atPath: harness.directory + "/x.json"))
    }

    @Test func anImportedTenantIdIsChecked() throws {
        let harness = try Harness()
        let data = harness.directory + "/data"
        try FileManager.default.createDirectory(atPath: data + "/auth_export", withIntermediateDirectories: true)
        try Data(#"{"users":[{"localId":"u1","tenantId":"../../etc"}]}"#.utf8).write(to: URL(fileURLWithPath: data + "/auth_export/accounts.json"))
        let result = try harness.run(["emulator", "--port", "0", "--import", data])
        #expect(result.status == 2 && result.stderr.contains("tenantId '../../etc' is not a tenant id"), "\(result)")
    }
}
