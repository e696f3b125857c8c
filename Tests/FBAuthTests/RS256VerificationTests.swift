@testable import FBAuthVerification
import Foundation
import FBAuthSupport
import Testing

/// Issue 42, item 3: RS256 by hand, against vectors OpenSSL made (Scripts/gen-rs256-vectors.py,
/// through Python's cryptography): the valid signatures verify, and bad padding, short and
/// long signatures, values past the modulus, another key, a wrong exponent and a key under
/// 2048 bits are refused.
@Suite struct RS256VerificationTests {
    struct Vectors: Decodable {
        struct Case: Decodable {
            var name: String
            var certificate: String
            var message: String
            var signature: String
            /// Whether fbauth accepts it (a 1024-bit key's is valid RSA, refused by policy).
            var valid: Bool
        }
        struct WrongExponent: Decodable {
            var certificate: String
            var message: String
            var signature: String
            var exponent: UInt64
        }
        var cases: [Case]
        var wrongExponent: WrongExponent
    }

    static let vectors: Vectors = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/RS256/vectors.json")
        return try! JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url))
    }()

    static func bytes(base64URL text: String) -> [UInt8] {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return [UInt8](Data(base64Encoded: base64) ?? Data())
    }

    @Test(arguments: vectors.cases.map(\.name))
    func eachVectorIsAcceptedOrRefusedAsOpenSSLSays(name: String) throws {
        let vector = try #require(Self.vectors.cases.first { $0.name == name })
        let accepted: Bool
        do {
            let key = try RSAPublicKey(certificatePEM: vector.certificate)
            accepted = RS256.verify(Self.bytes(base64URL: vector.signature), of: Array(vector.message.utf8), with: key)
        } catch {
            #expect(name == "a 1024-bit key" && error == .tooShort(bits: 1024), "only the short key is refused as a key: \(error)")
            accepted = false
        }
        #expect(accepted == vector.valid, "\(name)")
    }

    @Test func theRightSignatureWithAWrongExponentIsRefused() throws {
        let vector = Self.vectors.wrongExponent
        let right = try RSAPublicKey(certificatePEM: vector.certificate)
        #expect(right.exponent == 65537 && right.byteCount == 256)
        let signature = Self.bytes(base64URL: vector.signature), message = Array(vector.message.utf8)
        #expect(RS256.verify(signature, of: message, with: right))
        let modulus = Montgomery.bigEndian(right.arithmetic.modulus, count: right.byteCount)
        let wrong = try RSAPublicKey(modulus: modulus, exponent: [UInt8(vector.exponent)])
        #expect(!RS256.verify(signature, of: message, with: wrong))
    }

    @Test func keysNoFirebaseKeyIsAreRefused() throws {
        let right = try RSAPublicKey(certificatePEM: Self.vectors.wrongExponent.certificate)
        let modulus = Montgomery.bigEndian(right.arithmetic.modulus, count: right.byteCount)
        #expect(throws: KeyProblem.badExponent) { try RSAPublicKey(modulus: modulus, exponent: [0x01, 0x00, 0x00]) }  // even
        #expect(throws: KeyProblem.badExponent) { try RSAPublicKey(modulus: modulus, exponent: [0x01]) }
        #expect(throws: KeyProblem.badExponent) { try RSAPublicKey(modulus: modulus, exponent: [0x01, 0, 0, 0, 1]) }  // past 2³²
        var even = modulus
        even[even.count - 1] &= 0xFE
        #expect(throws: KeyProblem.evenModulus) { try RSAPublicKey(modulus: even, exponent: [0x01, 0x00, 0x01]) }
        #expect(throws: KeyProblem.tooShort(bits: 2047)) { try RSAPublicKey(modulus: [0x7F] + [UInt8](repeating: 0xFF, count: 255), exponent: [3]) }
    }

    @Test func certificatesThatAreNotAreRefusedAsSuch() throws {
        let pem = Self.vectors.wrongExponent.certificate
        let body = pem.split(separator: "\n").dropFirst().dropLast().joined()
        let der = [UInt8](try #require(Data(base64Encoded: body)))
        #expect(throws: KeyProblem.notACertificate) { try RSAPublicKey(certificatePEM: "-----BEGIN PUBLIC KEY-----\n\(body)\n-----END PUBLIC KEY-----") }
        #expect(throws: KeyProblem.notACertificate) { try RSAPublicKey(certificatePEM: "") }
        #expect(throws: KeyProblem.malformed(.truncated)) { try RSAPublicKey(certificateDER: Array(der.prefix(der.count - 1))) }
        #expect(throws: KeyProblem.notACertificate) { try RSAPublicKey(certificateDER: der + [0x00, 0x00]) }
        #expect(throws: KeyProblem.malformed(.unexpected(tag: 0x31, wanted: 0x30))) { try RSAPublicKey(certificateDER: [0x31] + der.dropFirst()) }
    }

    @Test func theExpectedBlockIsRFC8017s() {
        let block = RS256.expectedBlock(for: Array("abc".utf8), length: 256)
        #expect(block.count == 256 && block.prefix(2) == [0x00, 0x01] && block[203] == 0xFF && block[204] == 0x00)
        // SHA-256("abc"), FIPS 180-4's example.
        #expect(block.suffix(32).map { String(format: "%02x", $0) }.joined() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
