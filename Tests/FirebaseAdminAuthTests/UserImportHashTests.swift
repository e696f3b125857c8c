import FBAuthStandIn
import FirebaseAdminAuth
import Foundation
import Testing

/// Issue 57: `importUsers`' hash options, for all 13 algorithms. What is sent is what the real
/// firebase-admin (PyPI) sends for the same algorithm and parameters; options that do not fit
/// their algorithm are refused, before any request, with firebase-admin-node's code and words.
@Suite struct UserImportHashTests {
    static let key = Data("signer-key-\u{0}\u{ff}".utf8), separator = Data([0x07, 0xfe])

    /// Each algorithm with parameters that fit it, and the firebase-admin-python call that says the same.
    static let valid: [(UserImportOptions.Hash, String)] = [
        (.init(algorithm: .scrypt, key: Self.key, saltSeparator: separator, rounds: 8, memoryCost: 14), "scrypt(key=KEY, rounds=8, memory_cost=14, salt_separator=SEP)"),
        (.init(algorithm: .standardScrypt, memoryCost: 1024, parallelization: 16, blockSize: 8, derivedKeyLength: 64),
         "standard_scrypt(memory_cost=1024, parallelization=16, block_size=8, derived_key_length=64)"),
        (.init(algorithm: .hmacSHA512, key: key), "hmac_sha512(KEY)"),
        (.init(algorithm: .hmacSHA256, key: key), "hmac_sha256(KEY)"),
        (.init(algorithm: .hmacSHA1, key: key), "hmac_sha1(KEY)"),
        (.init(algorithm: .hmacMD5, key: key), "hmac_md5(KEY)"),
        (.init(algorithm: .md5, rounds: 0), "md5(0)"),
        (.init(algorithm: .pbkdfSHA1, rounds: 120_000), "pbkdf_sha1(120000)"),
        (.init(algorithm: .bcrypt), "bcrypt()"),
        (.init(algorithm: .pbkdf2SHA256, rounds: 10_000), "pbkdf2_sha256(10000)"),
        (.init(algorithm: .sha512, rounds: 8192), "sha512(8192)"),
        (.init(algorithm: .sha256, rounds: 1), "sha256(1)"),
        (.init(algorithm: .sha1, rounds: 100), "sha1(100)"),
    ]

    static func emulator() throws -> StandIn {
        let standIn = try StandIn(configuration: .googleEmulator(projectId: "demo-fbauth"))
        standIn.start()
        return standIn
    }

