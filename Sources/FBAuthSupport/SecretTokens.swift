/// Unguessable values for one sign-in (the page's nonce and cookie). A seam, so that tests can
/// fix them.
package protocol SecretTokens: Sendable {
    /// `bytes` random bytes as lower-case hex.
    func make(bytes: Int) -> String
}

/// The system's cryptographically secure generator (`getrandom` on Linux,
/// `arc4random_buf` on Apple platforms, through `SystemRandomNumberGenerator`).
package struct SystemSecretTokens: SecretTokens {
    package init() {}

    package func make(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        text.reserveCapacity(bytes * 2)
        for _ in 0..<bytes {
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            text += String(byte >> 4, radix: 16) + String(byte & 0x0f, radix: 16)
        }
        return text
    }
}
