#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP
import FBAuthSupport

/// Sign-in against the Firebase Auth emulator, which answers `createAuthUri` for identity
/// providers with 501: the emulator instead accepts fake identity-provider claims as plain
/// JSON in `signInWithIdp`'s `postBody` (firebase-tools src/emulator/auth/operations.ts, signInWithIdp).
struct EmulatorClaimsSignIn {
    let client: FirebaseAuthClient
    let observer: SignInObserver
    let clock: WallClock
    let tenantId: String?
    var secondFactor: SecondFactorHandling?
    var words = AdviceWords()

    static let defaultEmail = "user@example.com"

    func run(_ options: FlowOptions, purpose: FlowPurpose) throws(FBAuthError) -> BrowserSignInFlow.Result {
        let email = options.email ?? Self.defaultEmail
        observer.notice("The Auth emulator does not run \(options.providerId)'s browser flow; signing in with fake \(options.providerId) claims for \(email)" + (options.email == nil ? " (choose the account with \(words.accountEmail))." : "."))
        let response = try client.signInWithIdp(SignInWithIdpRequest(
            requestUri: "http://localhost", postBody: Self.postBody(providerId: options.providerId, email: email),
            idToken: purpose.linkToken, tenantId: tenantId, autoCreate: purpose.autoCreate), action: purpose.action)
        return try SignInCompletion(client: client, clock: clock, tenantId: tenantId, secondFactor: secondFactor)
            .complete(response, providerId: options.providerId, purpose: purpose)
    }

    /// `providerId=…&id_token=<URL-encoded JSON claims>`. The `sub` is derived from provider and
    /// email, so the same fake account signs in as the same user every time.
    static func postBody(providerId: String, email: String) -> String {
        let claims: [String: JSONValue] = [
            "sub": .string(stableSubject(providerId: providerId, email: email)),
            "email": .string(email),
            "email_verified": .bool(true),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: (try? encoder.encode(JSONValue.object(claims))) ?? Data(), as: UTF8.self)
        return FormEncoding.encode([("providerId", providerId), ("id_token", json)])
    }

    /// 20 decimal digits from two FNV-1a hashes of `provider|email` (deterministic across runs
    /// and platforms, unlike Swift's `Hasher`).
    static func stableSubject(providerId: String, email: String) -> String {
        func fnv1a(_ text: String, seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            return hash
        }
        let key = providerId + "|" + email.lowercased()
        let high = fnv1a(key, seed: 0xcbf2_9ce4_8422_2325) % 10_000_000_000
        let low = fnv1a(key, seed: 0x84222325_cbf29ce4) % 10_000_000_000
        return pad(high) + pad(low)
    }

    private static func pad(_ value: UInt64) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, 10 - digits.count)) + digits
    }
}
