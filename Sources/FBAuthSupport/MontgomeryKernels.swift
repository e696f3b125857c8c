/// The inner loops of `Montgomery`, on raw memory that an exponentiation makes once (thousands
/// of these a signature; arrays' checks and copies would be most of their time).
///
/// Finely integrated product scanning (Koç, Acar and Kaliski 1996, "FIPS"): the result is built
/// a column at a time, each column's products summed in three registers, so the inner loops
/// neither load nor store a partial result. A squaring computes each cross product a[i]·a[j]
/// once and doubles the column: about three quarters of a multiplication's work, and an
/// exponent of 65537 is sixteen squarings to one multiplication.
///
/// No branch or address depends on the operands' values (only on the limb count), and the final
/// subtraction is masked: `secretPower` runs these with a private exponent.
extension Montgomery {
    /// a·b·R⁻¹ mod n, for a, b < n. `out` may be `a` or `b`: column k is written after every
    /// later column has read its last limb k. `m` is `count` limbs of scratch.
    func multiply(_ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>, into out: UnsafeMutablePointer<UInt64>,
                  scratch m: UnsafeMutablePointer<UInt64>, modulus n: UnsafePointer<UInt64>) {
        let count = modulus.count
        var sum = Column()
        for k in 0..<count {
            sum.add(a, b, column: k, from: 0, to: k &+ 1)
            sum.add(m, n, column: k, from: 0, to: k)
            m[k] = reductionLimb(&sum, modulus: n)
        }
        for k in count..<(2 &* count &- 1) {
            sum.add(a, b, column: k, from: k &- count &+ 1, to: count)
            sum.add(m, n, column: k, from: k &- count &+ 1, to: count)
            out[k &- count] = sum.shifted()
        }
        out[count &- 1] = sum.shifted()
        Self.subtractModulusIfOver(out, top: sum.low, modulus: n, count: count)
    }

    /// a·a·R⁻¹ mod n, for a < n; `out` may be `a`.
    func square(_ a: UnsafePointer<UInt64>, into out: UnsafeMutablePointer<UInt64>,
                scratch m: UnsafeMutablePointer<UInt64>, modulus n: UnsafePointer<UInt64>) {
        let count = modulus.count
        var sum = Column()
        for k in 0..<count {
            sum.addSquare(a, column: k, from: 0)
            sum.add(m, n, column: k, from: 0, to: k)
            m[k] = reductionLimb(&sum, modulus: n)
        }
        for k in count..<(2 &* count &- 1) {
            sum.addSquare(a, column: k, from: k &- count &+ 1)
            sum.add(m, n, column: k, from: k &- count &+ 1, to: count)
            out[k &- count] = sum.shifted()
        }
        out[count &- 1] = sum.shifted()
        Self.subtractModulusIfOver(out, top: sum.low, modulus: n, count: count)
    }

    /// The multiple of n's lowest limb that clears the column's low limb, added, and the
    /// column moved on; the multiple is kept for the later columns.
    @inline(__always)
    private func reductionLimb(_ sum: inout Column, modulus n: UnsafePointer<UInt64>) -> UInt64 {
        let limb = sum.low &* inverse
        sum.add(limb, n[0])
        _ = sum.shifted()
        return limb
    }

    /// value − n where value (with its top bit) is at least n, else value, by a mask: the same
    /// steps either way. The borrows are bit arithmetic, not flags a compiler may branch on.
    @inline(__always)
    static func subtractModulusIfOver(_ value: UnsafeMutablePointer<UInt64>, top: UInt64, modulus n: UnsafePointer<UInt64>, count: Int) {
        var borrow: UInt64 = 0
        for i in 0..<count { borrow = borrowOut(value[i], n[i], borrow) }
        let keep = 0 &- ((top | (borrow ^ 1)) & 1)
        borrow = 0
        for i in 0..<count {
            let subtrahend = n[i] & keep
            let difference = value[i] &- subtrahend &- borrow
            borrow = borrowOut(value[i], subtrahend, borrow)
            value[i] = difference
        }
    }

    /// The borrow out of x − y − borrow (Hacker's Delight 2-13).
    @inline(__always)
    private static func borrowOut(_ x: UInt64, _ y: UInt64, _ borrow: UInt64) -> UInt64 {
        let difference = x &- y &- borrow
        return ((~x & y) | (~(x ^ y) & difference)) >> 63
    }
}

/// One column's sum of 128-bit products, in three limbs.
struct Column {
    var low: UInt64 = 0, middle: UInt64 = 0, high: UInt64 = 0

    /// self += x·y.
    @inline(__always)
    mutating func add(_ x: UInt64, _ y: UInt64) {
        let (productHigh, productLow) = x.multipliedFullWidth(by: y)
        let (newLow, lowCarry) = low.addingReportingOverflow(productLow)
        // productHigh ≤ 2⁶⁴ − 2, so adding the carry to it cannot overflow.
        let (newMiddle, middleCarry) = middle.addingReportingOverflow(productHigh &+ (lowCarry ? 1 : 0))
        low = newLow
        middle = newMiddle
        high &+= middleCarry ? 1 : 0
    }

    /// self += Σ x[j]·y[k − j] for j in start..<end.
    @inline(__always)
    mutating func add(_ x: UnsafePointer<UInt64>, _ y: UnsafePointer<UInt64>, column k: Int, from start: Int, to end: Int) {
        var j = start
        while j < end {
            add(x[j], y[k &- j])
            j &+= 1
        }
    }

    /// self += column k of a²: each cross product a[j]·a[k − j] (j < k − j) once, doubled, and
    /// a[k/2]² when k is even.
    @inline(__always)
    mutating func addSquare(_ a: UnsafePointer<UInt64>, column k: Int, from start: Int) {
        var cross = Column()
        cross.add(a, a, column: k, from: start, to: (k &+ 1) >> 1)
        let (newLow, lowCarry) = low.addingReportingOverflow(cross.low << 1)
        let (partial, partialCarry) = middle.addingReportingOverflow(cross.middle << 1 | cross.low >> 63)
        let (newMiddle, middleCarry) = partial.addingReportingOverflow(lowCarry ? 1 : 0)
        low = newLow
        middle = newMiddle
        high = high &+ (cross.high << 1 | cross.middle >> 63) &+ (partialCarry ? 1 : 0) &+ (middleCarry ? 1 : 0)
        if k & 1 == 0 { add(a[k >> 1], a[k >> 1]) }
    }

    /// The low limb, and the sum moved down a limb.
    @inline(__always)
    mutating func shifted() -> UInt64 {
        let out = low
        low = middle
        middle = high
        high = 0
        return out
    }
}
