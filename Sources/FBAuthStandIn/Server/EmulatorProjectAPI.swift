#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// Google's Auth emulator's own API on a project (firebase-tools src/emulator/auth/operations.ts,
/// `emulator.projects.*`): its accounts cleared, its emulator settings read and changed, the
/// mail and texts it "sent" listed or forgotten.
extension Backend {

    /// `PATCH …/config`: duplicate emails and email enumeration protection.
    func updateEmulatorConfig(_ body: JSONBody) throws(APIError) -> [String: Any] {
        if let duplicates = try body.object("signIn")?.bool("allowDuplicateEmails") { configuration.oneAccountPerEmail = !duplicates }
        if let privacy = try body.object("emailPrivacyConfig")?.bool("enableImprovedEmailPrivacy") { configuration.emailEnumerationProtection = privacy }
        return emulatorConfig
    }

    /// `EmulatorV1ProjectsConfig`: duplicate emails and email enumeration protection.
    var emulatorConfig: [String: Any] {
        ["signIn": ["allowDuplicateEmails": !configuration.oneAccountPerEmail],
         "emailPrivacyConfig": ["enableImprovedEmailPrivacy": configuration.emailEnumerationProtection]]
    }

    /// Every user of the project (or of one tenant), as a fresh project has none. Their tokens
    /// stay known, so that one presented later is a user not found, as Google's emulator says.
    func forgetAllAccounts(tenantId: String? = nil) {
        guard tenantId == nil else {
            accounts.removeAll(inTenant: tenantId)
            return
        }
        accounts.removeAll()
        pendingMfaSignIns = [:]
        totpEnrollments = [:]
        temporaryProofs = [:]
    }
}
