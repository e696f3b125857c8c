@testable import FBAuthStandIn
import Foundation
import TestSupport
import Testing

/// Issue 59, item 6: the emulator's users are looked up through indexes (by email, phone number,
/// provider identity and provider email) that every change must keep true. Thousands of seeded
/// random changes — made, edited in place, relinked, deleted, tenants emptied — and after each,
/// every lookup is compared with a scan of all the users, which is what the indexes replace.
@Suite struct AccountDirectoryTests {
    static let tenants: [String?] = [nil, "tenant-a", "tenant-b"]
    static let uids = (0..<12).map { "uid-\($0)" }
    static let emails = ["ada@example.com", "ADA@example.com", "bob@example.com", "eve@example.com"]
    static let phones = ["+15555550100", "+15555550101"]
    static let providers = ["google.com", "github.com"]

    static func scanned(_ directory: AccountDirectory, _ test: (Account) -> Bool) -> [String] {
        directory.values.filter(test).map { "\($0.tenantId ?? "-")/\($0.localId)" }.sorted()
    }

    static func names(_ accounts: [Account]) -> [String] { accounts.map { "\($0.tenantId ?? "-")/\($0.localId)" }.sorted() }

    @Test(arguments: [1, 2, 3, 42] as [UInt64])
    func everyLookupAgreesWithAScanAfterEachChange(seed: UInt64) {
        var random = SplitMix(seed: seed)
        var directory = AccountDirectory()
        var clock = Date(timeIntervalSince1970: 1_700_000_000)
        for step in 0..<3_000 {
            let tenant = Self.tenants[random.next(Self.tenants.count)]
            let key = AccountKey(tenantId: tenant, localId: Self.uids[random.next(Self.uids.count)])
            switch random.next(7) {
            case 0, 1:
                clock += 1
                var account = Account(localId: key.localId, tenantId: tenant, createdAt: clock, lastLoginAt: clock, validSince: clock)
                if random.next(3) > 0 { account.email = Self.emails[random.next(Self.emails.count)] }
                directory[key] = account
            case 2:
                directory[key]?.email = random.next(4) == 0 ? nil : Self.emails[random.next(Self.emails.count)]
            case 3:
                let number = Self.phones[random.next(Self.phones.count)]
                directory[key]?.links.removeAll { $0.providerId == "phone" }
                directory[key]?.links.append(ProviderLink(providerId: "phone", rawId: number, federatedId: "", phoneNumber: number))
            case 4:
                let provider = Self.providers[random.next(Self.providers.count)]
                directory[key]?.links.append(ProviderLink(providerId: provider, rawId: "raw-\(random.next(3))", federatedId: "",
                                                          email: Self.emails[random.next(Self.emails.count)]))
            case 5:
                if directory[key]?.links.isEmpty == false { directory[key]?.links.removeFirst() }
                else { directory[key] = nil }
            default:
                if random.next(20) == 0 { directory.removeAll(inTenant: tenant) } else { directory[key] = nil }
            }
            for tenant in Self.tenants {
                #expect(Self.names(directory.accounts(inTenant: tenant)) == Self.scanned(directory) { $0.tenantId == tenant }, "step \(step)")
                for email in Self.emails {
                    let found = directory.accounts(withEmail: email, tenantId: tenant)
                    #expect(Self.names(found) == Self.scanned(directory) { $0.tenantId == tenant && $0.email?.lowercased() == email.lowercased() }, "step \(step)")
                    // The earliest made comes first, whatever order the index holds them in.
                    #expect(found.map(\.createdAt) == found.map(\.createdAt).sorted(), "step \(step)")
                    #expect(Self.names(directory.accounts(withProviderEmail: email, tenantId: tenant))
                            == Self.scanned(directory) { $0.tenantId == tenant && $0.links.contains { $0.email?.lowercased() == email.lowercased() } }, "step \(step)")
                }
                for phone in Self.phones {
                    #expect(Self.names(directory.accounts(withPhoneNumber: phone, tenantId: tenant))
                            == Self.scanned(directory) { $0.tenantId == tenant && $0.phoneNumber == phone }, "step \(step)")
                }
                for provider in Self.providers {
                    for raw in (0..<3).map({ "raw-\($0)" }) {
                        let linked = Self.scanned(directory) { $0.tenantId == tenant && $0.links.contains { $0.providerId == provider && $0.rawId == raw } }
                        let found = directory.account(linkedTo: provider, rawId: raw, tenantId: tenant).map { Self.names([$0]) }
                        #expect(found.map { linked.contains($0[0]) } ?? linked.isEmpty, "step \(step)")
                    }
                }
                // Pages in uid order, after any uid, as `accounts:batchGet` asks for them.
                let ordered = directory.accounts(inTenant: tenant).map(\.localId).sorted()
                let after = random.next(2) == 0 ? "" : Self.uids[random.next(Self.uids.count)]
                #expect(directory.page(inTenant: tenant, after: after, limit: 3).map(\.localId) == Array(ordered.filter { $0 > after }.prefix(3)), "step \(step)")
            }
        }
        #expect(directory.count == directory.values.count)
    }
}
