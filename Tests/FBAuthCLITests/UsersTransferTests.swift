import Foundation
import TestSupport
import Testing

/// Issue 57, item 4, and issue 56, item 6: `fbauth users export` and `import` in the files of
/// `firebase auth:export` / `auth:import`, through the real binaries against `fbauth emulator`;
/// the export, which holds password hashes, is written safely.
@Suite struct UsersTransferTests {
    /// A file laid out as `firebase auth:export` writes one (firebase-tools `transUserJson`:
    /// its key names, times in milliseconds as strings, hashes in standard base64), with a
    /// Firebase scrypt user, a provider account, claims and a phone second factor.
    static let exported = """
        {"users": [
        {
          "localId": "ada",
          "email": "ada@example.com",
          "emailVerified": true,
          "passwordHash": "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==",
          "salt": "42xEC+ixf3L2lw==",
          "displayName": "Ada, Countess",
          "photoUrl": "https://example.com/ada.png?size=1,2",
          "lastSignedInAt": "1600000001000",
          "createdAt": "1600000000000",
          "disabled": false,
          "customAttributes": "{\\"admin\\":true,\\"note\\":\\"a \\\\\\"quoted\\\\\\" word\\"}",
          "mfaInfo": [{"mfaEnrollmentId": "f1", "displayName": "Work phone", "phoneInfo": "+15555550111", "enrolledAt": "2023-11-14T22:13:20.000Z"}],
          "providerUserInfo": [{"providerId": "google.com", "rawId": "g-123", "email": "ada@example.com", "displayName": "Ada L", "photoUrl": "https://example.com/g.png"}]
        },
        {
          "localId": "grace",
          "email": "grace@example.com",
          "emailVerified": false,
          "lastSignedInAt": "1600000003000",
          "createdAt": "1600000002000",
          "phoneNumber": "+15555550122",
          "disabled": true
        }]}
        """

    static let scryptFlags = ["--hash-algo", "SCRYPT", "--salt-separator", "Bw==", "--rounds", "8", "--mem-cost", "14"]
    static let signerKey = "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA=="

    /// A file's users by uid, each as a JSON text with sorted keys, to compare whole.
    static func users(in path: String) throws -> [String: String] {
        let file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        var byUid: [String: String] = [:]
        for user in file["users"] as? [[String: Any]] ?? [] {
            byUid[user["localId"] as? String ?? ""] = String(decoding: try JSONSerialization.data(withJSONObject: user, options: .sortedKeys), as: UTF8.self)
        }
        return byUid
    }

    @Test func aFileFromAuthExportGoesInAndComesBackTheSameThroughJSONCSVAndATenant() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator()
        defer { emulator.interrupt() }
        let environment = ["FIREBASE_AUTH_EMULATOR_HOST": host]
        func fbauth(_ arguments: [String], stdin: String? = nil) throws -> RunResult {
            try harness.run(["--project", "demo-fbauth"] + arguments, stdin: stdin, environment: environment)
        }
        let directory = harness.directory
        try Self.exported.write(toFile: directory + "/from-firebase.json", atomically: true, encoding: .utf8)
        try Self.signerKey.write(toFile: directory + "/key.txt", atomically: true, encoding: .utf8)

