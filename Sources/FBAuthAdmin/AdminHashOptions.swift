#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthHTTP
import FBAuthSupport
import FBAuthVerification

/// How imported password hashes were made (firebase-admin-node `UserImportOptions.hash`),
/// checked as `UserImportBuilder.populateOptions` checks it: each of the 13 algorithms with
/// the key, rounds and costs it needs, in the Admin SDK's codes and words.
package struct AdminHashOptions: Sendable, Equatable {
    /// The 13 algorithms the Admin API imports, in firebase-admin-node's order (`HashAlgorithmType`).
    package static let algorithms = ["SCRYPT", "STANDARD_SCRYPT", "HMAC_SHA512", "HMAC_SHA256", "HMAC_SHA1", "HMAC_MD5", "MD5",
                                     "PBKDF_SHA1", "BCRYPT", "PBKDF2_SHA256", "SHA512", "SHA256", "SHA1"]

    package var algorithm: String
    package var key: [UInt8]?
    package var saltSeparator: [UInt8]?
    package var rounds: Int?
    package var memoryCost: Int?
    package var parallelization: Int?
    package var blockSize: Int?
    package var derivedKeyLength: Int?
    /// Whether the salt or the password comes first (`SALT_AND_PASSWORD`, `PASSWORD_AND_SALT`):
    /// firebase-tools' `--hash-input-order`, which the Admin SDKs do not offer.
    package var passwordHashOrder: String?

    package init(algorithm: String) { self.algorithm = algorithm }

    /// The fields `accounts:batchCreate` takes beside the users (`UploadAccountOptions`).
    package func requestFields() throws(TokenRefusal) -> [String: JSONValue] {
        guard !algorithm.isEmpty else {
            throw AdminErrors.client("INVALID_HASH_ALGORITHM", message: "\"hash.algorithm\" must be a string matching the list of supported algorithms.")
        }
        var fields: [String: JSONValue] = ["hashAlgorithm": .string(algorithm)]
        switch algorithm {
        case "HMAC_SHA512", "HMAC_SHA256", "HMAC_SHA1", "HMAC_MD5":
            guard let key else {
                throw AdminErrors.client("INVALID_HASH_KEY", message: "A non-empty \"hash.key\" byte buffer must be provided for hash algorithm \(algorithm).")
            }
            fields["signerKey"] = .string(Self.webSafeBase64(key))
        case "MD5", "SHA1", "SHA256", "SHA512":
            // MD5 may have no rounds at all; the SHAs need one at least.
            let least = algorithm == "MD5" ? 0 : 1
            fields["rounds"] = .integer(Int64(try Self.rounds(rounds, least...8192, algorithm)))
        case "PBKDF_SHA1", "PBKDF2_SHA256":
            fields["rounds"] = .integer(Int64(try Self.rounds(rounds, 0...120_000, algorithm)))
        case "SCRYPT":
            guard let key else {
                throw AdminErrors.client("INVALID_HASH_KEY", message: "A \"hash.key\" byte buffer must be provided for hash algorithm SCRYPT.")
            }
            let rounds = try Self.rounds(rounds, 1...8, algorithm)
            guard let memoryCost, (1...14).contains(memoryCost) else {
                throw AdminErrors.client("INVALID_HASH_MEMORY_COST", message: "A valid \"hash.memoryCost\" number between 1 and 14 must be provided for hash algorithm SCRYPT.")
            }
            fields["signerKey"] = .string(Self.webSafeBase64(key))
            fields["rounds"] = .integer(Int64(rounds))
            fields["memoryCost"] = .integer(Int64(memoryCost))
            fields["saltSeparator"] = .string(Self.webSafeBase64(saltSeparator ?? []))
        case "BCRYPT":
            break
        case "STANDARD_SCRYPT":
            fields["cpuMemCost"] = .integer(Int64(try Self.required(memoryCost, "MEMORY_COST", "memoryCost")))
            fields["parallelization"] = .integer(Int64(try Self.required(parallelization, "PARALLELIZATION", "parallelization")))
            fields["blockSize"] = .integer(Int64(try Self.required(blockSize, "BLOCK_SIZE", "blockSize")))
            fields["dkLen"] = .integer(Int64(try Self.required(derivedKeyLength, "DERIVED_KEY_LENGTH", "derivedKeyLength")))
        default:
            throw AdminErrors.client("INVALID_HASH_ALGORITHM", message: "Unsupported hash algorithm provider \"\(TerminalText.safe(String(algorithm.prefix(100))))\".")
        }
        if let passwordHashOrder { fields["passwordHashOrder"] = .string(passwordHashOrder) }
        return fields
    }

    private static func rounds(_ rounds: Int?, _ range: ClosedRange<Int>, _ algorithm: String) throws(TokenRefusal) -> Int {
        guard let rounds, range.contains(rounds) else {
            throw AdminErrors.client("INVALID_HASH_ROUNDS", message: "A valid \"hash.rounds\" number between \(range.lowerBound) and \(range.upperBound) must be provided for hash algorithm \(algorithm).")
        }
        return rounds
    }

    private static func required(_ value: Int?, _ code: String, _ name: String) throws(TokenRefusal) -> Int {
        guard let value else {
            throw AdminErrors.client("INVALID_HASH_\(code)", message: "A valid \"hash.\(name)\" number must be provided for hash algorithm STANDARD_SCRYPT.")
        }
        return value
    }

    /// Base64 with `-` and `_` for `+` and `/`, padding kept (firebase-admin-node `toWebSafeBase64`).
    package static func webSafeBase64(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacing("+", with: "-").replacing("/", with: "_")
    }
}
