#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

extension Backend {
    /// Every method that takes an ID token serves the tenant the request names (its path's
    /// `tenants/T`, else the body's `tenantId`), and a token of another tenant is refused before
    /// the method runs, as firebase-tools `server.ts` does for every operation: a tenant-A token
    /// sent with tenant B could otherwise look up, update, mail and delete its tenant-A user. A
    /// project-level token sent with a tenant finds no user there (Google's emulator looks the
    /// user up in tenant B's state). A request that names no tenant is the token's own.
    func refuseTenantMismatch(_ request: HTTPRequest, pathTenant: String?) throws(APIError) {
        // Most requests name no tenant; only those are parsed again.
        guard pathTenant != nil || Self.mentionsTenant(request.body) else { return }
        let body = JSONText.parse(request.body) as? [String: Any] ?? [:]
        let bodyTenant = (body["tenantId"] ?? body["tenant_id"]) as? String
        if let pathTenant, let bodyTenant, pathTenant != bodyTenant { throw .badRequest("TENANT_ID_MISMATCH") }
        guard let asked = pathTenant ?? bodyTenant, !asked.isEmpty,
              let idToken = (body["idToken"] ?? body["id_token"]) as? String, let issued = idTokens[idToken] else { return }
        guard let tokenTenant = issued.tenantId else { throw .badRequest("USER_NOT_FOUND") }
        guard tokenTenant == asked else { throw .badRequest("TENANT_ID_MISMATCH") }
    }

    /// Whether `body` holds the word `tenant` anywhere: a plain scan, as a generic search cost a
    /// 1,000-user import a seventh of its time.
    static func mentionsTenant(_ body: [UInt8]) -> Bool {
        let word: [UInt8] = Array("tenant".utf8)
        return body.withUnsafeBufferPointer { bytes in
            guard bytes.count >= word.count else { return false }
            for start in 0...(bytes.count - word.count) where bytes[start] == word[0] {
                if (1..<word.count).allSatisfy({ bytes[start + $0] == word[$0] }) { return true }
            }
            return false
        }
    }

    /// `projects/P/tenants/T/…`: T.
    static func pathTenant(of path: String) -> String? {
        let parts = path.split(separator: "/")
        guard let index = parts.firstIndex(of: "tenants"), index + 1 < parts.count else { return nil }
        return String(parts[index + 1].prefix { $0 != ":" })
    }
}
