import FBAuthSupport

/// RS256 (RFC 7518 §3.3): RSASSA-PKCS1-v1_5 with SHA-256 (RFC 8017 §8.2.2), as Firebase signs
/// ID tokens and session cookies. Hand-written rather than the system's crypto: the same code,
/// and the same refusals, on Linux (where libcrypto would be loaded at run time and its
/// version vary) and macOS. Verifying uses public values only; signing with a private key
/// (`RSAPrivateKey.signRS256`) goes through `Montgomery.secretPower`, whose ladder keeps the
/// key's bits out of branches and memory addresses.
enum RS256 {
    /// EMSA-PKCS1-v1_5's DigestInfo prefix for SHA-256 (RFC 8017 §9.2, note 1).
    static let digestInfoPrefix: [UInt8] = [0x30, 0x31, 0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20]

    /// Whether `signature` is `key`'s RS256 signature of `message`: exactly the modulus's
    /// length, below the modulus, and opening to 00 01 FF…FF 00 DigestInfo SHA-256(message),
    /// compared whole (so no parser of the block can be fooled by what follows the digest).
    static func verify(_ signature: [UInt8], of message: [UInt8], with key: RSAPublicKey) -> Bool {
        guard signature.count == key.byteCount else { return false }
        let value = Montgomery.limbs(bigEndian: signature)
        let modulus = key.arithmetic.modulus
        guard Montgomery.less(Montgomery.padded(value, to: modulus.count), modulus) else { return false }
        let opened = Montgomery.bigEndian(key.arithmetic.power(value, key.exponent), count: key.byteCount)
        return opened == expectedBlock(for: message, length: key.byteCount)
    }

    /// 00 01 FF…FF 00 ‖ DigestInfo ‖ SHA-256(message), `length` bytes.
    static func expectedBlock(for message: [UInt8], length: Int) -> [UInt8] {
        let digest = digestInfoPrefix + SHA256.hash(message)
        return [0x00, 0x01] + [UInt8](repeating: 0xFF, count: length - digest.count - 3) + [0x00] + digest
    }
}
