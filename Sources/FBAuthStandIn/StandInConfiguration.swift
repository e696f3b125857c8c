import Foundation

/// How the stand-in behaves. The defaults follow the production service as documented; the
/// switches reproduce documented variants (the official emulator, project settings).
public struct StandInConfiguration: Sendable {
    /// The project id in ID tokens (`aud`, `iss`).
    public var projectId = "fbauth-stand-in"
    /// The project number securetoken reports as `project_id`.
    public var projectNumber = "123456789012"
    /// Lifetime of minted Firebase ID tokens, in seconds (production: 3600).
    public var idTokenLifetime = 3600
    /// Lifetime of providers' OAuth access tokens, in seconds.
    public var providerTokenLifetime = 3600
    /// Answer `createAuthUri` for identity providers with 501 and accept fake JSON claims in
    /// `signInWithIdp`, as the official Firebase Auth emulator does.
    public var behaveLikeOfficialEmulator = false
    /// "One account per email address" (the Firebase default): a provider whose unverified
    /// email belongs to another account gets `needConfirmation`.
    public var oneAccountPerEmail = true
    /// Email enumeration protection: `createAuthUri` with `identifier` returns no methods.
    public var emailEnumerationProtection = false
    /// When set, only these API keys are valid; otherwise any non-empty key is (as in the emulator).
    public var validAPIKeys: Set<String>? = nil
    /// The project's authorized domains; nil: those of a new project.
    public var authorizedDomains: [String]? = nil

    public init() {}
}
