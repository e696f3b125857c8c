/// The users of one project, each tenant's apart (a uid is unique within its tenant only), with
/// the indexes sign-ins look users up by, kept in step with every change, as firebase-tools'
/// `ProjectState` keeps its own: by email (any case), by phone number, by provider identity and
/// by a provider's email. A lookup among 100,000 users costs what one among 10 does.
///
/// Every write goes through the subscript's setter (also `accounts[key]?.field = value`, which
/// Swift makes a get and a set), which takes the old value out of the indexes and puts the new
/// one in; nothing else can change a stored account.
struct AccountDirectory {
    private var byKey: [AccountKey: Account] = [:]
    private var byTenant: [String?: Set<AccountKey>] = [:]
    private var byEmail: [Scoped: Set<AccountKey>] = [:]
    private var byPhoneNumber: [Scoped: Set<AccountKey>] = [:]
    private var byProvider: [Scoped: Set<AccountKey>] = [:]
    private var byProviderEmail: [Scoped: Set<AccountKey>] = [:]
    /// Each tenant's keys in uid order, for listing pages; made when asked, dropped when the
    /// tenant gains or loses a user.
    private var inUIDOrder: [String?: [AccountKey]] = [:]

    /// A value within one tenant (nil: the project's own users).
    private struct Scoped: Hashable {
        var tenantId: String?
        var value: String
    }

    subscript(key: AccountKey) -> Account? {
        get { byKey[key] }
        set {
            let old = byKey[key]
            if let old { unindex(old, key) }
            byKey[key] = newValue
            if let newValue {
                index(newValue, key)
            } else if old != nil {
                byTenant[key.tenantId]?.remove(key)
                if byTenant[key.tenantId]?.isEmpty == true { byTenant[key.tenantId] = nil }
                inUIDOrder[key.tenantId] = nil
            }
        }
    }

    var values: Dictionary<AccountKey, Account>.Values { byKey.values }
    var keys: Dictionary<AccountKey, Account>.Keys { byKey.keys }
    var count: Int { byKey.count }
    var isEmpty: Bool { byKey.isEmpty }

    mutating func removeAll() { self = AccountDirectory() }

    /// Removes every user of `tenantId` (nil: the project's own).
    mutating func removeAll(inTenant tenantId: String?) {
        for key in byTenant[tenantId] ?? [] { self[key] = nil }
    }

    /// The users of `tenantId`, in no order.
    func accounts(inTenant tenantId: String?) -> [Account] {
        (byTenant[tenantId] ?? []).compactMap { byKey[$0] }
    }

    /// The users of `tenantId` whose uid comes after `after`, in uid order, at most `limit`.
    mutating func page(inTenant tenantId: String?, after: String, limit: Int) -> [Account] {
        let ordered = inUIDOrder[tenantId] ?? (byTenant[tenantId] ?? []).sorted { $0.localId < $1.localId }
        inUIDOrder[tenantId] = ordered
        var low = 0, high = ordered.count
        while low < high {
            let middle = (low + high) / 2
            if ordered[middle].localId <= after { low = middle + 1 } else { high = middle }
        }
        let end = limit >= ordered.count - low ? ordered.count : low + limit
        return ordered[low..<end].compactMap { byKey[$0] }
    }

    /// The users of `tenantId` with `email` as their own address, any case, the earliest made first.
    func accounts(withEmail email: String, tenantId: String?) -> [Account] {
        ordered(byEmail[Scoped(tenantId: tenantId, value: email.lowercased())])
    }

    /// The users of `tenantId` with the phone number `number`, the earliest made first.
    func accounts(withPhoneNumber number: String, tenantId: String?) -> [Account] {
        ordered(byPhoneNumber[Scoped(tenantId: tenantId, value: number)])
    }

    /// The user of `tenantId` linked to the provider's account `rawId`.
    func account(linkedTo providerId: String, rawId: String, tenantId: String?) -> Account? {
        ordered(byProvider[Scoped(tenantId: tenantId, value: Self.identity(providerId, rawId))]).first
    }

    /// The users of `tenantId` with a linked provider whose email is `email`, any case.
    func accounts(withProviderEmail email: String, tenantId: String?) -> [Account] {
        ordered(byProviderEmail[Scoped(tenantId: tenantId, value: email.lowercased())])
    }

    private func ordered(_ keys: Set<AccountKey>?) -> [Account] {
        (keys ?? []).compactMap { byKey[$0] }.sorted { ($0.createdAt, $0.localId) < ($1.createdAt, $1.localId) }
    }

    private static func identity(_ providerId: String, _ rawId: String) -> String { providerId + "\u{0}" + rawId }

    private static func entries(of account: Account) -> (emails: [String], phones: [String], providers: [String], providerEmails: [String]) {
        (account.email.map { [$0.lowercased()] } ?? [], account.phoneNumber.map { [$0] } ?? [],
         account.links.map { identity($0.providerId, $0.rawId) }, account.links.compactMap { $0.email?.lowercased() })
    }

    private mutating func index(_ account: Account, _ key: AccountKey) {
        if byTenant[key.tenantId, default: []].insert(key).inserted { inUIDOrder[key.tenantId] = nil }
        let entries = Self.entries(of: account)
        for email in entries.emails { byEmail[Scoped(tenantId: key.tenantId, value: email), default: []].insert(key) }
        for phone in entries.phones { byPhoneNumber[Scoped(tenantId: key.tenantId, value: phone), default: []].insert(key) }
        for identity in entries.providers { byProvider[Scoped(tenantId: key.tenantId, value: identity), default: []].insert(key) }
        for email in entries.providerEmails { byProviderEmail[Scoped(tenantId: key.tenantId, value: email), default: []].insert(key) }
    }

    /// Takes `account` out of the value indexes; it stays in its tenant's (a change puts the
    /// same key back at once, and the subscript takes out one that goes).
    private mutating func unindex(_ account: Account, _ key: AccountKey) {
        let entries = Self.entries(of: account)
        Self.remove(key, entries.emails, tenant: key.tenantId, from: &byEmail)
        Self.remove(key, entries.phones, tenant: key.tenantId, from: &byPhoneNumber)
        Self.remove(key, entries.providers, tenant: key.tenantId, from: &byProvider)
        Self.remove(key, entries.providerEmails, tenant: key.tenantId, from: &byProviderEmail)
    }

    private static func remove(_ key: AccountKey, _ values: [String], tenant: String?, from index: inout [Scoped: Set<AccountKey>]) {
        for value in values {
            let scoped = Scoped(tenantId: tenant, value: value)
            index[scoped]?.remove(key)
            if index[scoped]?.isEmpty == true { index[scoped] = nil }
        }
    }
}
