import Foundation
import TestSupport
import Testing

/// Issue 59, item 3, through the real binaries: users imported with production hashes sign in
/// to `fbauth emulator` with their real passwords. Judged by firebase-admin (PyPI), which
/// imports one user per algorithm, and by a `firebase auth:export` file with the project's
/// parameters as the console shows them.
@Suite struct ImportedPasswordHashTests {
    static let v1 = "/identitytoolkit.googleapis.com/v1"
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func signIn(_ host: String, _ email: String, _ password: String) throws -> [String: Any] {
        try EmulatorHTTP.call("POST", host, "\(v1)/accounts:signInWithPassword?key=k", ["email": email, "password": password, "returnSecureToken": true])
    }

    static func errorMessage(_ answer: [String: Any]) -> String? { (answer["error"] as? [String: Any])?["message"] as? String }

    @Test(.enabled(if: PasswordHashPython.available, "firebase-admin, bcrypt or cryptography is not installed (pip install firebase-admin bcrypt cryptography)"))
    func firebaseAdminImportsEachAlgorithmAndOnlyTheRightPasswordSignsIn() throws {
        let harness = try Harness()
        let (emulator, host) = try harness.startEmulator()
        defer { emulator.interrupt(); _ = emulator.finish() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.fixtures.appendingPathComponent("import-hashes-with-firebase-admin.py").path, "demo-fbauth"]
        var environment = ProcessInfo.processInfo.environment
        environment["FIREBASE_AUTH_EMULATOR_HOST"] = host
        environment["GOOGLE_APPLICATION_CREDENTIALS"] = nil
        process.environment = environment
        let output = Pipe(), errors = Pipe()
        (process.standardOutput, process.standardError) = (output, errors)
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let algorithms = lines.compactMap { $0["algorithm"] as? String }
        #expect(Set(algorithms) == ["SCRYPT", "STANDARD_SCRYPT", "BCRYPT", "HMAC_SHA512", "HMAC_SHA256", "HMAC_SHA1", "HMAC_MD5", "MD5",
                                    "PBKDF_SHA1", "PBKDF2_SHA256", "SHA512", "SHA256", "SHA1"], "\(algorithms)")
        for line in lines {
            let name = line["algorithm"] as? String ?? "?"
            #expect((line["failures"] as? [Any])?.isEmpty == true, "\(name): \(line)")
            #expect(line["wrong"] as? [AnyHashable] == [400, "INVALID_PASSWORD"], "\(name): \(line)")
            #expect(line["right"] as? [AnyHashable] == [200, "\(name.lowercased())@example.com"], "\(name): \(line)")
        }
    }

    /// A `firebase auth:export` file (Firebase's own README vector: user1@test.com,
    /// `user1password`) in `--import`'s layout, with `--hash-config` holding what the console
    /// shows: the user signs in with the real password, and only with it. `fbauth users import`
    /// with the same parameters as flags does the same for another user.
    @Test func anExportedProjectsUsersSignInWithTheConsolesParameters() throws {
        let harness = try Harness()
        let directory = harness.directory + "/data"
        try FileManager.default.createDirectory(atPath: directory + "/auth_export", withIntermediateDirectories: true)
        try #"{"users":[{"localId":"kYi4EvWQlQTKSfnJ3dRSP6IH3ed2","email":"user1@test.com","emailVerified":false,"passwordHash":"lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==","salt":"42xEC+ixf3L2lw==","displayName":"Test User 1","createdAt":"1508893925000","lastLoginAt":"1508893925000"}]}"#
            .write(toFile: directory + "/auth_export/accounts.json", atomically: true, encoding: .utf8)
        let console = """
            hash_config {
              algorithm: SCRYPT,
              base64_signer_key: \(UsersTransferTests.signerKey),
              base64_salt_separator: Bw==,
              rounds: 8,
              mem_cost: 14,
            }
            """
        try console.write(toFile: harness.directory + "/hash-config.txt", atomically: true, encoding: .utf8)
        let (emulator, host) = try harness.startEmulator(["--import", directory, "--hash-config", harness.directory + "/hash-config.txt"])
        defer { emulator.interrupt(); _ = emulator.finish() }
        #expect(Self.errorMessage(try Self.signIn(host, "user1@test.com", "user1password!")) == "INVALID_PASSWORD")
        let signedIn = try Self.signIn(host, "user1@test.com", "user1password")
        #expect(signedIn["localId"] as? String == "kYi4EvWQlQTKSfnJ3dRSP6IH3ed2" && signedIn["idToken"] is String, "\(signedIn)")

        // The same parameters as `fbauth users import` flags, for a file with another user.
        try UsersTransferTests.exported.write(toFile: harness.directory + "/from-firebase.json", atomically: true, encoding: .utf8)
        try UsersTransferTests.signerKey.write(toFile: harness.directory + "/key.txt", atomically: true, encoding: .utf8)
        let imported = try harness.run(["--project", "demo-fbauth", "users", "import", harness.directory + "/from-firebase.json", "--hash-key-file", harness.directory + "/key.txt"]
                                       + UsersTransferTests.scryptFlags, environment: ["FIREBASE_AUTH_EMULATOR_HOST": host])
        #expect(imported.status == 0 && imported.json["successCount"] as? Int == 2, "\(imported)")
        #expect(Self.errorMessage(try Self.signIn(host, "ada@example.com", "hunter2")) == "INVALID_PASSWORD")
        // ada has a phone second factor: the right password is answered with its challenge.
        let ada = try Self.signIn(host, "ada@example.com", "user1password")
        #expect(ada["mfaPendingCredential"] is String && ada["localId"] as? String == "ada", "\(ada)")
    }

    @Test func aHashConfigThatCannotBeUsedIsAOneLineUsageError() throws {
        let harness = try Harness()
        let path = harness.directory + "/hash-config.txt"
        let cases: [(String?, String)] = [
            (nil, "fbauth: --hash-config: there is no file \(path)\n"),
            ("hash_config { algorithm: SCRYPT, base64_signer_key: a2V5, rounds: 8, mem_cost: 30 }", "fbauth: --hash-config: INVALID_HASH_MEMORY_COST : ((The memory cost must be 1 to 14 for SCRYPT.))\n"),
            ("hash_config { algorithm: SCRYPT, signer: a2V5 }", "fbauth: --hash-config: 'signer' is not one of algorithm, base64_signer_key, base64_salt_separator, rounds, mem_cost\n"),
            ("hash_config { base64_signer_key = c2VjcmV0LWtleQ== }", "fbauth: --hash-config: a line is not NAME: VALUE, as the console shows them\n"),
            ("hash_config { algorithm: ROT13 }", "fbauth: --hash-config: INVALID_HASH_ALGORITHM : ((Supported: SCRYPT, STANDARD_SCRYPT, BCRYPT, HMAC_SHA512, HMAC_SHA256, HMAC_SHA1, HMAC_MD5, PBKDF_SHA1, PBKDF2_SHA256, SHA512, SHA256, SHA1, MD5.))\n"),
        ]
        for (content, message) in cases {
            try? FileManager.default.removeItem(atPath: path)
            if let content { try content.write(toFile: path, atomically: true, encoding: .utf8) }
            let run = try harness.run(["emulator", "--port", "0", "--hash-config", path])
            #expect(run.status == 2 && run.stderr == message && run.stdout.isEmpty, "\(content ?? "no file"): \(run)")
        }
    }
}

/// Python with what the hash judges need: firebase-admin, bcrypt and cryptography.
enum PasswordHashPython {
    static let available = PythonModules.importable("firebase_admin, bcrypt, cryptography")
}

/// Whether python3 imports these modules (in CI, where .ci/run installs them, always assumed, so
/// that a missing one fails rather than skips).
enum PythonModules {
    static func importable(_ modules: String) -> Bool {
        if ProcessInfo.processInfo.environment["CI"] != nil { return true }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import \(modules)"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
