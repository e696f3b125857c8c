import FBAuthSupport
/// What a server may put in the fields fbauth saves, prints or sends on. A value outside these
/// bounds refuses the whole answer (`ServerValueProblem`, reported as an unexpected answer, exit
/// 1) before anything is saved:
/// - a token that is not a token could carry line breaks into `Authorization: Bearer
///   $(fbauth token)`, and odd bytes to the terminal;
/// - a lifetime or date far outside the real ones would be saved as a date no reader accepts
///   (year -1142 or 506713), failing the whole store.
enum ServerValueBounds {
    /// Firebase ID and refresh tokens last an hour (the Firebase Auth REST API reference); a
    /// day is the most accepted.
    static let tokenLifetime: ClosedRange<Int64> = 1...86_400
    /// A provider's access token may last weeks (Facebook's long-lived tokens: 60 days); a year
    /// at most.
    static let providerTokenLifetime: ClosedRange<Int64> = 0...31_622_400
    /// Account timestamps (`createdAt`, `lastLoginAt`: milliseconds since 1970) between 1970
    /// and 2200.
    static let accountMilliseconds: ClosedRange<Int64> = 0...7_258_118_400_000
    /// Longer than any token Firebase or a provider issues.
    static let tokenLength = 16 * 1024
}

/// The alphabets of the tokens a server hands fbauth.
/// In FBAuth, not FBAuthSupport, on purpose: `accepts(bytes:)` is generic, and called across
/// modules it runs unspecialized, which cost `fbauth token`'s quick path a quarter of a
/// millisecond and 130 more functions (Scripts/bench.sh).
internal enum TokenAlphabet {
    /// A compact JWS/JWT (RFC 7515 §7.1): three base64url segments joined by dots; the last one
    /// is empty in the Auth emulator's unsigned tokens. Firebase ID tokens.
    case jwt
    /// RFC 6750 §2.1 `b64token`: letters, digits, `-._~+/`, then `=` padding. Firebase refresh
    /// tokens (base64url in production, base64 in the Auth emulator).
    case bearer
    /// Visible ASCII without spaces: providers' access tokens, ID tokens and secrets, whose
    /// formats vary (Microsoft's personal-account tokens hold `!`, `*` and `$`).
    case visible

    internal func accepts(_ text: String) -> Bool { accepts(bytes: text.utf8) }

    /// The same on bytes (`fbauth token`'s quick path checks the saved token in place).
    internal func accepts<Bytes: Collection<UInt8>>(bytes: Bytes) -> Bool {
        guard !bytes.isEmpty, bytes.count <= ServerValueBounds.tokenLength else { return false }
        switch self {
        case .jwt:
            // One pass, no allocation: two dots, the first two segments not empty.
            var dots = 0, segmentLength = 0
            for byte in bytes {
                if byte == UInt8(ascii: ".") {
                    guard dots < 2, segmentLength > 0 else { return false }
                    dots += 1
                    segmentLength = 0
                } else {
                    guard Self.isBase64URL(byte) else { return false }
                    segmentLength += 1
                }
            }
            return dots == 2
        case .bearer:
            let body = bytes.prefix { $0 != UInt8(ascii: "=") }
            return !body.isEmpty && body.allSatisfy { Self.isBase64URL($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/")
                || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "~") }
                && bytes.dropFirst(body.count).allSatisfy { $0 == UInt8(ascii: "=") }
        case .visible:
            return bytes.allSatisfy { (0x21...0x7E).contains($0) }
        }
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }

    var name: String {
        switch self {
        case .jwt: "a JWT"
        case .bearer: "a token"
        case .visible: "a token (visible ASCII characters only)"
        }
    }
}

/// A field of a server's answer that fbauth refuses to use.
struct ServerValueProblem: Error, CustomStringConvertible {
    var field: String
    var detail: String

    var description: String { "its \(field) \(detail); nothing was saved" }
}

extension KeyedDecodingContainer {
    /// A whole number within `range`, sent as a number or a string; nil when absent (or
    /// `null`). Anything else — a fraction, `1e308`, a number out of range, text — throws.
    func integer(_ key: Key, in range: ClosedRange<Int64>) throws -> Int? {
        guard let value = try? decodeIfPresent(JSONValue.self, forKey: key), value != .null else { return nil }
        let number: Int64?
        switch value {
        case .integer(let integer): number = integer
        case .string(let text): number = Int64(text)
        default: number = nil
        }
        guard let number, range.contains(number) else {
            throw ServerValueProblem(field: key.stringValue, detail: "\(String(value.compactText.prefix(40))) is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(number)
    }

    /// A user id (`localId`): at most 128 characters, as Firebase allows, and no control
    /// characters; nil when absent or empty.
    func identifier(_ key: Key) throws -> String? {
        guard let value = try? decodeIfPresent(JSONValue.self, forKey: key), value != .null else { return nil }
        guard case .string(let text) = value else { throw ServerValueProblem(field: key.stringValue, detail: "is not a string") }
        if text.isEmpty { return nil }
        guard text.count <= 128, !text.unicodeScalars.contains(where: TextChecks.isControl) else {
            throw ServerValueProblem(field: key.stringValue, detail: "is not a user id (more than 128 characters, or control characters)")
        }
        return text
    }

    /// A provider's token that fbauth never prints raw nor sends in a header: it only appears
    /// inside fbauth's JSON output and the form-encoded `postBody` of a later `signInWithIdp`.
    /// Any text without control characters, at most `ServerValueBounds.tokenLength` long: Google's
    /// Auth emulator answers `oauthIdToken` with the fake token its widget made, strict JSON
    /// claims such as `{"sub":"…","name":"Hosted Alice"}` (firebase-tools
    /// `src/emulator/auth/widget_ui.ts`, `createFakeClaims`). Nil when absent, `null` or empty.
    func opaqueToken(_ key: Key) throws -> String? {
        guard let value = try? decodeIfPresent(JSONValue.self, forKey: key), value != .null else { return nil }
        guard case .string(let text) = value else {
            throw ServerValueProblem(field: key.stringValue, detail: "is not a string")
        }
        if text.isEmpty { return nil }
        guard text.utf8.count <= ServerValueBounds.tokenLength, !text.unicodeScalars.contains(where: TextChecks.isControl) else {
            throw ServerValueProblem(field: key.stringValue, detail: "is not a token (it holds control characters, or is longer than \(ServerValueBounds.tokenLength / 1024) KiB)")
        }
        return text
    }

    /// A token in `alphabet`; nil when absent, `null` or empty. Anything else throws.
    func token(_ key: Key, _ alphabet: TokenAlphabet) throws -> String? {
        guard let value = try? decodeIfPresent(JSONValue.self, forKey: key), value != .null else { return nil }
        guard case .string(let text) = value else {
            throw ServerValueProblem(field: key.stringValue, detail: "is not a string")
        }
        if text.isEmpty { return nil }
        guard alphabet.accepts(text) else {
            throw ServerValueProblem(field: key.stringValue, detail: "is not \(alphabet.name) (it holds characters a token cannot, such as line breaks)")
        }
        return text
    }
}
