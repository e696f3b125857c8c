#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport

/// How imported password hashes were made: `accounts:batchCreate`'s `hashAlgorithm` and its
/// parameters (Identity Toolkit `UploadAccountRequest`), or a project's own `hashConfig`. Each
/// cost is bounded when the configuration is read, before any hashing, so that no request can
/// make the emulator spend minutes or gigabytes on one password.
///
/// Where production does not publish how a parameter is applied, the reading here is the one
/// firebase-tools' `auth:import` documents: the salt comes first unless `passwordHashOrder` is
/// `PASSWORD_AND_SALT`; MD5 and the SHAs hash the salted password once and then their own digest
/// until `rounds` hashes are made (0 rounds, which MD5 allows, is one); PBKDF2's output is as
/// long as the stored hash.
package struct PasswordHashConfig: Sendable, Equatable {
    enum Algorithm: String, CaseIterable, Sendable {
        case scrypt = "SCRYPT", standardScrypt = "STANDARD_SCRYPT", bcrypt = "BCRYPT"
        case hmacSHA512 = "HMAC_SHA512", hmacSHA256 = "HMAC_SHA256", hmacSHA1 = "HMAC_SHA1", hmacMD5 = "HMAC_MD5"
        case pbkdfSHA1 = "PBKDF_SHA1", pbkdf2SHA256 = "PBKDF2_SHA256"
        case sha512 = "SHA512", sha256 = "SHA256", sha1 = "SHA1", md5 = "MD5"
    }

    var algorithm: Algorithm
    var signerKey: [UInt8] = []
    var saltSeparator: [UInt8] = []
    var rounds = 0
    /// SCRYPT's log2 of N.
    var memoryCost = 0
    /// STANDARD_SCRYPT's N, r, p and output length.
    var cpuMemCost = 0, blockSize = 0, parallelization = 0, derivedKeyLength = 0
    var passwordFirst = false

    /// The most bcrypt cost (log2 of its rounds) checked: 2^14 rounds take a second here; real
    /// systems use 10 to 12.
    static let bcryptCostLimit = 14
    /// The most STANDARD_SCRYPT memory (128·r·N bytes) and work (N·r·p) taken: 16 times the work
    /// of Firebase's own SCRYPT at its highest costs (N = 2^14, r = 8, p = 1).
    static let scryptMemoryLimit = 64 << 20, scryptWorkLimit = 1 << 21

    /// The configuration a request's fields give, or nil when they name no algorithm.
    init?(fields: [String: Any]) throws(APIError) {
        guard let name = fields["hashAlgorithm"] else { return nil }
        guard let name = name as? String, let algorithm = Algorithm(rawValue: name) else {
            throw .badRequest("INVALID_HASH_ALGORITHM : ((Supported: \(Algorithm.allCases.map(\.rawValue).joined(separator: ", ")).))")
        }
        self.algorithm = algorithm
        signerKey = try Self.bytes(fields["signerKey"], "signerKey")
        saltSeparator = try Self.bytes(fields["saltSeparator"], "saltSeparator")
        rounds = try Self.integer(fields["rounds"], "rounds")
        memoryCost = try Self.integer(fields["memoryCost"], "memoryCost")
        cpuMemCost = try Self.integer(fields["cpuMemCost"], "cpuMemCost")
        blockSize = try Self.integer(fields["blockSize"], "blockSize")
        parallelization = try Self.integer(fields["parallelization"], "parallelization")
        derivedKeyLength = try Self.integer(fields["dkLen"], "dkLen")
        switch fields["passwordHashOrder"] as? String {
        case nil, "UNSPECIFIED_ORDER", "SALT_AND_PASSWORD": passwordFirst = false
        case "PASSWORD_AND_SALT": passwordFirst = true
        default: throw .badRequest("INVALID_PASSWORD_HASH_ORDER : ((SALT_AND_PASSWORD or PASSWORD_AND_SALT.))")
        }
        try checkCosts()
    }

    init(algorithm: Algorithm) { self.algorithm = algorithm }

    /// Refuses what one password could not be checked with in a moment.
    func checkCosts() throws(APIError) {
        func refuse(_ code: String, _ why: String) -> APIError { .badRequest("\(code) : ((\(why) for \(algorithm.rawValue).))") }
        switch algorithm {
        case .scrypt:
            guard !signerKey.isEmpty, signerKey.count <= 1024 else { throw refuse("MISSING_SIGNER_KEY", "A signer key of 1 to 1024 bytes is needed") }
            guard (1...8).contains(rounds) else { throw refuse("INVALID_HASH_ROUNDS", "Rounds must be 1 to 8") }
            guard (1...14).contains(memoryCost) else { throw refuse("INVALID_HASH_MEMORY_COST", "The memory cost must be 1 to 14") }
        case .standardScrypt:
            let n = cpuMemCost, r = blockSize, p = parallelization
            guard n >= 2, n <= 1 << 20, n & (n - 1) == 0 else { throw refuse("INVALID_HASH_MEMORY_COST", "cpuMemCost must be a power of 2 from 2 to 2^20") }
            guard (1...1024).contains(r), (1...1024).contains(p) else { throw refuse("INVALID_HASH_BLOCK_SIZE", "blockSize and parallelization must be 1 to 1024") }
            guard 128 * r * n <= Self.scryptMemoryLimit, n * r * p <= Self.scryptWorkLimit else {
                throw refuse("INVALID_HASH_MEMORY_COST", "The emulator checks up to 64 MiB (128·r·N) and 2^21 work (N·r·p)")
            }
            guard (1...1024).contains(derivedKeyLength) else { throw refuse("INVALID_HASH_DERIVED_KEY_LENGTH", "dkLen must be 1 to 1024") }
        case .hmacSHA512, .hmacSHA256, .hmacSHA1, .hmacMD5:
            guard !signerKey.isEmpty, signerKey.count <= 1024 else { throw refuse("MISSING_SIGNER_KEY", "A signer key of 1 to 1024 bytes is needed") }
        case .md5, .sha1, .sha256, .sha512:
            guard ((algorithm == .md5 ? 0 : 1)...8192).contains(rounds) else { throw refuse("INVALID_HASH_ROUNDS", "Rounds must be \(algorithm == .md5 ? 0 : 1) to 8192") }
        case .pbkdfSHA1, .pbkdf2SHA256:
            guard (0...120_000).contains(rounds) else { throw refuse("INVALID_HASH_ROUNDS", "Rounds must be 0 to 120000") }
        case .bcrypt:
            break  // the cost is in each hash: `checkHash`
        }
    }

    /// Refuses a bcrypt hash that costs more than the emulator checks, when the user is imported.
    /// (A hash that is no bcrypt hash is kept, as other hashes are, and matches no password.)
    func checkHash(_ hash: [UInt8]) throws(APIError) {
        guard algorithm == .bcrypt, let parsed = Bcrypt.parse(String(decoding: hash, as: UTF8.self)) else { return }
        guard parsed.cost <= Self.bcryptCostLimit else {
            throw .badRequest("INVALID_PASSWORD_HASH : ((bcrypt cost \(parsed.cost): the emulator checks costs up to \(Self.bcryptCostLimit).))")
        }
    }

    /// Whether `password` is the one `hash` (with `salt`) was made from, compared in constant time.
    func matches(password: String, hash: [UInt8], salt: [UInt8]) -> Bool {
        if algorithm == .bcrypt {
            // The cost and salt are the hash's own; what is compared is its last 23 bytes.
            guard let parsed = Bcrypt.parse(String(decoding: hash, as: UTF8.self)), parsed.cost <= Self.bcryptCostLimit else { return false }
            return Self.constantTimeEqual(Bcrypt.hash(password: Array(password.utf8), cost: parsed.cost, salt: parsed.salt), parsed.hash)
        }
        guard let made = self.hash(Array(password.utf8), salt: salt, like: hash) else { return false }
        return Self.constantTimeEqual(made, hash)
    }

    /// What this algorithm makes of `password`; `stored` gives PBKDF2 its length. (bcrypt, whose
    /// hash is its own format, is checked by `matches`.)
    func hash(_ password: [UInt8], salt: [UInt8], like stored: [UInt8]) -> [UInt8]? {
        let salted = passwordFirst ? password + salt : salt + password
        switch algorithm {
        case .scrypt:
            let key = Scrypt.derive(password: password, salt: salt + saltSeparator, n: 1 << memoryCost, r: rounds, p: 1, length: 64)
            return AES256CTR.apply(key: Array(key.prefix(32)), to: signerKey)
        case .standardScrypt:
            return Scrypt.derive(password: password, salt: salt, n: cpuMemCost, r: blockSize, p: parallelization, length: derivedKeyLength)
        case .bcrypt:
            return nil
        case .hmacSHA512: return PasswordDigest.sha512.hmac(key: signerKey, message: salted)
        case .hmacSHA256: return PasswordDigest.sha256.hmac(key: signerKey, message: salted)
        case .hmacSHA1: return PasswordDigest.sha1.hmac(key: signerKey, message: salted)
        case .hmacMD5: return PasswordDigest.md5.hmac(key: signerKey, message: salted)
        case .pbkdfSHA1, .pbkdf2SHA256:
            guard (1...1024).contains(stored.count) else { return nil }
            return PBKDF2.derive(algorithm == .pbkdfSHA1 ? .sha1 : .sha256, password: password, salt: salt, iterations: rounds, length: stored.count)
        case .sha512, .sha256, .sha1, .md5:
            let digest: PasswordDigest = switch algorithm {
            case .sha512: .sha512
            case .sha256: .sha256
            case .sha1: .sha1
            default: .md5
            }
            var value = digest.hash(salted)
            for _ in 1..<max(rounds, 1) { value = digest.hash(value) }
            return value
        }
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// Bytes from base64, standard or web-safe, padded or not (firebase-admin sends web-safe,
    /// `firebase auth:import` standard).
    static func bytes(base64 text: String) -> [UInt8]? {
        var standard = text.replacing("-", with: "+").replacing("_", with: "/")
        while standard.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }

    private static func bytes(_ value: Any?, _ name: String) throws(APIError) -> [UInt8] {
        guard let value else { return [] }
        guard let text = value as? String, let bytes = bytes(base64: text) else { throw .invalidArgument("Invalid value at '\(name)' (TYPE_BYTES), Base64 decoding failed") }
        return bytes
    }

    private static func integer(_ value: Any?, _ name: String) throws(APIError) -> Int {
        guard let value else { return 0 }
        if let number = value as? Int { return number }
        if let number = value as? Double, number == number.rounded(), abs(number) < 1e9 { return Int(number) }
        if let text = value as? String, let number = Int(text) { return number }
        throw .invalidArgument("Invalid value at '\(name)' (TYPE_INT32), \(value)")
    }
}

extension PasswordHashConfig {
    /// A project's password hash parameters as the Firebase console shows them (Users, ⋮,
    /// Password hash parameters: `hash_config { algorithm: SCRYPT, base64_signer_key: …,
    /// base64_salt_separator: …, rounds: 8, mem_cost: 14 }`), or as the Admin API's
    /// `signIn.hashConfig` JSON: for `fbauth emulator --hash-config FILE`.
    package init(parameters text: String) throws(HashConfigProblem) {
        var fields: [String: Any] = [:]
        if text.trimmingPrefix(while: \.isWhitespace).hasPrefix("{"), let object = JSONText.parse(Data(text.utf8)) as? [String: Any] {
            fields = Self.requestFields(hashConfig: object)
        } else {
            let names = ["algorithm": "hashAlgorithm", "base64_signer_key": "signerKey", "base64_salt_separator": "saltSeparator", "rounds": "rounds", "mem_cost": "memoryCost"]
            var body = Substring(text)
            if let open = body.firstIndex(of: "{"), let close = body.lastIndex(of: "}"), open < close { body = body[body.index(after: open)..<close] }
            for entry in body.split(whereSeparator: { $0 == "," || $0.isNewline }) where !entry.allSatisfy(\.isWhitespace) {
                let parts = entry.split(separator: ":", maxSplits: 1).map { $0.trimmed() }
                // What is said names the field only: a value may be the signer key.
                guard parts.count == 2 else { throw HashConfigProblem(description: "a line is not NAME: VALUE, as the console shows them") }
                guard let name = names[parts[0]] else {
                    throw HashConfigProblem(description: "'\(TerminalText.safe(String(parts[0].prefix(40))))' is not one of algorithm, base64_signer_key, base64_salt_separator, rounds, mem_cost")
                }
                fields[name] = ["rounds", "memoryCost"].contains(name) ? Int(parts[1]) ?? -1 as Any : parts[1]
            }
        }
        let config: PasswordHashConfig?
        do throws(APIError) { config = try PasswordHashConfig(fields: fields) } catch { throw HashConfigProblem(description: error.message) }
        guard let config else { throw HashConfigProblem(description: "it names no algorithm") }
        self = config
    }

    /// The Admin API's `hashConfig` (algorithm, signerKey, saltSeparator, rounds, memoryCost) as
    /// the fields of an import request.
    static func requestFields(hashConfig object: [String: Any]) -> [String: Any] {
        var fields = object
        fields["hashAlgorithm"] = object["algorithm"]
        fields["algorithm"] = nil
        return fields
    }

    /// As the Admin API shows it (`signIn.hashConfig`, production's output-only field).
    var hashConfig: [String: Any] {
        var shown: [String: Any] = ["algorithm": algorithm.rawValue]
        if !signerKey.isEmpty { shown["signerKey"] = Data(signerKey).base64EncodedString() }
        if !saltSeparator.isEmpty || algorithm == .scrypt { shown["saltSeparator"] = Data(saltSeparator).base64EncodedString() }
        if rounds != 0 { shown["rounds"] = rounds }
        if memoryCost != 0 { shown["memoryCost"] = memoryCost }
        return shown
    }
}

/// Why a hash configuration was not taken, in a sentence.
package struct HashConfigProblem: Error, CustomStringConvertible {
    package let description: String
}
