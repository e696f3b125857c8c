/// bcrypt (Provos and Mazières 1999, as OpenBSD's `bcrypt.c` defines `$2a$`, `$2b$` and `$2y$`):
/// the BCRYPT hashes of other systems' passwords, which carry their cost and salt.
enum Bcrypt {
    /// A hash's parts: `$2b$10$` + 22 characters of salt + 31 of hash.
    struct Parsed: Equatable {
        let version: String
        let cost: Int
        let salt: [UInt8]
        let hash: [UInt8]
    }

    static func parse(_ text: String) -> Parsed? {
        let parts = text.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].isEmpty, ["2a", "2b", "2y"].contains(parts[1]),
              parts[2].count == 2, let cost = Int(parts[2]), parts[3].count == 53,
              let salt = radix64(parts[3].prefix(22), bytes: 16), let hash = radix64(parts[3].suffix(31), bytes: 23)
        else { return nil }
        return Parsed(version: String(parts[1]), cost: cost, salt: salt, hash: hash)
    }

    /// The 23 bytes bcrypt keeps of its ciphertext, for `password` with this cost and salt.
    static func hash(password: [UInt8], cost: Int, salt: [UInt8]) -> [UInt8] {
        // The key is the password and its NUL, at most 72 bytes.
        let key = Array((password + [0]).prefix(72))
        var state = Blowfish()
        state.expand(key: key, salt: salt)
        for _ in 0..<(1 << cost) {
            state.expand(key: key, salt: nil)
            state.expand(key: salt, salt: nil)
        }
        var text: [UInt32] = [0x4f72_7068, 0x6561_6e42, 0x6568_6f6c, 0x6465_7253, 0x6372_7944, 0x6f75_6274]  // "OrpheanBeholderScryDoubt"
        for _ in 0..<64 {
            for block in stride(from: 0, to: 6, by: 2) { (text[block], text[block + 1]) = state.encrypt(text[block], text[block + 1]) }
        }
        return Array(text.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) } }.prefix(23))
    }

    private static let alphabet = Array("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// bcrypt's own base 64 (its alphabet, no padding), `bytes` of it.
    private static func radix64(_ text: Substring, bytes: Int) -> [UInt8]? {
        var values: [UInt32] = []
        for character in text.utf8 {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            values.append(UInt32(value))
        }
        var output: [UInt8] = [], buffer: UInt32 = 0, bits = 0
        for value in values {
            buffer = buffer << 6 | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return output.count >= bytes ? Array(output.prefix(bytes)) : nil
    }
}

/// Blowfish's state, from pi's digits, with bcrypt's expensive key schedule.
private struct Blowfish {
    var p = HashConstants.blowfishP
    var s = HashConstants.blowfishS

    func encrypt(_ left: UInt32, _ right: UInt32) -> (UInt32, UInt32) {
        var (l, r) = (left, right)
        p.withUnsafeBufferPointer { p in
            s.withUnsafeBufferPointer { s in
                for round in stride(from: 0, to: 16, by: 2) {
                    l ^= p[round]
                    r ^= Self.f(l, s)
                    r ^= p[round + 1]
                    l ^= Self.f(r, s)
                }
            }
        }
        return (r ^ p[17], l ^ p[16])
    }

    @inline(__always) private static func f(_ x: UInt32, _ s: UnsafeBufferPointer<UInt32>) -> UInt32 {
        ((s[Int(x >> 24)] &+ s[256 + Int((x >> 16) & 0xff)]) ^ s[512 + Int((x >> 8) & 0xff)]) &+ s[768 + Int(x & 0xff)]
    }

    /// ExpandKey: the key into the P-array, then the whole state re-encrypted, each block first
    /// mixed with the salt's next 8 bytes when there is a salt.
    mutating func expand(key: [UInt8], salt: [UInt8]?) {
        var keyPosition = 0
        for i in 0..<18 { p[i] ^= Self.word(key, &keyPosition) }
        var saltPosition = 0
        var (l, r): (UInt32, UInt32) = (0, 0)
        for i in stride(from: 0, to: 18, by: 2) {
            if let salt { l ^= Self.word(salt, &saltPosition); r ^= Self.word(salt, &saltPosition) }
            (l, r) = encrypt(l, r)
            (p[i], p[i + 1]) = (l, r)
        }
        for i in stride(from: 0, to: 1024, by: 2) {
            if let salt { l ^= Self.word(salt, &saltPosition); r ^= Self.word(salt, &saltPosition) }
            (l, r) = encrypt(l, r)
            (s[i], s[i + 1]) = (l, r)
        }
    }

    /// The next four bytes of `bytes`, taken cyclically, big-endian.
    private static func word(_ bytes: [UInt8], _ position: inout Int) -> UInt32 {
        var word: UInt32 = 0
        for _ in 0..<4 {
            word = word << 8 | UInt32(bytes[position])
            position = (position + 1) % bytes.count
        }
        return word
    }
}