        let imported = try fbauth(["users", "import", directory + "/from-firebase.json", "--hash-key-file", directory + "/key.txt"] + Self.scryptFlags)
        #expect(imported.status == 0 && imported.json["successCount"] as? Int == 2 && imported.json["failureCount"] as? Int == 0, "\(imported)")
        // What went in is what the file says, read back through the Admin API.
        let ada = try fbauth(["users", "get", "ada"])
        #expect(ada.json["displayName"] as? String == "Ada, Countess" && ada.json["emailVerified"] as? Bool == true
                    && (ada.json["customClaims"] as? [String: Any])?["note"] as? String == "a \"quoted\" word"
                    && (ada.json["metadata"] as? [String: Any])?["creationTime"] as? String == "Sun, 13 Sep 2020 12:26:40 GMT"
                    && ((ada.json["providerData"] as? [[String: Any]]) ?? []).contains { $0["providerId"] as? String == "google.com" && $0["uid"] as? String == "g-123" }
                    && (((ada.json["multiFactor"] as? [String: Any])?["enrolledFactors"] as? [[String: Any]])?.first?["phoneNumber"] as? String) == "+15555550111", "\(ada)")
        let grace = try fbauth(["users", "get", "grace"])
        #expect(grace.json["disabled"] as? Bool == true && grace.json["phoneNumber"] as? String == "+15555550122", "\(grace)")

        // Out again as JSON: the same users, field for field, as auth:export wrote them.
        let exported = try fbauth(["users", "export", directory + "/out.json"])
        #expect(exported.status == 0 && exported.json["exported"] as? Int == 2, "\(exported)")
        let original = try Self.users(in: directory + "/from-firebase.json"), roundTrip = try Self.users(in: directory + "/out.json")
        #expect(roundTrip == original, "\(roundTrip)\n\(original)")
        #expect(try FileManager.default.attributesOfItem(atPath: directory + "/out.json")[.posixPermissions] as? Int == 0o600)

        // As CSV, into a tenant, and out of the tenant as JSON: the same again.
        let tenant = try fbauth(["tenants", "create", "--display-name", "Imports"])
        let tenantId = try #require(tenant.json["tenantId"] as? String, "\(tenant)")
        let csv = try fbauth(["users", "export", directory + "/out.csv"])
        #expect(csv.status == 0, "\(csv)")
        let lines = try String(contentsOfFile: directory + "/out.csv", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.hasSuffix(",") }, "\(lines)")
        // The tenant is a uid namespace of its own: its ada and grace are not the project's.
        let intoTenant = try fbauth(["--tenant-id", tenantId, "users", "import", directory + "/out.csv", "--hash-key-stdin"] + Self.scryptFlags, stdin: Self.signerKey + "\n")
        #expect(intoTenant.status == 0 && intoTenant.json["successCount"] as? Int == 2, "\(intoTenant)")
        let fromTenant = try fbauth(["--tenant-id", tenantId, "users", "export", directory + "/tenant.json"])
        #expect(fromTenant.status == 0, "\(fromTenant)")
        // CSV carries no second factors (auth:export's columns have none); all else is the same.
        var withoutFactors = original
        if let adaText = original["ada"], var ada = try JSONSerialization.jsonObject(with: Data(adaText.utf8)) as? [String: Any] {
            ada["mfaInfo"] = nil
            withoutFactors["ada"] = String(decoding: try JSONSerialization.data(withJSONObject: ada, options: .sortedKeys), as: UTF8.self)
        }
        #expect(try Self.users(in: directory + "/tenant.json") == withoutFactors)
        // The key never reached the output.
        for result in [imported, intoTenant] { #expect(!result.stdout.contains(Self.signerKey) && !result.stderr.contains(Self.signerKey)) }
    }

    @Test func badFilesAndFlagsAreOneLineRefusalsThatShowNoHash() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator()
        defer { emulator.interrupt() }
        let environment = ["FIREBASE_AUTH_EMULATOR_HOST": host]
        let directory = harness.directory
        let hash = "c2VjcmV0LWhhc2gtYnl0ZXM="
        try #"{"users": [{"localId": "ok"}, {"localId": "odd", "passwordHash": "\#(hash)", "password": "x"}]}"#
            .write(toFile: directory + "/odd.json", atomically: true, encoding: .utf8)
        try #"{"users": [{"localId": "h", "passwordHash": "\#(hash)"}]}"#.write(toFile: directory + "/hashed.json", atomically: true, encoding: .utf8)
        try #"{"users": [{"localId": "b", "passwordHash": "not base64!"}]}"#.write(toFile: directory + "/bad64.json", atomically: true, encoding: .utf8)
        try "ok".write(toFile: directory + "/users.txt", atomically: true, encoding: .utf8)
        for (arguments, line) in [
            (["import", directory + "/odd.json"], "user 2 (uid odd): has unsupported keys: password [auth/invalid-user-import]"),
            (["import", directory + "/hashed.json"],
             "the file has password hashes: say how they were made with --hash-algo and its parameters (firebase auth:export's are SCRYPT with the project's key, --salt-separator, --rounds and --mem-cost) [auth/missing-hash-algorithm]"),
            (["import", directory + "/bad64.json", "--hash-algo", "BCRYPT"], "user 1 (uid b): Password hash should be base64 encoded. [auth/invalid-user-import]"),
            (["import", directory + "/hashed.json", "--hash-algo", "SCRYPT", "--hash-key", "a2V5"],
             "--hash-key would put the signer key in the process list, where other users see it; give it with --hash-key-stdin or --hash-key-file FILE"),
            (["import", directory + "/hashed.json", "--hash-algo", "SHA256"], "A valid \"hash.rounds\" number between 1 and 8192 must be provided for hash algorithm SHA256. [auth/invalid-hash-rounds]"),
            (["import", directory + "/hashed.json", "--rounds", "8"], "--rounds needs --hash-algo, the algorithm it is a parameter of"),
            (["import", directory + "/users.txt"], "say the file's format with a name ending in .json or .csv, or with --format json|csv"),
            (["import", directory + "/none.json"], "there is no file \(directory)/none.json to import"),
        ] {
            let result = try harness.run(["--project", "demo-fbauth", "users"] + arguments, environment: environment)
            #expect(result.status == 2 && result.stdout.isEmpty && result.stderr == "fbauth: \(line)\n", "\(arguments): \(result)")
            #expect(!result.stderr.contains(hash))
        }
        // Users the server refuses are listed by their place in the file, the others go in: exit 1.
        try #"{"users": [{"localId": "fine"}, {"localId": "bad-phone", "phoneNumber": "+1abc"}]}"#.write(toFile: directory + "/partial.json", atomically: true, encoding: .utf8)
        let partial = try harness.run(["--project", "demo-fbauth", "users", "import", directory + "/partial.json"], environment: environment)
        let errors = partial.json["errors"] as? [[String: Any]]
        #expect(partial.status == 1 && partial.json["successCount"] as? Int == 1 && errors?.count == 1 && errors?.first?["index"] as? Int == 1
                    && errors?.first?["uid"] as? String == "bad-phone"
                    && partial.stderr == "fbauth: 1 of the file's users were not imported; each is in \"errors\" on stdout, by its place in the file\n", "\(partial)")
        let fine = try harness.run(["--project", "demo-fbauth", "users", "get", "fine"], environment: environment)
        #expect(fine.status == 0, "\(fine)")
    }

    /// The export holds password hashes: it does not write through a link, nor replace a FIFO
    /// or another user's file; what was at the path is left as it was.
    @Test func theExportReplacesOnlyTheUsersOwnFile() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator()
        defer { emulator.interrupt() }
        let environment = ["FIREBASE_AUTH_EMULATOR_HOST": host]
        let directory = harness.directory
        try "theirs".write(toFile: directory + "/target", atomically: true, encoding: .utf8)
        #expect(symlink(directory + "/target", directory + "/link.json") == 0)
        #expect(mkfifo(directory + "/fifo.json", 0o600) == 0)
        var cases = [(directory + "/link.json", "\(directory)/link.json is a symbolic link, which is not written through, so it is not trusted"),
                     (directory + "/fifo.json", "\(directory)/fifo.json is not a regular file (a FIFO, device, socket or directory), so it is not read")]
        if geteuid() == 0 {
            try "another user's".write(toFile: directory + "/other.json", atomically: true, encoding: .utf8)
            #expect(chown(directory + "/other.json", 65534, 65534) == 0)
            cases.append((directory + "/other.json", "\(directory)/other.json is owned by another user (uid 65534), whose file is not replaced, so it is not trusted"))
        }
        for (path, line) in cases {
            let result = try harness.run(["--project", "demo-fbauth", "users", "export", path], environment: environment)
            #expect(result.status == 2 && result.stderr == "fbauth: \(line)\n", "\(path): \(result)")
        }
        #expect(try String(contentsOfFile: directory + "/target", encoding: .utf8) == "theirs")
        if geteuid() == 0 { #expect(try String(contentsOfFile: directory + "/other.json", encoding: .utf8) == "another user's") }
        // The user's own file is replaced whole, and no temporary file is left beside it.
        try "old".write(toFile: directory + "/mine.json", atomically: true, encoding: .utf8)
        let mine = try harness.run(["--project", "demo-fbauth", "users", "export", directory + "/mine.json"], environment: environment)
        #expect(mine.status == 0 && (try? Self.users(in: directory + "/mine.json")) == [:], "\(mine)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".tmp-") }.isEmpty)
    }
}