    /// firebase-admin-python's `UserImportHash(...).to_dict()` for each call, as JSON.
    static func pythonOptions(_ calls: [String]) throws -> [[String: Any]] {
        let program = """
            import base64, json, sys
            from firebase_admin import auth
            KEY, SEP = base64.b64decode(sys.argv[1]), base64.b64decode(sys.argv[2])
            names = {"auth": auth, "KEY": KEY, "SEP": SEP}
            print(json.dumps([eval("auth.UserImportHash." + call, names).to_dict() for call in sys.argv[3:]]))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", program, key.base64EncodedString(), separator.base64EncodedString()] + calls
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]], "\(String(decoding: data, as: UTF8.self))")
    }

    @Test(.enabled(if: AdminUserManagementTests.python || ProcessInfo.processInfo.environment["CI"] != nil, "firebase-admin is not installed (pip install firebase-admin)"))
    func everyAlgorithmSendsWhatFirebaseAdminSends() async throws {
        #expect(Set(Self.valid.map(\.0.algorithm)) == Set(HashAlgorithmType.allCases) && HashAlgorithmType.allCases.count == 13)
        let standIn = try Self.emulator()
        defer { standIn.stop() }
        let auth = AdminAuth(projectID: "demo-fbauth", emulatorHost: standIn.hostAndPort, log: { _ in })
        let theirs = try Self.pythonOptions(Self.valid.map(\.1))
        for ((hash, call), python) in zip(Self.valid, theirs) {
            let user = UserImportRecord(uid: "hashed-\(hash.algorithm.rawValue)", passwordHash: Data("hash".utf8), passwordSalt: Data("salt".utf8))
            let result = try await auth.importUsers([user], options: UserImportOptions(hash: hash))
            #expect(result.successCount == 1 && result.errors.isEmpty, "\(call): \(result.errors)")
            let sent = try #require(standIn.requests(to: "accounts:batchCreate").last.flatMap { try JSONSerialization.jsonObject(with: Data($0.body.utf8)) as? [String: Any] })
            var options = sent
            options["users"] = nil
            let (mine, pythons) = (try JSONSerialization.data(withJSONObject: options, options: .sortedKeys), try JSONSerialization.data(withJSONObject: python, options: .sortedKeys))
            #expect(mine == pythons, "\(call): Swift \(String(decoding: mine, as: UTF8.self)), firebase-admin \(String(decoding: pythons, as: UTF8.self))")
            // The user's own hash and salt go in web-safe base64, as both SDKs send them.
            let sentUser = (sent["users"] as? [[String: Any]])?.first
            #expect(sentUser?["passwordHash"] as? String == "aGFzaA==" && sentUser?["salt"] as? String == "c2FsdA==")
        }
    }

    /// Options that do not fit their algorithm, with firebase-admin-node's code and words
    /// (`UserImportBuilder.populateOptions`); none makes a request.
    @Test func optionsThatDoNotFitAreRefusedBeforeAnyRequest() async throws {
        let standIn = try Self.emulator()
        defer { standIn.stop() }
        let auth = AdminAuth(projectID: "demo-fbauth", emulatorHost: standIn.hostAndPort, log: { _ in })
        let refused: [(UserImportOptions.Hash, String, String)] = [
            (.init(algorithm: .hmacSHA256), "auth/invalid-hash-key", "A non-empty \"hash.key\" byte buffer must be provided for hash algorithm HMAC_SHA256."),
            (.init(algorithm: .scrypt, rounds: 8, memoryCost: 14), "auth/invalid-hash-key", "A \"hash.key\" byte buffer must be provided for hash algorithm SCRYPT."),
            (.init(algorithm: .scrypt, key: Self.key, rounds: 0, memoryCost: 14), "auth/invalid-hash-rounds",
             "A valid \"hash.rounds\" number between 1 and 8 must be provided for hash algorithm SCRYPT."),
            (.init(algorithm: .scrypt, key: Self.key, rounds: 8, memoryCost: 15), "auth/invalid-hash-memory-cost",
             "A valid \"hash.memoryCost\" number between 1 and 14 must be provided for hash algorithm SCRYPT."),
            (.init(algorithm: .scrypt, key: Self.key, rounds: 8), "auth/invalid-hash-memory-cost",
             "A valid \"hash.memoryCost\" number between 1 and 14 must be provided for hash algorithm SCRYPT."),
            (.init(algorithm: .md5, rounds: 8193), "auth/invalid-hash-rounds", "A valid \"hash.rounds\" number between 0 and 8192 must be provided for hash algorithm MD5."),
            (.init(algorithm: .sha1, rounds: 0), "auth/invalid-hash-rounds", "A valid \"hash.rounds\" number between 1 and 8192 must be provided for hash algorithm SHA1."),
            (.init(algorithm: .sha512), "auth/invalid-hash-rounds", "A valid \"hash.rounds\" number between 1 and 8192 must be provided for hash algorithm SHA512."),
            (.init(algorithm: .pbkdf2SHA256, rounds: 120_001), "auth/invalid-hash-rounds",
             "A valid \"hash.rounds\" number between 0 and 120000 must be provided for hash algorithm PBKDF2_SHA256."),
            (.init(algorithm: .pbkdfSHA1, rounds: -1), "auth/invalid-hash-rounds", "A valid \"hash.rounds\" number between 0 and 120000 must be provided for hash algorithm PBKDF_SHA1."),
            (.init(algorithm: .standardScrypt, parallelization: 1, blockSize: 8, derivedKeyLength: 64), "auth/invalid-hash-memory-cost",
             "A valid \"hash.memoryCost\" number must be provided for hash algorithm STANDARD_SCRYPT."),
            (.init(algorithm: .standardScrypt, memoryCost: 1024, blockSize: 8, derivedKeyLength: 64), "auth/invalid-hash-parallelization",
             "A valid \"hash.parallelization\" number must be provided for hash algorithm STANDARD_SCRYPT."),
            (.init(algorithm: .standardScrypt, memoryCost: 1024, parallelization: 1, derivedKeyLength: 64), "auth/invalid-hash-block-size",
             "A valid \"hash.blockSize\" number must be provided for hash algorithm STANDARD_SCRYPT."),
            (.init(algorithm: .standardScrypt, memoryCost: 1024, parallelization: 1, blockSize: 8), "auth/invalid-hash-derived-key-length",
             "A valid \"hash.derivedKeyLength\" number must be provided for hash algorithm STANDARD_SCRYPT."),
        ]
        let user = UserImportRecord(uid: "hashed", passwordHash: Data("hash".utf8))
        for (hash, code, message) in refused {
            await #expect { _ = try await auth.importUsers([user], options: UserImportOptions(hash: hash)) } throws: { error in
                let error = error as? AdminAuthError
                return error?.code == code && error?.message == message
            }
        }
        // Without a hash, no options are needed, and bad ones are not looked at (as firebase-admin-node).
        let plain = try await auth.importUsers([UserImportRecord(uid: "plain")], options: UserImportOptions(hash: .init(algorithm: .sha1)))
        #expect(plain.successCount == 1)
        #expect(standIn.requests(to: "accounts:batchCreate").count == 1)
    }

    /// A user that fails its own checks is counted by its index and left out; the rest are sent,
    /// and the server's refusals are mapped back to the indices given.
    @Test func eachUserFailsAlone() async throws {
        let standIn = try Self.emulator()
        defer { standIn.stop() }
        let auth = AdminAuth(projectID: "demo-fbauth", emulatorHost: standIn.hostAndPort, log: { _ in })
        let users = [
            UserImportRecord(uid: "ok-1", email: "ok-1@example.com"),
            UserImportRecord(uid: String(repeating: "u", count: 129)),
            UserImportRecord(uid: "claims", customClaims: ["iss": "x"]),
            UserImportRecord(uid: "server-refuses", phoneNumber: "+1abc"),
            UserImportRecord(uid: "provider", providerData: [UserProviderRequest(uid: "", providerId: "google.com")]),
            UserImportRecord(uid: "factor", email: "f@example.com", emailVerified: true,
                             multiFactor: MultiFactorUpdateSettings(enrolledFactors: [UpdatePhoneMultiFactorInfoRequest(uid: "mfa-1", displayName: "Work",
                                                                                                                        enrollmentTime: Date(timeIntervalSince1970: 1_700_000_000),
                                                                                                                        phoneNumber: "+15550001234")])),
        ]
        let result = try await auth.importUsers(users)
        #expect(result.successCount == 2 && result.failureCount == 4)
        #expect(result.errors.map(\.index) == [1, 2, 3, 4])
        #expect(result.errors.map(\.error.code) == ["auth/invalid-uid", "auth/reserved-claim", "auth/invalid-user-import", "auth/invalid-uid"])
        #expect(result.errors[3].error.message == "The provider \"uid\" for \"google.com\" must be a valid non-empty string.")
        let sent = try #require(standIn.requests(to: "accounts:batchCreate").first.flatMap { try JSONSerialization.jsonObject(with: Data($0.body.utf8)) as? [String: Any] })
        #expect((sent["users"] as? [[String: Any]])?.compactMap { $0["localId"] as? String } == ["ok-1", "server-refuses", "factor"])
        #expect(sent["hashAlgorithm"] == nil)
        let factor = try await auth.getUser("factor").multiFactor?.enrolledFactors.first
        #expect(factor?.uid == "mfa-1" && factor?.phoneNumber == "+15550001234" && factor?.displayName == "Work"
            && factor?.enrollmentTime == Date(timeIntervalSince1970: 1_700_000_000), "\(String(describing: factor))")
    }
}
