#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport

/// An RSA public key for RS256, from the X.509 certificate Google publishes it in (PEM, as the
/// securetoken and identitytoolkit x509 endpoints serve them). Keys under 2048 bits, even
/// moduli and exponents that are even, 1 or past 2³² are refused: no Firebase key is one.
struct RSAPublicKey: Sendable {
    static let minimumBits = 2048
    static let maximumBits = 8192

    /// The modulus's length in bytes: every signature has exactly this many.
    let byteCount: Int
    let exponent: UInt64
    let arithmetic: Montgomery

    init(modulus: [UInt8], exponent: [UInt8]) throws(KeyProblem) {
        let modulus = Array(modulus.drop { $0 == 0 })
        let bits = modulus.first.map { modulus.count * 8 - $0.leadingZeroBitCount } ?? 0
        guard bits >= Self.minimumBits else { throw .tooShort(bits: bits) }
        guard bits <= Self.maximumBits else { throw .tooLong(bits: bits) }
        let exponentBytes = exponent.drop { $0 == 0 }
        guard exponentBytes.count <= 4, let value = Optional(exponentBytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }),
              value >= 3, value & 1 == 1 else { throw .badExponent }
        guard let arithmetic = Montgomery(modulus: Montgomery.limbs(bigEndian: modulus)) else { throw .evenModulus }
        byteCount = modulus.count
        self.exponent = value
        self.arithmetic = arithmetic
    }

    /// The key in a PEM certificate (`-----BEGIN CERTIFICATE-----`).
    init(certificatePEM pem: String) throws(KeyProblem) {
        guard let der = PEM.contents(of: pem, label: "CERTIFICATE") else { throw .notACertificate }
        try self.init(certificateDER: der)
    }

    init(certificateDER der: [UInt8]) throws(KeyProblem) {
        let parts: (modulus: [UInt8], exponent: [UInt8])
        do {
            parts = try Self.publicKeyParts(der)
        } catch let problem as KeyProblem {
            throw problem
        } catch {
            throw .malformed(error as? DERProblem ?? .truncated)
        }
        try self.init(modulus: parts.modulus, exponent: parts.exponent)
    }

    /// The OID rsaEncryption, 1.2.840.113549.1.1.1.
    static let rsaEncryption: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]

    /// Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signature }, whose
    /// tbsCertificate holds the SubjectPublicKeyInfo (RFC 5280 §4.1) after the version,
    /// serial number, signature algorithm, issuer, validity and subject; its BIT STRING holds
    /// RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER } (RFC 8017 A.1.1).
    private static func publicKeyParts(_ der: [UInt8]) throws -> (modulus: [UInt8], exponent: [UInt8]) {
        var top = DERReader(der)
        var certificate = try top.read(0x30)
        guard top.isAtEnd else { throw KeyProblem.notACertificate }
        var tbs = try certificate.read(0x30)
        if tbs.nextTag == 0xA0 { try tbs.skip() }  // [0] version
        for _ in 0..<5 { try tbs.skip() }  // serial, signature, issuer, validity, subject
        var info = try tbs.read(0x30)
        var algorithm = try info.read(0x30)
        guard try algorithm.read(0x06).contents == rsaEncryption else { throw KeyProblem.notRSA }
        let bits = try info.read(0x03).contents
        guard bits.first == 0 else { throw KeyProblem.notACertificate }  // no unused bits
        var keyReader = DERReader(Array(bits.dropFirst()))
        var key = try keyReader.read(0x30)
        let modulus = try key.readUnsignedInteger()
        let exponent = try key.readUnsignedInteger()
        guard key.isAtEnd, keyReader.isAtEnd else { throw KeyProblem.notACertificate }
        return (modulus, exponent)
    }
}

enum KeyProblem: Error, Equatable {
    case notACertificate
    case notAPrivateKey
    case notRSA
    case malformed(DERProblem)
    case tooShort(bits: Int)
    case tooLong(bits: Int)
    case badExponent
    case evenModulus
}
