#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport

/// Time-based one-time passwords (RFC 6238) over HMAC-SHA1 (RFC 2104, RFC 3174), with secrets in
/// base32 (RFC 4648), as authenticator apps and Firebase's TOTP second factor use them
/// (`hashingAlgorithm` SHA1, 6 digits, 30-second periods). The stand-in verifies codes with it;
/// tests and `fbauth demo` compute them with it, as an authenticator app would. The toolchain
/// on Linux has no CryptoKit, hence SHA-1 here.
package enum TOTP {
    /// The code for `secret` (base32) at `date`; nil when the secret is not base32.
    package static func code(secret: String, at date: Date, digits: Int = 6, period: Int = 30) -> String? {
        guard let key = Base32.decode(secret) else { return nil }
        let counter = UInt64(max(0, date.timeIntervalSince1970) / Double(period))
        return code(key: key, counter: counter, digits: digits)
    }

    /// RFC 4226 HOTP: the dynamic truncation of HMAC-SHA1(key, counter).
    static func code(key: [UInt8], counter: UInt64, digits: Int) -> String {
        let message = (0..<8).map { UInt8(truncatingIfNeeded: counter >> (56 - 8 * UInt64($0))) }
        let mac = HMACSHA1.authenticate(message, key: key)
        let offset = Int(mac[19] & 0x0f)
        let binary = (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let value = String(binary % modulus)
        return String(repeating: "0", count: max(0, digits - value.count)) + value
    }

    /// Whether `code` is right for `secret` at `date`, one period either side (clock skew).
    package static func verify(_ code: String, secret: String, at date: Date, digits: Int = 6, period: Int = 30) -> Bool {
        guard code.count == digits, code.allSatisfy(\.isNumber) else { return false }
        return [-1.0, 0, 1].contains { step in
            Self.code(secret: secret, at: date.addingTimeInterval(step * Double(period)), digits: digits, period: period) == code
        }
    }
}

/// RFC 4648 base32, upper case, without padding (as in `otpauth://` URIs).
package enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    package static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        var buffer: UInt32 = 0, bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: output, as: UTF8.self)
    }

    /// Upper or lower case, spaces and `=` padding ignored; nil for other characters.
    package static func decode(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer: UInt32 = 0, bits = 0
        for character in text.uppercased().utf8 where character != UInt8(ascii: " ") && character != UInt8(ascii: "=") {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits - 8)))
                bits -= 8
            }
        }
        return output
    }
}

/// HMAC (RFC 2104) with SHA-1 (RFC 3174): the one HMAC of the imported password hashes.
enum HMACSHA1 {
    static func authenticate(_ message: [UInt8], key: [UInt8]) -> [UInt8] { PasswordDigest.sha1.hmac(key: key, message: message) }
}

enum SHA1 {
    static func hash(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        let padded = MerkleDamgard.padded(message)
        var w = [UInt32](repeating: 0, count: 80)
        for chunk in stride(from: 0, to: padded.count, by: 64) {
            for i in 0..<16 {
                let j = chunk + 4 * i
                w[i] = UInt32(padded[j]) << 24 | UInt32(padded[j + 1]) << 16 | UInt32(padded[j + 2]) << 8 | UInt32(padded[j + 3])
            }
            for i in 16..<80 { w[i] = rotate(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1) }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for i in 0..<80 {
                let (f, k): (UInt32, UInt32) = switch i {
                case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (b ^ c ^ d, 0xCA62_C1D6)
                }
                let temporary = rotate(a, 5) &+ f &+ e &+ k &+ w[i]
                (e, d, c, b, a) = (d, c, rotate(b, 30), a, temporary)
            }
            h[0] = h[0] &+ a; h[1] = h[1] &+ b; h[2] = h[2] &+ c; h[3] = h[3] &+ d; h[4] = h[4] &+ e
        }
        return h.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) } }
    }

    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { (value << count) | (value >> (32 - count)) }
}
