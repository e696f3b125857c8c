/// A project's password policy in words (`GET /v2/passwordPolicy`; firebase-js-sdk
/// `packages/auth/src/core/auth/password_policy_impl.ts`), for the message when the server
/// refuses a password (`PASSWORD_DOES_NOT_MEET_REQUIREMENTS`, `WEAK_PASSWORD`).
internal enum PasswordPolicyWords {
    /// Firebase's floor when no policy is enforced (the Firebase Auth REST API reference).
    static let minimumLength = 6

    /// "at least 8 characters, a lower-case letter, an upper-case letter, a digit and a symbol
    /// (one of ^$*.)"; nil when the policy asks for nothing.
    internal static func requirements(_ policy: PasswordPolicyResponse) -> String? {
        guard policy.enforcementState == "ENFORCE" else { return "at least \(minimumLength) characters" }
        let options = policy.customStrengthOptions ?? PasswordPolicyResponse.Options()
        var parts: [String] = []
        if let minimum = options.minPasswordLength, minimum > 0 {
            // 4096 is Firebase's own ceiling, not a rule worth stating.
            parts.append(options.maxPasswordLength.flatMap { $0 < 4096 ? "\(minimum) to \($0) characters" : nil } ?? "at least \(minimum) characters")
        }
        if options.containsLowercaseCharacter == true { parts.append("a lower-case letter") }
        if options.containsUppercaseCharacter == true { parts.append("an upper-case letter") }
        if options.containsNumericCharacter == true { parts.append("a digit") }
        if options.containsNonAlphanumericCharacter == true {
            let symbols = policy.allowedNonAlphanumericCharacters?.joined() ?? ""
            parts.append(symbols.isEmpty ? "a symbol" : "a symbol (one of \(symbols))")
        }
        guard let last = parts.popLast() else { return nil }
        return parts.isEmpty ? last : parts.joined(separator: ", ") + " and " + last
    }

    /// Runs `call`; when the server refuses the password, the error names the project's
    /// policy (read from the server; the server's own words when it has none).
    static func explaining<Answer>(client: FirebaseAuthClient, tenantId: String?, _ call: () throws(FBAuthError) -> Answer) throws(FBAuthError) -> Answer {
        do {
            return try call()
        } catch .server(let error, let action) where ["PASSWORD_DOES_NOT_MEET_REQUIREMENTS", "WEAK_PASSWORD"].contains(error.code ?? "") {
            let policy = try? client.passwordPolicy(tenantId: tenantId)
            let words = policy.flatMap(requirements) ?? (error.code == "WEAK_PASSWORD" ? "at least \(minimumLength) characters" : nil)
            guard let words else { throw FBAuthError.server(error, action: action) }
            throw FBAuthError.failed(.weakPassword, "\(action) failed: the password does not meet the project's password policy, which asks for \(words) [\(error.code ?? "")]")
        }
    }
}
