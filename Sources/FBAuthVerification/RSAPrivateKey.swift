import FBAuthSupport

/// An RSA private key for RS256 signatures: a service account's `private_key`, PKCS #8
/// (`-----BEGIN PRIVATE KEY-----`, as Google issues them) or PKCS #1
/// (`-----BEGIN RSA PRIVATE KEY-----`). Signing raises to the private exponent with
/// `Montgomery.secretPower`, whose work does not depend on the exponent's bits; every signature
/// is checked with the public key before it leaves, so a wrong key or a fault never sends a
/// signature that gives the key away.
struct RSAPrivateKey: Sendable {
    let publicKey: RSAPublicKey
    private let privateExponent: [UInt64]

    init(pem: String) throws(KeyProblem) {
        if let der = PEM.contents(of: pem, label: "PRIVATE KEY") {
            try self.init(pkcs8: der)
        } else if let der = PEM.contents(of: pem, label: "RSA PRIVATE KEY") {
            try self.init(pkcs1: der)
        } else {
            throw .notAPrivateKey
        }
    }

    /// PrivateKeyInfo ::= SEQUENCE { version INTEGER, AlgorithmIdentifier, privateKey OCTET
    /// STRING, [0] attributes OPTIONAL } (RFC 5208 §5), the octets an RSAPrivateKey.
    init(pkcs8 der: [UInt8]) throws(KeyProblem) {
        let inner = try Self.reading(der) { top in
            var info = try top.read(0x30)
            guard try info.readUnsignedInteger() == [0] else { throw KeyProblem.notAPrivateKey }
            var algorithm = try info.read(0x30)
            guard try algorithm.read(0x06).contents == RSAPublicKey.rsaEncryption else { throw KeyProblem.notRSA }
            return try info.read(0x04).contents
        }
        try self.init(pkcs1: inner)
    }

    /// RSAPrivateKey ::= SEQUENCE { version 0, modulus, publicExponent, privateExponent, prime1,
    /// prime2, exponent1, exponent2, coefficient } (RFC 8017 A.1.2); only the first three are
    /// used (no CRT: one exponentiation of a service-account assertion an hour needs no speed).
    init(pkcs1 der: [UInt8]) throws(KeyProblem) {
        let parts = try Self.reading(der) { top in
            var key = try top.read(0x30)
            guard try key.readUnsignedInteger() == [0] else { throw KeyProblem.notAPrivateKey }
            return (modulus: try key.readUnsignedInteger(), exponent: try key.readUnsignedInteger(), privateExponent: try key.readUnsignedInteger())
        }
        publicKey = try RSAPublicKey(modulus: parts.modulus, exponent: parts.exponent)
        let exponent = Montgomery.trimmed(Montgomery.limbs(bigEndian: parts.privateExponent))
        let modulus = publicKey.arithmetic.modulus
        guard !exponent.isEmpty, exponent.count <= modulus.count, Montgomery.less(Montgomery.padded(exponent, to: modulus.count), modulus) else {
            throw .notAPrivateKey
        }
        privateExponent = exponent
    }

    /// The RS256 signature of `message`; nil when it does not verify with the public key (the
    /// private exponent does not belong to the modulus).
    func signRS256(_ message: [UInt8]) -> [UInt8]? {
        let block = RS256.expectedBlock(for: message, length: publicKey.byteCount)
        let value = publicKey.arithmetic.secretPower(Montgomery.limbs(bigEndian: block), exponentLimbs: privateExponent)
        let signature = Montgomery.bigEndian(value, count: publicKey.byteCount)
        return RS256.verify(signature, of: message, with: publicKey) ? signature : nil
    }

    /// What `body` reads of `der`, which must be all of it; its problems as KeyProblems.
    private static func reading<T>(_ der: [UInt8], _ body: (inout DERReader) throws -> T) throws(KeyProblem) -> T {
        do {
            var reader = DERReader(der)
            let value = try body(&reader)
            guard reader.isAtEnd else { throw KeyProblem.notAPrivateKey }
            return value
        } catch let problem as KeyProblem {
            throw problem
        } catch {
            throw .malformed(error as? DERProblem ?? .truncated)
        }
    }
}
