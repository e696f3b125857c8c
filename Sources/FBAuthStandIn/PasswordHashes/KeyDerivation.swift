/// PBKDF2 (RFC 8018, 5.2) with HMAC over `digest`: the PBKDF_SHA1 and PBKDF2_SHA256 hashes,
/// and the first and last steps of scrypt.
enum PBKDF2 {
    static func derive(_ digest: PasswordDigest, password: [UInt8], salt: [UInt8], iterations: Int, length: Int) -> [UInt8] {
        let key = HMACKey(password, digest)
        var output: [UInt8] = []
        output.reserveCapacity(length)
        var block: UInt32 = 1
        while output.count < length {
            var u = key.authenticate(salt + [UInt8(block >> 24), UInt8(truncatingIfNeeded: block >> 16), UInt8(truncatingIfNeeded: block >> 8), UInt8(truncatingIfNeeded: block)])
            var t = u
            for _ in 1..<max(iterations, 1) {
                u = key.authenticate(u)
                for index in t.indices { t[index] ^= u[index] }
            }
            output += t.prefix(length - output.count)
            block += 1
        }
        return output
    }
}

/// scrypt (RFC 7914): STANDARD_SCRYPT, and the key under Firebase's own modified scrypt.
/// The caller bounds `n`, `r` and `p` first (`PasswordHashConfig`): the memory is 128·r·n bytes.
enum Scrypt {
    static func derive(password: [UInt8], salt: [UInt8], n: Int, r: Int, p: Int, length: Int) -> [UInt8] {
        let blockBytes = 128 * r
        var b = PBKDF2.derive(.sha256, password: password, salt: salt, iterations: 1, length: p * blockBytes)
        let words = 32 * r
        var x = [UInt32](repeating: 0, count: words)
        var v = [UInt32](repeating: 0, count: words * n)
        var scratch = [UInt32](repeating: 0, count: words)
        for lane in 0..<p {
            let start = lane * blockBytes
            for i in 0..<words {
                let j = start + 4 * i
                x[i] = UInt32(b[j]) | UInt32(b[j + 1]) << 8 | UInt32(b[j + 2]) << 16 | UInt32(b[j + 3]) << 24
            }
            x.withUnsafeMutableBufferPointer { x in
                v.withUnsafeMutableBufferPointer { v in
                    scratch.withUnsafeMutableBufferPointer { scratch in
                        romix(x, v, scratch, r: r, n: n)
                    }
                }
            }
            for i in 0..<words {
                for byte in 0..<4 { b[start + 4 * i + byte] = UInt8(truncatingIfNeeded: x[i] >> UInt32(8 * byte)) }
            }
        }
        return PBKDF2.derive(.sha256, password: password, salt: b, iterations: 1, length: length)
    }

    private static func romix(_ x: UnsafeMutableBufferPointer<UInt32>, _ v: UnsafeMutableBufferPointer<UInt32>,
                              _ scratch: UnsafeMutableBufferPointer<UInt32>, r: Int, n: Int) {
        let words = 32 * r
        for i in 0..<n {
            _ = UnsafeMutableBufferPointer(rebasing: v[(i * words)..<((i + 1) * words)]).update(fromContentsOf: x)
            blockMix(x, scratch, r: r)
        }
        for _ in 0..<n {
            let j = Int(x[(2 * r - 1) * 16]) & (n - 1)
            let base = j * words
            for k in 0..<words { x[k] ^= v[base + k] }
            blockMix(x, scratch, r: r)
        }
    }

    /// BlockMix with Salsa20/8: the even blocks first, then the odd ones.
    private static func blockMix(_ b: UnsafeMutableBufferPointer<UInt32>, _ y: UnsafeMutableBufferPointer<UInt32>, r: Int) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { t in
            for k in 0..<16 { t[k] = b[(2 * r - 1) * 16 + k] }
            for i in 0..<(2 * r) {
                for k in 0..<16 { t[k] ^= b[i * 16 + k] }
                salsa20_8(t)
                let place = (i % 2 == 0 ? i / 2 : r + i / 2) * 16
                for k in 0..<16 { y[place + k] = t[k] }
            }
        }
        _ = b.update(fromContentsOf: y)
    }

    private static func salsa20_8(_ block: UnsafeMutableBufferPointer<UInt32>) {
        var x = (block[0], block[1], block[2], block[3], block[4], block[5], block[6], block[7],
                 block[8], block[9], block[10], block[11], block[12], block[13], block[14], block[15])
        @inline(__always) func r(_ a: UInt32, _ s: UInt32) -> UInt32 { a << s | a >> (32 - s) }
        for _ in 0..<4 {
            x.4 ^= r(x.0 &+ x.12, 7); x.8 ^= r(x.4 &+ x.0, 9); x.12 ^= r(x.8 &+ x.4, 13); x.0 ^= r(x.12 &+ x.8, 18)
            x.9 ^= r(x.5 &+ x.1, 7); x.13 ^= r(x.9 &+ x.5, 9); x.1 ^= r(x.13 &+ x.9, 13); x.5 ^= r(x.1 &+ x.13, 18)
            x.14 ^= r(x.10 &+ x.6, 7); x.2 ^= r(x.14 &+ x.10, 9); x.6 ^= r(x.2 &+ x.14, 13); x.10 ^= r(x.6 &+ x.2, 18)
            x.3 ^= r(x.15 &+ x.11, 7); x.7 ^= r(x.3 &+ x.15, 9); x.11 ^= r(x.7 &+ x.3, 13); x.15 ^= r(x.11 &+ x.7, 18)
            x.1 ^= r(x.0 &+ x.3, 7); x.2 ^= r(x.1 &+ x.0, 9); x.3 ^= r(x.2 &+ x.1, 13); x.0 ^= r(x.3 &+ x.2, 18)
            x.6 ^= r(x.5 &+ x.4, 7); x.7 ^= r(x.6 &+ x.5, 9); x.4 ^= r(x.7 &+ x.6, 13); x.5 ^= r(x.4 &+ x.7, 18)
            x.11 ^= r(x.10 &+ x.9, 7); x.8 ^= r(x.11 &+ x.10, 9); x.9 ^= r(x.8 &+ x.11, 13); x.10 ^= r(x.9 &+ x.8, 18)
            x.12 ^= r(x.15 &+ x.14, 7); x.13 ^= r(x.12 &+ x.15, 9); x.14 ^= r(x.13 &+ x.12, 13); x.15 ^= r(x.14 &+ x.13, 18)
        }
        block[0] &+= x.0; block[1] &+= x.1; block[2] &+= x.2; block[3] &+= x.3
        block[4] &+= x.4; block[5] &+= x.5; block[6] &+= x.6; block[7] &+= x.7
        block[8] &+= x.8; block[9] &+= x.9; block[10] &+= x.10; block[11] &+= x.11
        block[12] &+= x.12; block[13] &+= x.13; block[14] &+= x.14; block[15] &+= x.15
    }
}
