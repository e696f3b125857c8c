/// Modular exponentiation for RSA: numbers as little-endian 64-bit limbs, multiplied in
/// Montgomery form (Koç, Acar and Kaliski, "Analyzing and comparing Montgomery multiplication
/// algorithms", 1996: FIPS, in MontgomeryKernels.swift). Two ways: `power`, square-and-multiply in windows, for public
/// exponents (verifying a signature; the stand-in's signing key, public on purpose, with the
/// Chinese remainder theorem), and `secretPower`, a
/// ladder whose exponent bits only mask a swap, for a private key (a service account's, signing
/// the assertion of `--check-revoked`). The final reduction of every multiplication is masked,
/// not branched, in both.
package struct Montgomery: Sendable {
    /// The modulus, odd, least significant limb first.
    package let modulus: [UInt64]
    /// -modulus⁻¹ mod 2⁶⁴.
    let inverse: UInt64
    /// R² mod modulus, R = 2^(64·limbs): what takes a number into Montgomery form.
    private var rSquared: [UInt64]

    /// Nil for an even modulus (RSA moduli are odd) or one with no limbs.
    package init?(modulus: [UInt64]) {
        let modulus = Self.trimmed(modulus)
        guard let low = modulus.first, low & 1 == 1 else { return nil }
        self.modulus = modulus
        // Newton's iteration doubles the correct low bits each step: 1 → 64 in six.
        var inverse: UInt64 = 1
        for _ in 0..<6 { inverse = inverse &* (2 &- low &* inverse) }
        self.inverse = 0 &- inverse
        rSquared = []
        // R² mod n is R in Montgomery form: 2 in that form (R mod n, doubled) raised to the
        // power 64·limbs there (a dozen multiplications), rather than 1 doubled 128·limbs times.
        var one = [UInt64](repeating: 0, count: modulus.count)
        if modulus.last! >> 63 == 1 {
            // R − n < n: the two's complement of n.
            var carry: UInt64 = 1
            for i in one.indices { (one[i], carry) = Self.add(~modulus[i], carry) }
        } else {
            one[0] = 1
            for _ in 0..<(64 * modulus.count) { one = Self.doubled(one, modulo: modulus) }
        }
        let two = Self.doubled(one, modulo: modulus)
        let exponent = 64 * modulus.count
        var result = two
        for bit in stride(from: Int.bitWidth - exponent.leadingZeroBitCount - 2, through: 0, by: -1) {
            result = multiply(result, result)
            if exponent >> bit & 1 == 1 { result = multiply(result, two) }
        }
        rSquared = result
    }

    /// base^exponent mod modulus, for base < modulus: square-and-multiply a bit at a time, as
    /// a public exponent wants (65537: sixteen squarings and one multiplication). An odd
    /// exponent's last multiplication is by the base itself rather than its Montgomery form,
    /// which leaves the result out of that form without a multiplication by 1.
    package func power(_ base: [UInt64], _ exponent: UInt64) -> [UInt64] {
        let count = modulus.count
        let base = Self.padded(base, to: count)
        guard exponent > 1 else { return exponent == 1 ? base : Self.padded([1], to: count) }
        var result = [UInt64](repeating: 0, count: count)
        withWorkspace(limbs: 2 * count) { n, r2, work in
            let (baseInForm, scratch) = (work, work + count)
            result.withUnsafeMutableBufferPointer { result in
                base.withUnsafeBufferPointer { base in
                    let (result, base) = (result.baseAddress!, base.baseAddress!)
                    multiply(base, r2, into: baseInForm, scratch: scratch, modulus: n)
                    result.update(from: baseInForm, count: count)
                    for bit in stride(from: 62 - exponent.leadingZeroBitCount, through: 0, by: -1) {
                        square(result, into: result, scratch: scratch, modulus: n)
                        if exponent >> UInt64(bit) & 1 == 1 {
                            multiply(result, bit == 0 ? base : UnsafePointer(baseInForm), into: result, scratch: scratch, modulus: n)
                        }
                    }
                    if exponent & 1 == 0 { leaveForm(result, scratch: scratch, modulus: n) }
                }
            }
        }
        return result
    }

    /// The same with an exponent of any size (little-endian limbs): a private exponent whose
    /// key is public on purpose (the stand-in's), taken in 4-bit windows.
    package func power(_ base: [UInt64], exponentLimbs exponent: [UInt64]) -> [UInt64] {
        let exponent = Self.trimmed(exponent)
        guard exponent.count > 1 else { return power(base, exponent.first ?? 0) }
        let count = modulus.count
        let bits = 64 * exponent.count - exponent.last!.leadingZeroBitCount
        let width = 4
        func window(_ index: Int) -> Int {
            // Bits [index·width, index·width + width) of the exponent.
            var value = 0
            for bit in stride(from: index * width + width - 1, through: index * width, by: -1) {
                value = value << 1 | (bit < bits ? Int(exponent[bit / 64] >> UInt64(bit % 64) & 1) : 0)
            }
            return value
        }
        var result = [UInt64](repeating: 0, count: count)
        let base = Self.padded(base, to: count)
        withWorkspace(limbs: (count << width) + count) { n, r2, work in
            let (table, scratch) = (work, work + (count << width))
            result.withUnsafeMutableBufferPointer { result in
                let result = result.baseAddress!
                // table[i] = base^i in Montgomery form (table[0], R mod n, is never used).
                base.withUnsafeBufferPointer { multiply($0.baseAddress!, r2, into: table + count, scratch: scratch, modulus: n) }
                for i in stride(from: 2, to: 1 << width, by: 1) {
                    multiply(table + (i - 1) * count, table + count, into: table + i * count, scratch: scratch, modulus: n)
                }
                let windows = (bits + width - 1) / width
                result.update(from: table + window(windows - 1) * count, count: count)
                for index in stride(from: windows - 2, through: 0, by: -1) {
                    for _ in 0..<width { square(result, into: result, scratch: scratch, modulus: n) }
                    let value = window(index)
                    if value != 0 { multiply(result, table + value * count, into: result, scratch: scratch, modulus: n) }
                }
                leaveForm(result, scratch: scratch, modulus: n)
            }
        }
        return result
    }

    /// value·R⁻¹: out of Montgomery form, by a multiplication by 1.
    private func leaveForm(_ value: UnsafeMutablePointer<UInt64>, scratch: UnsafeMutablePointer<UInt64>, modulus n: UnsafePointer<UInt64>) {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: modulus.count) { one in
            let one = one.baseAddress!
            one.initialize(repeating: 0, count: modulus.count)
            one[0] = 1
            multiply(value, one, into: value, scratch: scratch, modulus: n)
        }
    }

    /// Runs `body` with the modulus, R² and `limbs` zeroed limbs of working memory, all raw.
    private func withWorkspace(limbs: Int, _ body: (UnsafePointer<UInt64>, UnsafePointer<UInt64>, UnsafeMutablePointer<UInt64>) -> Void) {
        modulus.withUnsafeBufferPointer { n in
            rSquared.withUnsafeBufferPointer { r2 in
                withUnsafeTemporaryAllocation(of: UInt64.self, capacity: limbs) { work in
                    let work = work.baseAddress!
                    work.initialize(repeating: 0, count: limbs)
                    body(n.baseAddress!, r2.baseAddress!, work)
                }
            }
        }
    }

    /// value mod modulus, for value < R² (twice the modulus's limbs): its high half times R
    /// plus its low half, each reduced by a Montgomery multiplication.
    package func residue(of value: [UInt64]) -> [UInt64] {
        let count = modulus.count
        let value = Self.padded(value, to: 2 * count)
        let high = multiply(Array(value[count...]), rSquared)
        let low = multiply(multiply(Array(value[..<count]), rSquared), Self.padded([1], to: count))
        return sum(high, low)
    }

    /// a·b mod modulus, for a, b < modulus.
    package func product(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        multiply(multiply(Self.padded(a, to: modulus.count), Self.padded(b, to: modulus.count)), rSquared)
    }

    /// (a + b) mod modulus, for a, b < modulus.
    package func sum(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        let (total, carry) = Self.add(Self.padded(a, to: modulus.count), Self.padded(b, to: modulus.count))
        return carry == 1 || !Self.less(total, modulus) ? Self.subtracting(modulus, from: total) : total
    }

    /// (a − b) mod modulus, for a, b < modulus.
    package func difference(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        let a = Self.padded(a, to: modulus.count), b = Self.padded(b, to: modulus.count)
        return Self.less(a, b) ? Self.subtracting(b, from: Self.add(a, modulus).sum) : Self.subtracting(b, from: a)
    }

    /// a·b in full, no modulus: as many limbs as both together.
    package static func wideProduct(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var result = [UInt64](repeating: 0, count: a.count + b.count)
        for i in a.indices {
            var carry: UInt64 = 0
            for j in b.indices { (carry, result[i + j]) = multiplyAdd(a[i], b[j], result[i + j], carry) }
            result[i + b.count] = carry
        }
        return result
    }

    /// a + b over `a.count` limbs, and the carry out of the top.
    package static func add(_ a: [UInt64], _ b: [UInt64]) -> (sum: [UInt64], carry: UInt64) {
        var result = a
        var carry: UInt64 = 0
        for i in result.indices {
            let (first, overflow) = result[i].addingReportingOverflow(i < b.count ? b[i] : 0)
            let (second, again) = first.addingReportingOverflow(carry)
            result[i] = second
            carry = (overflow || again) ? 1 : 0
        }
        return (result, carry)
    }

    /// a·b·R⁻¹ mod modulus, for a, b < modulus.
    private func multiply(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        let count = modulus.count
        var out = [UInt64](repeating: 0, count: count)
        var scratch = [UInt64](repeating: 0, count: count)
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                modulus.withUnsafeBufferPointer { n in
                    out.withUnsafeMutableBufferPointer { out in
                        scratch.withUnsafeMutableBufferPointer { t in
                            multiply(a.baseAddress!, b.baseAddress!, into: out.baseAddress!, scratch: t.baseAddress!, modulus: n.baseAddress!)
                        }
                    }
                }
            }
        }
        return out
    }

    /// base^exponent mod modulus for a secret exponent (a private key's): a Montgomery ladder
    /// over every bit of the modulus's width, two multiplications a bit, whose steps and memory
    /// do not depend on the exponent (its bits only mask a swap).
    package func secretPower(_ base: [UInt64], exponentLimbs exponent: [UInt64]) -> [UInt64] {
        let count = modulus.count
        let one = Self.padded([1], to: count)
        var low = multiply(one, rSquared)
        var high = multiply(Self.padded(base, to: count), rSquared)
        let exponent = Self.padded(exponent, to: count)
        for bit in stride(from: 64 * count - 1, through: 0, by: -1) {
            let mask = 0 &- (exponent[bit / 64] >> UInt64(bit % 64) & 1)
            Self.swap(&low, &high, where: mask)
            high = multiply(low, high)
            low = multiply(low, low)
            Self.swap(&low, &high, where: mask)
        }
        return multiply(low, one)
    }

    /// Exchanges a and b where `mask` is all ones; leaves them where it is zero.
    private static func swap(_ a: inout [UInt64], _ b: inout [UInt64], where mask: UInt64) {
        for i in a.indices {
            let difference = (a[i] ^ b[i]) & mask
            a[i] ^= difference
            b[i] ^= difference
        }
    }

    /// a + b as (sum, carry).
    private static func add(_ a: UInt64, _ b: UInt64) -> (UInt64, UInt64) {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return (sum, overflow ? 1 : 0)
    }

    /// a·b + c + d as (high, low): at most 2¹²⁸ − 1, so it never overflows.
    private static func multiplyAdd(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> (UInt64, UInt64) {
        var (high, low) = a.multipliedFullWidth(by: b)
        var overflow: Bool
        (low, overflow) = low.addingReportingOverflow(c)
        if overflow { high &+= 1 }
        (low, overflow) = low.addingReportingOverflow(d)
        if overflow { high &+= 1 }
        return (high, low)
    }

    /// 2·value mod modulus, for value < modulus.
    private static func doubled(_ value: [UInt64], modulo modulus: [UInt64]) -> [UInt64] {
        var result = value
        var carry: UInt64 = 0
        for i in result.indices {
            let next = result[i] >> 63
            result[i] = result[i] << 1 | carry
            carry = next
        }
        return carry == 1 || !less(result, modulus) ? subtracting(modulus, from: result) : result
    }

    /// Whether a < b, both `b.count` limbs long.
    package static func less(_ a: [UInt64], _ b: [UInt64]) -> Bool {
        for i in stride(from: b.count - 1, through: 0, by: -1) where a[i] != b[i] { return a[i] < b[i] }
        return false
    }

    /// value − modulus, wrapping as the hardware does (the caller knows it is not negative, or
    /// that a carried-out limb makes up for it).
    private static func subtracting(_ modulus: [UInt64], from value: [UInt64]) -> [UInt64] {
        var result = value
        var borrow = false
        for i in result.indices {
            let (difference, first) = result[i].subtractingReportingOverflow(modulus[i])
            let (final, second) = difference.subtractingReportingOverflow(borrow ? 1 : 0)
            result[i] = final
            borrow = first || second
        }
        return result
    }

    /// 1 if value < modulus (value − modulus borrows past the top limb), else 0; every limb is
    /// read whatever they hold.
    private static func borrow(subtracting modulus: [UInt64], from value: [UInt64]) -> UInt64 {
        var borrow: UInt64 = 0
        for i in value.indices {
            let (difference, first) = value[i].subtractingReportingOverflow(modulus[i])
            let (_, second) = difference.subtractingReportingOverflow(borrow)
            borrow = (first ? 1 : 0) | (second ? 1 : 0)
        }
        return borrow
    }

    package static func padded(_ limbs: [UInt64], to count: Int) -> [UInt64] {
        limbs.count >= count ? Array(limbs.prefix(count)) : limbs + [UInt64](repeating: 0, count: count - limbs.count)
    }

    package static func trimmed(_ limbs: [UInt64]) -> [UInt64] {
        var limbs = limbs
        while limbs.last == 0 { limbs.removeLast() }
        return limbs
    }

    /// Big-endian bytes as limbs, least significant first.
    package static func limbs(bigEndian bytes: some Collection<UInt8>) -> [UInt64] {
        let bytes = Array(bytes)
        let count = bytes.count
        var limbs = [UInt64](repeating: 0, count: (count + 7) / 8)
        bytes.withUnsafeBufferPointer { bytes in
            limbs.withUnsafeMutableBufferPointer { limbs in
                for index in 0..<count { limbs[index >> 3] |= UInt64(bytes[count - 1 - index]) << UInt64((index & 7) << 3) }
            }
        }
        return limbs
    }

    /// Limbs as `count` big-endian bytes (the value must fit).
    package static func bigEndian(_ limbs: [UInt64], count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { bytes, initialized in
            for index in 0..<count {
                let position = count - 1 - index
                let limb = position >> 3
                bytes[index] = limb < limbs.count ? UInt8(truncatingIfNeeded: limbs[limb] >> UInt64((position & 7) << 3)) : 0
            }
            initialized = count
        }
    }
}
