import FBAuthSupport
import TestSupport
import Testing

/// `Montgomery`'s products, squarings and powers against arithmetic that shares none of its
/// code: a full product reduced by shifting and subtracting one bit at a time. The moduli are
/// the ones whose carries are hardest: limbs all ones, a top limb of 1 (R far above n), and a
/// top bit set (sums past R), at the sizes RSA uses and at odd limb counts.
@Suite struct MontgomeryTests {
    static let moduli: [[UInt64]] = [
        [UInt64](repeating: .max, count: 5),
        [.max - 2, 0, 0, 1],
        [0x1234_5678_9ABC_DEF1, .max, 0x8000_0000_0000_0000],
        [3],
        (0..<32).map { 0x9E37_79B9_7F4A_7C15 &* UInt64($0 + 1) | 1 } + [],
        [UInt64](repeating: .max, count: 31) + [0x8000_0000_0000_0001],
    ]

    @Test(arguments: moduli)
    func powersAreTheReferenceOnes(modulus: [UInt64]) throws {
        let arithmetic = try #require(Montgomery(modulus: modulus))
        var generator = SplitMix(seed: UInt64(modulus.count))
        for base in Self.edgeValues(below: modulus) + (0..<3).map({ _ in Self.random(below: modulus, &generator) }) {
            for exponent: UInt64 in [0, 1, 2, 3, 65537] {
                #expect(arithmetic.power(base, exponent) == Self.power(base, exponent, modulus), "\(base)^\(exponent)")
            }
        }
    }

    @Test(arguments: moduli)
    func productsAndSecretPowersAreTheReferenceOnes(modulus: [UInt64]) throws {
        let arithmetic = try #require(Montgomery(modulus: modulus))
        var generator = SplitMix(seed: 7 &* UInt64(modulus.count))
        let values = Self.edgeValues(below: modulus) + (0..<3).map { _ in Self.random(below: modulus, &generator) }
        for a in values {
            for b in values { #expect(arithmetic.product(a, b) == Self.reduced(Montgomery.wideProduct(a, b), modulus)) }
        }
        // Two limbs where the modulus has them (a ladder takes as many as the modulus).
        let exponent: [UInt64] = Array([0xDEAD_BEEF_0BAD_F00D, 0x1].prefix(modulus.count))
        for base in values.prefix(4) {
            // base^(2⁶⁴ + low) = (base^(2⁶⁴))·base^low; the squarings are products checked above.
            var reference = Self.power(base, exponent[0], modulus)
            if exponent.count == 2 {
                var high = base
                for _ in 0..<64 { high = arithmetic.product(high, high) }
                reference = arithmetic.product(high, reference)
            }
            #expect(arithmetic.secretPower(base, exponentLimbs: exponent) == reference)
            #expect(arithmetic.power(base, exponentLimbs: exponent) == reference)
        }
    }

    /// 0, 1, 2, n − 1, n − 2 and n with its low limb halved: the ends where carries and the
    /// final subtraction are decided.
    static func edgeValues(below modulus: [UInt64]) -> [[UInt64]] {
        var last = modulus, secondLast = modulus, half = modulus
        last[0] -= 1
        secondLast[0] -= 2
        half[0] >>= 1
        let small: [[UInt64]] = [[0], [1], [2]].map { Montgomery.padded($0, to: modulus.count) }
        return (small + [last, secondLast, half]).filter { Montgomery.less($0, modulus) }
    }

    static func random(below modulus: [UInt64], _ generator: inout SplitMix) -> [UInt64] {
        var value = modulus.map { _ in generator.next() }
        value[value.count - 1] %= modulus[modulus.count - 1]
        return value
    }

    /// base^exponent mod n by square-and-multiply on full products.
    static func power(_ base: [UInt64], _ exponent: UInt64, _ modulus: [UInt64]) -> [UInt64] {
        var result = reduced([1], modulus), square = reduced(base, modulus), exponent = exponent
        while exponent > 0 {
            if exponent & 1 == 1 { result = reduced(Montgomery.wideProduct(result, square), modulus) }
            square = reduced(Montgomery.wideProduct(square, square), modulus)
            exponent >>= 1
        }
        return result
    }

    /// value mod n: from the top bit down, the remainder doubled, the bit added, n taken off.
    static func reduced(_ value: [UInt64], _ modulus: [UInt64]) -> [UInt64] {
        var remainder = [UInt64](repeating: 0, count: modulus.count + 1)
        let widened = modulus + [0]
        for bit in stride(from: 64 * value.count - 1, through: 0, by: -1) {
            var carry = value[bit / 64] >> UInt64(bit % 64) & 1
            for i in remainder.indices {
                let next = remainder[i] >> 63
                remainder[i] = remainder[i] << 1 | carry
                carry = next
            }
            if !Montgomery.less(remainder, widened) {
                var borrow: UInt64 = 0
                for i in remainder.indices {
                    let (difference, first) = remainder[i].subtractingReportingOverflow(widened[i])
                    let (final, second) = difference.subtractingReportingOverflow(borrow)
                    remainder[i] = final
                    borrow = first || second ? 1 : 0
                }
            }
        }
        return Array(remainder.prefix(modulus.count))
    }
}
