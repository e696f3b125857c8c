import FBAuthStandIn
import Foundation
import Testing

/// Issue 59, item 3: imported production hashes sign their users in. Every vector comes from
/// Python (hashlib, hmac, cryptography, bcrypt) or from Firebase's own published scrypt vectors,
/// which Python re-derives first; none is typed in here. Issue 56, item 6: hash costs that would
/// stall the emulator are refused before any hashing.
@Suite struct PasswordHashTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let python = (try? run(["python3", "-c", "import bcrypt, cryptography"]).status) == 0
    static var pythonAvailable: Bool { python || ProcessInfo.processInfo.environment["CI"] != nil }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }

    /// A stand-in as `fbauth emulator` runs, with the project's own hash parameters when given.
    static func emulator(hashConfig: String? = nil) throws -> (StandIn, StandInClient) {
        var configuration = StandInConfiguration.googleEmulator(projectId: "demo-hashes")
        configuration.emailEnumerationProtection = false
        if let hashConfig { configuration.passwordHashConfig = try PasswordHashConfig(parameters: hashConfig) }
        let standIn = try StandIn(configuration: configuration)
        standIn.start()
        return (standIn, StandInClient(standIn: standIn, apiKey: "fake-api-key"))
    }

    static func importUsers(_ client: StandInClient, _ body: [String: Any]) -> StandInClient.Answer {
        client.post("/identitytoolkit.googleapis.com/v1/projects/demo-hashes/accounts:batchCreate", json: body, headers: ["Authorization: Bearer owner"])
    }

    static func signIn(_ client: StandInClient, _ email: String, _ password: String) -> StandInClient.Answer {
        client.accounts("signInWithPassword", ["email": email, "password": password, "returnSecureToken": true])
    }

    struct Vectors: Decodable {
        struct Case: Decodable { let options: [String: JSONScalar]; let password, salt, hash: String }
        let published: Int
        let cases: [Case]
    }

    enum JSONScalar: Decodable {
        case string(String), integer(Int)
        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int.self) { self = .integer(number) } else { self = .string(try container.decode(String.self)) }
        }
        var value: Any { switch self { case .string(let text): text; case .integer(let number): number } }
    }

    @Test(.enabled(if: pythonAvailable, "Python's bcrypt and cryptography are not installed (pip install bcrypt cryptography)"))
    func everyAlgorithmSignsInWithTheRightPasswordOnly() throws {
        let generated = try Self.run(["python3", Self.fixtures.appendingPathComponent("password-hash-vectors.py").path,
                                      Self.fixtures.appendingPathComponent("firebase-scrypt-vectors.txt").path, "\(UInt32.random(in: 1...UInt32.max))"])
        #expect(generated.status == 0, "Python did not re-derive Firebase's published scrypt vectors")
        let vectors = try JSONDecoder().decode(Vectors.self, from: generated.output)
        #expect(vectors.published == 28)
        let algorithms = Set(vectors.cases.compactMap { if case .string(let name)? = $0.options["hashAlgorithm"] { name } else { nil } })
        #expect(algorithms.count == 13, "\(algorithms.sorted())")
        let (standIn, client) = try Self.emulator()
        defer { standIn.stop() }
        for (index, vector) in vectors.cases.enumerated() {
            let email = "user\(index)@example.com"
            var body = vector.options.mapValues(\.value)
            body["users"] = [["localId": "user\(index)", "email": email, "passwordHash": vector.hash, "salt": vector.salt]]
            let imported = Self.importUsers(client, body)
            let label = "\(vector.options)"
            #expect(imported.status == 200 && imported.json["error"] == nil, "\(label): \(imported.json)")
            let wrong = Self.signIn(client, email, vector.password + "x")
            #expect(wrong.status == 400 && wrong.errorMessage == "INVALID_PASSWORD", "\(label): a wrong password: \(wrong.json)")
            let right = Self.signIn(client, email, vector.password)
            #expect(right.status == 200 && right.json["localId"] as? String == "user\(index)" && right.json["idToken"] is String, "\(label): \(right.json)")
            // Rehashed at that sign-in, as production does: the password still signs in.
            #expect(Self.signIn(client, email, vector.password).status == 200, "\(label)")
        }
    }

    /// Firebase's own vectors (github.com/firebase/scrypt), with the project's parameters as the
    /// console shows them, and users imported with no algorithm of their own, as a
    /// `firebase auth:export` file's are: the exported user1@test.com signs in with its password.
    @Test func anExportedUserSignsInWithTheProjectsConsoleParameters() throws {
        let lines = try String(contentsOf: Self.fixtures.appendingPathComponent("firebase-scrypt-vectors.txt"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        #expect(lines.count == 28)
        // One of them here (ImportedPasswordHashTests signs in another through the binary): a
        // scrypt at Firebase's own costs takes seconds in a debug build under the full suite.
        for (index, fields) in [lines[3]].enumerated() {
            let (key, separator, rounds, memoryCost, password, hash, salt) = (fields[0], fields[1], fields[2], fields[3], fields[4], fields[5], fields[6])
            let console = """
                hash_config {
                  algorithm: SCRYPT,
                  base64_signer_key: \(key),
                  base64_salt_separator: \(separator),
                  rounds: \(rounds),
                  mem_cost: \(memoryCost),
                }
                """
            let (standIn, client) = try Self.emulator(hashConfig: console)
            defer { standIn.stop() }
            let email = "exported\(index)@test.com"
            let imported = Self.importUsers(client, ["users": [["localId": "exported\(index)", "email": email, "passwordHash": hash, "salt": salt]]])
            #expect(imported.status == 200 && imported.json["error"] == nil, "\(imported.json)")
            #expect(Self.signIn(client, email, password + " ").errorMessage == "INVALID_PASSWORD", "\(password)")
            let right = Self.signIn(client, email, password)
            #expect(right.status == 200 && right.json["email"] as? String == email, "\(password): \(right.json)")
            // The Admin API shows the parameters where production does.
            let config = client.send("GET", "/identitytoolkit.googleapis.com/v2/projects/demo-hashes/config", headers: ["Authorization: Bearer owner"])
            let shown = (config.json["signIn"] as? [String: Any])?["hashConfig"] as? [String: Any]
            #expect(shown?["algorithm"] as? String == "SCRYPT" && shown?["signerKey"] as? String == key && shown?["saltSeparator"] as? String == separator
                && shown?["rounds"] as? Int == Int(rounds) && shown?["memoryCost"] as? Int == Int(memoryCost), "\(config.json)")
        }
    }

    /// The same parameters set through the Admin API's config, as a client would.
    @Test func theProjectsParametersCanBeSetThroughTheConfig() throws {
        let (standIn, client) = try Self.emulator()
        defer { standIn.stop() }
        let fields = try #require(String(contentsOf: Self.fixtures.appendingPathComponent("firebase-scrypt-vectors.txt"), encoding: .utf8)
            .split(separator: "\n").first { !$0.hasPrefix("#") }).split(separator: "|").map(String.init)
        let patched = client.send("PATCH", "/identitytoolkit.googleapis.com/v2/projects/demo-hashes/config?updateMask=signIn.hashConfig",
                                  body: Array(try JSONSerialization.data(withJSONObject: ["signIn": ["hashConfig": [
                                      "algorithm": "SCRYPT", "signerKey": fields[0], "saltSeparator": fields[1], "rounds": Int(fields[2])!, "memoryCost": Int(fields[3])!]]])),
                                  contentType: "application/json", headers: ["Authorization: Bearer owner"])
        #expect(patched.status == 200, "\(patched.json)")
        #expect(Self.importUsers(client, ["users": [["localId": "u1", "email": "user1@test.com", "passwordHash": fields[5], "salt": fields[6]]]]).status == 200)
        #expect(Self.signIn(client, "user1@test.com", "nope").errorMessage == "INVALID_PASSWORD")
        #expect(Self.signIn(client, "user1@test.com", fields[4]).status == 200)
    }

    /// Costs that would keep the emulator busy for minutes, or take gigabytes, are refused with
    /// the whole request, before any user is taken; a bcrypt hash of too high a cost is refused
    /// for its user. Each answer comes at once (nothing hashed), and the emulator serves on.
    @Test func absurdCostsAreRefusedBeforeAnyWork() throws {
        let (standIn, client) = try Self.emulator()
        defer { standIn.stop() }
        let user: [String: Any] = ["localId": "costly", "email": "costly@example.com", "passwordHash": "aGFzaA==", "salt": "c2FsdA=="]
        let refused: [([String: Any], String)] = [
            (["hashAlgorithm": "SCRYPT", "signerKey": "a2V5", "rounds": 8, "memoryCost": 30], "INVALID_HASH_MEMORY_COST : ((The memory cost must be 1 to 14 for SCRYPT.))"),
            (["hashAlgorithm": "SCRYPT", "signerKey": "a2V5", "rounds": 1000, "memoryCost": 14], "INVALID_HASH_ROUNDS : ((Rounds must be 1 to 8 for SCRYPT.))"),
            (["hashAlgorithm": "SCRYPT", "rounds": 8, "memoryCost": 14], "MISSING_SIGNER_KEY : ((A signer key of 1 to 1024 bytes is needed for SCRYPT.))"),
            (["hashAlgorithm": "STANDARD_SCRYPT", "cpuMemCost": 1 << 30, "blockSize": 8, "parallelization": 1, "dkLen": 64],
             "INVALID_HASH_MEMORY_COST : ((cpuMemCost must be a power of 2 from 2 to 2^20 for STANDARD_SCRYPT.))"),
            (["hashAlgorithm": "STANDARD_SCRYPT", "cpuMemCost": 1 << 20, "blockSize": 8, "parallelization": 1, "dkLen": 64],
             "INVALID_HASH_MEMORY_COST : ((The emulator checks up to 64 MiB (128·r·N) and 2^21 work (N·r·p) for STANDARD_SCRYPT.))"),
            (["hashAlgorithm": "STANDARD_SCRYPT", "cpuMemCost": 16384, "blockSize": 8, "parallelization": 1000, "dkLen": 64],
             "INVALID_HASH_MEMORY_COST : ((The emulator checks up to 64 MiB (128·r·N) and 2^21 work (N·r·p) for STANDARD_SCRYPT.))"),
            (["hashAlgorithm": "PBKDF2_SHA256", "rounds": 100_000_000], "INVALID_HASH_ROUNDS : ((Rounds must be 0 to 120000 for PBKDF2_SHA256.))"),
            (["hashAlgorithm": "SHA256", "rounds": 1 << 40], "INVALID_HASH_ROUNDS : ((Rounds must be 1 to 8192 for SHA256.))"),
            (["hashAlgorithm": "SHA256", "rounds": 0], "INVALID_HASH_ROUNDS : ((Rounds must be 1 to 8192 for SHA256.))"),
            (["hashAlgorithm": "HMAC_SHA256"], "MISSING_SIGNER_KEY : ((A signer key of 1 to 1024 bytes is needed for HMAC_SHA256.))"),
            (["hashAlgorithm": "ARGON2"], "INVALID_HASH_ALGORITHM : ((Supported: SCRYPT, STANDARD_SCRYPT, BCRYPT, HMAC_SHA512, HMAC_SHA256, HMAC_SHA1, HMAC_MD5, PBKDF_SHA1, PBKDF2_SHA256, SHA512, SHA256, SHA1, MD5.))"),
        ]
        for (options, message) in refused {
            let answer = Self.importUsers(client, options.merging(["users": [user]]) { $1 })
            #expect(answer.status == 400 && answer.errorMessage == message, "\(options): \(answer.json)")
        }
        // A bcrypt hash whose cost is 2^31 rounds: its user is refused, the others are taken.
        let costly = Data(("$2b$31$" + String(repeating: "a", count: 53)).utf8).base64EncodedString()
        let answer = Self.importUsers(client, ["hashAlgorithm": "BCRYPT", "users": [user.merging(["passwordHash": costly]) { $1 }, ["localId": "fine", "email": "fine@example.com"]]])
        #expect(answer.status == 200 && (answer.json["error"] as? [[String: Any]])?.map { "\($0["index"]!): \($0["message"]!)" } == ["0: INVALID_PASSWORD_HASH : ((bcrypt cost 31: the emulator checks costs up to 14.))"], "\(answer.json)")
        // Nothing of the refused requests was kept.
        #expect(Self.signIn(client, "costly@example.com", "hash").errorMessage == "EMAIL_NOT_FOUND")
    }
}
