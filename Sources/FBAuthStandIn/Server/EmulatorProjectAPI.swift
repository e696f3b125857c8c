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
    static let emulatorProjectPrefix = "/emulator/v1/projects/"

    /// The answer for `/emulator/v1/projects/P/WHAT`, or nil for another path.
    func emulatorProjectAPI(_ request: HTTPRequest) throws(APIError) -> HTTPResponse? {
        guard request.path.hasPrefix(Self.emulatorProjectPrefix) else { return nil }
        var rest = request.path.dropFirst(Self.emulatorProjectPrefix.count).split(separator: "/", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        // `tenants/T/WHAT`: the same, for one tenant's users, mail and texts.
        var tenantId: String?
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 3, parts[0] == "tenants", ["accounts", "oobCodes", "verificationCodes"].contains(parts[2]) {
            tenantId = String(parts[1])
            rest = String(parts[2])
        }
        switch (request.method, rest) {
        case ("DELETE", "accounts"):
            forgetAllAccounts(tenantId: tenantId)
            return JSONResponse.make(200, [:])
        case ("GET", "config"):
            return JSONResponse.make(200, emulatorConfig)
        case ("PATCH", "config"):
            let body = try JSONBody(request, allowed: ["signIn", "emailPrivacyConfig"])
            if let duplicates = try body.object("signIn")?.bool("allowDuplicateEmails") { configuration.oneAccountPerEmail = !duplicates }
            if let privacy = try body.object("emailPrivacyConfig")?.bool("enableImprovedEmailPrivacy") { configuration.emailEnumerationProtection = privacy }
            return JSONResponse.make(200, emulatorConfig)
        case ("GET", "oobCodes"):
            return JSONResponse.make(200, listedOobCodes(tenantId: tenantId))
        case ("DELETE", "oobCodes"):
            oobCodes = oobCodes.filter { $0.value.tenantId != tenantId }
            return JSONResponse.make(200, [:])
        case ("GET", "verificationCodes"):
            return JSONResponse.make(200, verificationCodes(tenantId: tenantId))
        case ("DELETE", "verificationCodes"):
            phoneVerifications = phoneVerifications.filter { $0.value.tenantId != tenantId }
            return JSONResponse.make(200, [:])
        default:
            throw .notFound
        }
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
