/// AES-256 (FIPS 197) in counter mode from a zero counter block, as Firebase's modified scrypt
/// uses it (github.com/firebase/scrypt, `scryptenc.c`: the derived key's first 32 bytes
/// encrypt the project's signer key with a zero nonce). Encryption only, with the S-box as
/// tables; this checks passwords in an emulator, where timing attacks on the key are moot.
enum AES256CTR {
    static func apply(key: [UInt8], to input: [UInt8]) -> [UInt8] {
        precondition(key.count == 32)
        let roundKeys = expand(key)
        var output = input
        var counter = [UInt8](repeating: 0, count: 16)
        for start in stride(from: 0, to: input.count, by: 16) {
            let stream = encryptBlock(counter, roundKeys)
            for index in start..<min(start + 16, input.count) { output[index] ^= stream[index - start] }
            var position = 15
            while position >= 0 {
                counter[position] &+= 1
                if counter[position] != 0 { break }
                position -= 1
            }
        }
        return output
    }

    /// The 15 round keys, 240 bytes.
    private static func expand(_ key: [UInt8]) -> [UInt8] {
        let sbox = HashConstants.aesSBox
        var words = key
        var rcon: UInt8 = 1
        while words.count < 240 {
            var t = Array(words[(words.count - 4)...])
            let wordIndex = words.count / 4
            if wordIndex % 8 == 0 {
                t = [sbox[Int(t[1])] ^ rcon, sbox[Int(t[2])], sbox[Int(t[3])], sbox[Int(t[0])]]
                rcon = xtime(rcon)
            } else if wordIndex % 8 == 4 {
                t = t.map { sbox[Int($0)] }
            }
            for i in 0..<4 { words.append(words[words.count - 32] ^ t[i]) }
        }
        return words
    }

    private static func encryptBlock(_ block: [UInt8], _ roundKeys: [UInt8]) -> [UInt8] {
        let sbox = HashConstants.aesSBox
        var state = zip(block, roundKeys[0..<16]).map { $0 ^ $1 }
        for round in 1...14 {
            // SubBytes and ShiftRows: state is column-major, byte (row r, column c) at 4c + r.
            var shifted = [UInt8](repeating: 0, count: 16)
            for column in 0..<4 {
                for row in 0..<4 { shifted[4 * column + row] = sbox[Int(state[4 * ((column + row) % 4) + row])] }
            }
            if round < 14 {
                for column in 0..<4 {
                    let a = Array(shifted[(4 * column)..<(4 * column + 4)])
                    let all = a[0] ^ a[1] ^ a[2] ^ a[3]
                    for row in 0..<4 { shifted[4 * column + row] = a[row] ^ all ^ xtime(a[row] ^ a[(row + 1) % 4]) }
                }
            }
            state = zip(shifted, roundKeys[(16 * round)..<(16 * round + 16)]).map { $0 ^ $1 }
        }
        return state
    }

    private static func xtime(_ value: UInt8) -> UInt8 { value << 1 ^ (value & 0x80 != 0 ? 0x1b : 0) }
}
