/// The states of the projects other than the default one, each made on the first request that
/// names it, as Google's emulator makes them. Google's keeps every one for ever, so a client
/// naming a new project in each request grows it without end; here at most `limit` are kept.
/// Past that, the least recently used project that holds nothing a client made (no account,
/// tenant, provider configuration, blocking function, code or sign-in under way) makes room, and when
/// every one holds something the new project is refused rather than any data dropped.
struct OtherProjects {
    static let limit = 1000

    private var states: [String: Backend] = [:]
    private var lastUse: [String: UInt64] = [:]
    private var uses: UInt64 = 0

    var all: Dictionary<String, Backend>.Values { states.values }

    /// The state of `project`, made by `make` if it is new; nil when there is no room for it.
    mutating func state(of project: String, make: () -> Backend) -> Backend? {
        uses += 1
        if let existing = states[project] {
            lastUse[project] = uses
            return existing
        }
        if states.count >= Self.limit {
            let idle = states.filter { $0.value.holdsNothing }.min { lastUse[$0.key, default: 0] < lastUse[$1.key, default: 0] }
            guard let idle else { return nil }
            states[idle.key] = nil
            lastUse[idle.key] = nil
        }
        let made = make()
        states[project] = made
        lastUse[project] = uses
        return made
    }
}

extension Backend {
    /// Nothing a client made is here: dropping this state loses nothing but what it recorded
    /// (sessions of no account are no one's).
    var holdsNothing: Bool {
        accounts.isEmpty && tenants.isEmpty && providerConfigs.isEmpty && blockingFunctions.isEmpty && projectSettings.isEmpty && phoneNumberSignIn.isEmpty && oobCodes.isEmpty
            && phoneVerifications.isEmpty && pendingAuthorizations.isEmpty
    }
}
