#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

enum Base64URL {
    static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacing("+", with: "-")
            .replacing("/", with: "_").replacing("=", with: "")
    }

    static func decode(_ text: String) -> Data? {
        var base64 = text.replacing("-", with: "+").replacing("_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}

/// Random url-safe strings for codes, states, tokens and ids.
enum RandomToken {
    static func make(bytes count: Int = 24) -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode(Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }))
    }

    /// A 28-character alphanumeric id, the shape of Firebase uids.
    static func localId() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<28).map { _ in alphabet.randomElement(using: &generator)! })
    }
}

/// JWTs with a random, unverifiable signature: shaped like production RS256 tokens. The
/// stand-in verifies its own ID tokens by looking them up, not by signature. With `signed`,
/// the signature is a real RS256 one by `StandInSigningKey`, which a server can check.
enum UnsignedJWT {
    static func make(_ claims: [String: Any], kid: String = StandInSigningKey.kid, signed: Bool = false) -> String {
        make(claims, header: ["alg": "RS256", "kid": kid, "typ": "JWT"], signed: signed)
    }

    /// With a header of the caller's (a test's refusals).
    static func make(_ claims: [String: Any], header: [String: Any], signed: Bool) -> String {
        let signingInput = segment(header) + "." + segment(claims)
        let signature = signed ? Base64URL.encode(Data(StandInSigningKey.sign(Array(signingInput.utf8)))) : RandomToken.make(bytes: 64)
        return signingInput + "." + signature
    }

    /// `alg: none` and no signature, as Google's Auth emulator makes its tokens.
    static func none(_ claims: [String: Any]) -> String {
        segment(["alg": "none", "typ": "JWT"]) + "." + segment(claims) + "."
    }

    static func claims(of token: String) -> [String: Any]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Base64URL.decode(String(parts[1])) else { return nil }
        return JSONText.parse(data) as? [String: Any]
    }

    private static func segment(_ object: [String: Any]) -> String {
        Base64URL.encode(JSONText.data(object))
    }
}
