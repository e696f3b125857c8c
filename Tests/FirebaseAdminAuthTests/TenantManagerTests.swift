import FBAuthStandIn
import FirebaseAdminAuth
import Foundation
import Testing

/// Issue 57: `TenantManager` as firebase-admin's: create, get, list, update (only what is set),
/// delete, with its checks before any request and its codes for the server's refusals.
@Suite struct TenantManagerTests {
    @Test func aTenantsLife() async throws {
        let standIn = try StandIn(configuration: .googleEmulator(projectId: "demo-fbauth"))
        standIn.start()
        defer { standIn.stop() }
        let tenants = AdminAuth(projectID: "demo-fbauth", emulatorHost: standIn.hostAndPort, log: { _ in }).tenantManager()
        let made = try await tenants.createTenant(TenantRequest(displayName: "staff", passwordSignInEnabled: true))
        #expect(made.displayName == "staff" && made.passwordSignInEnabled && !made.anonymousSignInEnabled && !made.emailLinkSignInEnabled
                    && made.tenantId.hasPrefix("staff-"), "\(made)")
        #expect(try await tenants.getTenant(made.tenantId) == made)
        let changed = try await tenants.updateTenant(made.tenantId, TenantRequest(anonymousSignInEnabled: true))
        #expect(changed.anonymousSignInEnabled && changed.passwordSignInEnabled && changed.displayName == "staff", "only what was set changed: \(changed)")
        let second = try await tenants.createTenant(TenantRequest(displayName: "partners"))
        let listed = try await tenants.listTenants()
        #expect(Set(listed.tenants.map(\.tenantId)) == [made.tenantId, second.tenantId] && listed.pageToken == nil, "\(listed)")
        try await tenants.deleteTenant(made.tenantId)
        await #expect { try await tenants.getTenant(made.tenantId) } throws: { error in (error as? AdminAuthError)?.code == "auth/tenant-not-found" }

        // Refused before any request.
        let before = standIn.requests.count
        await #expect { try await tenants.createTenant(TenantRequest(displayName: "x")) } throws: { error in (error as? AdminAuthError)?.code == "auth/argument-error" }
        await #expect { try await tenants.getTenant("not/a/tenant") } throws: { error in (error as? AdminAuthError)?.code == "auth/invalid-tenant-id" }
        await #expect { try await tenants.listTenants(maxResults: 1001) } throws: { error in (error as? AdminAuthError)?.code == "auth/argument-error" }
        await #expect { try await tenants.updateTenant(second.tenantId, TenantRequest()) } throws: { error in (error as? AdminAuthError)?.code == "auth/argument-error" }
        #expect(standIn.requests.count == before)
    }
}
