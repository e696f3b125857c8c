import FBAuthSupport

/// A hash that imported passwords were made with, and HMAC (RFC 2104) over it.
struct PasswordDigest: Sendable {
    /// The block HMAC pads its key to: 64 bytes, 128 for SHA-512.
    let blockSize: Int
    let hash: @Sendable ([UInt8]) -> [UInt8]

    static let md5 = PasswordDigest(blockSize: 64, hash: MD5.hash)
    static let sha1 = PasswordDigest(blockSize: 64, hash: SHA1.hash)
    static let sha256 = PasswordDigest(blockSize: 64, hash: SHA256.hash)
    static let sha512 = PasswordDigest(blockSize: 128, hash: SHA512.hash)

    func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] { HMACKey(key, self).authenticate(message) }
}

/// An HMAC key padded and masked once, for PBKDF2's many uses of the same key.
struct HMACKey {
    private let inner: [UInt8], outer: [UInt8], digest: PasswordDigest

    init(_ key: [UInt8], _ digest: PasswordDigest) {
        var block = key.count > digest.blockSize ? digest.hash(key) : key
        block += [UInt8](repeating: 0, count: digest.blockSize - block.count)
        inner = block.map { $0 ^ 0x36 }
        outer = block.map { $0 ^ 0x5c }
        self.digest = digest
    }

    func authenticate(_ message: [UInt8]) -> [UInt8] { digest.hash(outer + digest.hash(inner + message)) }
}

/// MD5 (RFC 1321), for the MD5 and HMAC_MD5 hashes of other systems' passwords.
enum MD5 {
    private static let shifts: [UInt32] = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21]

    static func hash(_ message: [UInt8]) -> [UInt8] {
        var padded = message + [0x80]
        while padded.count % 64 != 56 { padded.append(0) }
        let length = UInt64(message.count) &* 8
        for byte in 0..<8 { padded.append(UInt8(truncatingIfNeeded: length >> UInt64(8 * byte))) }
        var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476)
        let sines = HashConstants.md5Sines
        var w = [UInt32](repeating: 0, count: 16)
        for chunk in stride(from: 0, to: padded.count, by: 64) {
            for i in 0..<16 {
                let j = chunk + 4 * i
                w[i] = UInt32(padded[j]) | UInt32(padded[j + 1]) << 8 | UInt32(padded[j + 2]) << 16 | UInt32(padded[j + 3]) << 24
            }
            var (a, b, c, d) = state
            for i in 0..<64 {
                let (f, g): (UInt32, Int) = switch i / 16 {
                case 0: ((b & c) | (~b & d), i)
                case 1: ((d & b) | (~d & c), (5 * i + 1) % 16)
                case 2: (b ^ c ^ d, (3 * i + 5) % 16)
                default: (c ^ (b | ~d), (7 * i) % 16)
                }
                let s = shifts[(i / 16) * 4 + i % 4]
                let sum = a &+ f &+ sines[i] &+ w[g]
                (a, d, c) = (d, c, b)
                b = b &+ (sum << s | sum >> (32 - s))
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
        }
        return [state.0, state.1, state.2, state.3].flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(8 * $0)) } }
    }
}

/// SHA-512 (FIPS 180-4), for the SHA512, HMAC_SHA512 hashes of other systems' passwords.
enum SHA512 {
    static func hash(_ message: [UInt8]) -> [UInt8] {
        var padded = message + [0x80]
        while padded.count % 128 != 112 { padded.append(0) }
        padded += [UInt8](repeating: 0, count: 8)  // the length's upper 64 bits
        let length = UInt64(message.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) { padded.append(UInt8(truncatingIfNeeded: length >> UInt64(shift))) }
        var h = HashConstants.sha512Initial
        let k = HashConstants.sha512Rounds
        var w = [UInt64](repeating: 0, count: 80)
        for chunk in stride(from: 0, to: padded.count, by: 128) {
            for i in 0..<16 {
                var word: UInt64 = 0
                for byte in 0..<8 { word = word << 8 | UInt64(padded[chunk + 8 * i + byte]) }
                w[i] = word
            }
            for i in 16..<80 {
                let s0 = rotate(w[i - 15], 1) ^ rotate(w[i - 15], 8) ^ (w[i - 15] >> 7)
                let s1 = rotate(w[i - 2], 19) ^ rotate(w[i - 2], 61) ^ (w[i - 2] >> 6)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
            for i in 0..<80 {
                let t1 = hh &+ (rotate(e, 14) ^ rotate(e, 18) ^ rotate(e, 41)) &+ ((e & f) ^ (~e & g)) &+ k[i] &+ w[i]
                let t2 = (rotate(a, 28) ^ rotate(a, 34) ^ rotate(a, 39)) &+ ((a & b) ^ (a & c) ^ (b & c))
                (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            for (index, value) in [a, b, c, d, e, f, g, hh].enumerated() { h[index] = h[index] &+ value }
        }
        return h.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * $0)) } }
    }

    private static func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 { (value >> count) | (value << (64 - count)) }
}
