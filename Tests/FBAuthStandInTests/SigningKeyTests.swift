@testable import FBAuthStandIn
import FBAuthSupport
import Foundation
import Testing

/// The stand-in's signing key signs by the Chinese remainder theorem (issue 49: an emulator's
/// tokens need no constant-time ladder); each signature must be the one the plain private
/// exponent makes, and open with the public exponent to the encoded block.
@Suite struct SigningKeyTests {
    static let messages: [[UInt8]] = [[], Array("header.payload".utf8), (0..<1000).map { UInt8($0 % 251) },
                                      Array(repeating: 0xFF, count: 64), Array(repeating: 0, count: 3)]

    @Test(arguments: messages)
    func theFastSignatureIsThePlainOne(message: [UInt8]) {
        #expect(StandInSigningKey.sign(message) == StandInSigningKey.signWithoutCRT(message))
    }

    @Test(arguments: messages)
    func theSignatureOpensToTheBlockWithThePublicExponent(message: [UInt8]) throws {
        let modulus = try #require(Montgomery(modulus: Montgomery.limbs(bigEndian: hexBytes(StandInSigningKey.modulusHex))))
        let opened = modulus.power(Montgomery.limbs(bigEndian: StandInSigningKey.sign(message)), 65537)
        #expect(Montgomery.bigEndian(opened, count: 256) == StandInSigningKey.encodedBlock(for: message, length: 256))
    }

    /// Windows of the exponent, against square-and-multiply one bit at a time (an exponent of
    /// one limb takes that path).
    @Test func aLongExponentInWindowsIsTheSameAsBitByBit() throws {
        let modulus = try #require(Montgomery(modulus: Montgomery.limbs(bigEndian: hexBytes(StandInSigningKey.prime1Hex))))
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5 {
            let base = Montgomery.trimmed((0..<15).map { _ in UInt64.random(in: 0...UInt64.max, using: &generator) })
            let high = UInt64.random(in: 1...UInt64.max, using: &generator), low = UInt64.random(in: 0...UInt64.max, using: &generator)
            // base^(high·2⁶⁴ + low) = (base^high)^(2⁶⁴) · base^low.
            var expected = modulus.power(base, high)
            for _ in 0..<64 { expected = modulus.product(expected, expected) }
            expected = modulus.product(expected, modulus.power(base, low))
            #expect(modulus.power(base, exponentLimbs: [low, high]) == expected)
        }
    }

    private func hexBytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! }
    }
}
