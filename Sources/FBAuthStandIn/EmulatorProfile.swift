/// Where the stand-in answers otherwise than production, each difference a named question.
/// `fbauth emulator` answers as Google's Auth emulator does (firebase-tools
/// `src/emulator/auth/operations.ts`), so that code tested against either sees the same:
/// `googleEmulator`, which docs/emulator.md lists (a test holds the list to it). fbauth's own
/// tests keep production's answers (`production`), and some take on what Google's emulator
/// lacks (`limitsOfGoogleEmulator`) to check clients against it.
package struct EmulatorProfile: Sendable, Equatable {
    package var differences: Set<Difference>

    package init(_ differences: Set<Difference>) { self.differences = differences }

    /// Whether the stand-in answers as `difference` says rather than as production does.
    package func has(_ difference: Difference) -> Bool { differences.contains(difference) }

    package static let production = EmulatorProfile([])
    package static let googleEmulator = EmulatorProfile(Set(Difference.allCases.filter { $0.summary != nil }))
    /// What Google's emulator does not do that production (and `fbauth emulator`) does.
    package static let limitsOfGoogleEmulator: Set<Difference> = Set(Difference.allCases.filter { $0.summary == nil })

    package enum Difference: String, CaseIterable, Sendable {
        // Google's emulator's answers, in the order docs/emulator.md lists them.
        case googleErrorWords
        case readableRefreshTokens
        case revokesInWholeSeconds
        case noPhoneSignInOnTenants
        case anyGoogleAccessTokenIsAdministrator
        case clientTargetProjectRefused
        case anyOriginAnswered
        case passkeysByCredentialId
        case legacyRelyingPartyPaths
        case updateLinksProviderUserInfo
        case secondFactorWhenLinkingEmailLink
        case verifyingProviderReplacesProfile
        case sharedEmailStaysOnProvider
        case noOAuthExpireIn
        case fakeRecaptchaSiteKey
        case recoverEmailMailOnChange
        case emptyMfaInfoAfterWithdrawal
        case fakePasswordHashes
        case linkingPasswordReplacesIt
        // What Google's emulator lacks.
        case noOAuthCodeFlow
        case noTotp
        case noRecaptcha
        case noPasswordPolicy
        case handlerSkipsAppCheck
        case projectNumberAsProjectId

        /// The difference as docs/emulator.md says it; nil for what Google's emulator lacks.
        package var summary: String? {
            switch self {
            case .googleErrorWords: "its error words: `MISSING_IDENTIFIER`, `FORBIDDEN_CLAIM : sub`, `MISSING_LOCAL_ID`, and `INVALID_REFRESH_TOKEN` for a deleted user's refresh token"
            case .readableRefreshTokens: "refresh tokens in its own readable shape"
            case .revokesInWholeSeconds: "revocation in whole seconds, so that the token just used goes on working"
            case .noPhoneSignInOnTenants: "phone numbers as a first factor refused on tenants (`UNSUPPORTED_TENANT_OPERATION`)"
            case .anyGoogleAccessTokenIsAdministrator: "any `Bearer ya29.…` token taken as an administrator's"
            case .clientTargetProjectRefused: "a client's `targetProjectId` refused without an administrator's token (`INSUFFICIENT_PERMISSION`)"
            case .anyOriginAnswered: "browsers' cross-origin requests answered for any origin"
            case .passkeysByCredentialId: "passkeys, taken by their credential id with no signature checked"
            case .legacyRelyingPartyPaths: "the v3 `relyingparty` paths older SDKs call, each as the v1 method it became"
            case .updateLinksProviderUserInfo: "`accounts:update` taking `linkProviderUserInfo`"
            case .secondFactorWhenLinkingEmailLink: "a second factor asked for even when an email link is linked to a signed-in user"
            case .verifyingProviderReplacesProfile: "a provider that verifies an unverified user's address unlinks its other providers, and its profile replaces the user's"
            case .sharedEmailStaysOnProvider: "where several users may share an address, a provider's address kept on the provider's account only"
            case .noOAuthExpireIn: "no `oauthExpireIn` in `signInWithIdp`'s answer"
            case .fakeRecaptchaSiteKey: "a fake site key from `recaptchaParams`"
            case .recoverEmailMailOnChange: "a `RECOVER_EMAIL` mail to the old address when a user's address changes"
            case .emptyMfaInfoAfterWithdrawal: "`mfaInfo: []` once the last second factor is withdrawn, and `unobfuscatedPhoneInfo` beside each phone factor"
            case .fakePasswordHashes: "the Admin API's password hashes in its own `fakeHash:salt=…:password=…` form"
            case .linkingPasswordReplacesIt: "linking a password to a user who has one replacing its address and password (production: `PROVIDER_ALREADY_LINKED`)"
            case .noOAuthCodeFlow, .noTotp, .noRecaptcha, .noPasswordPolicy, .handlerSkipsAppCheck, .projectNumberAsProjectId: nil
            }
        }
    }
}
