/// One secret of a saved session as the OS keyring keeps it: found by attributes that name it
/// the way go-keyring and `secret-tool` users expect (`service=fbauth`, `username=UID`,
/// `project=KEY`, `tenant=ID` when there is one, `kind`), shown with a label a person
/// understands in Seahorse or KeePassXC. Attributes and labels are readable by anything on the
/// bus without unlocking: nothing secret goes there (the API key is a project's public
/// identifier; the uid and email are the account's names).
internal struct KeyringItem: Equatable, Sendable {
    enum Kind: String, Sendable {
        case refreshToken = "refresh-token"
        /// An X (Twitter) OAuth 1.0a token secret.
        case tokenSecret = "token-secret"
        case pendingCredential = "pending-credential"
        /// The Apple access token of the last Sign in with Apple, kept to revoke it when the
        /// account is deleted.
        case appleAccessToken = "apple-access-token"

        var words: String {
            switch self {
            case .refreshToken: "refresh token"
            case .tokenSecret: "X token secret"
            case .pendingCredential: "pending credential"
            case .appleAccessToken: "Apple access token"
            }
        }
    }

    var kind: Kind
    var uid: String
    var tenantId: String?
    /// The store's key of the project (`ProjectKey.storageKey`).
    var project: String
    /// How the label names the user and the project.
    var userLabel: String
    var projectLabel: String

    static let service = "fbauth"

    /// The attributes fbauth writes. An item is fbauth's when it carries these, whatever else
    /// the keyring or another client added (gnome-keyring's and libsecret's `xdg:schema`,
    /// KWallet's and KeePassXC's own).
    static let attributeNames: Set<String> = ["service", "username", "project", "tenant", "kind"]

    /// fbauth's attributes of an item, without those others added.
    static func own(_ attributes: [String: String]) -> [String: String] {
        attributes.filter { attributeNames.contains($0.key) }
    }

    var attributes: [String: String] {
        var attributes = ["service": Self.service, "username": uid, "project": project, "kind": kind.rawValue]
        if let tenantId { attributes["tenant"] = tenantId }
        return attributes
    }

    /// "fbauth refresh token for ada@example.com (my-project)".
    var label: String { "fbauth \(kind.words) for \(userLabel) (\(projectLabel))" }
}

/// Where a session's secrets are kept outside `sessions.json`: the seam the store will use, with
/// the Secret Service on Linux (and the Keychain on macOS) behind it, and a dictionary in tests.
internal protocol SecretKeeper: Sendable {
    /// Whether a keyring answers, and how messages name it ("the GNOME keyring"); throws the
    /// reason when none does.
    func probe() throws(FBAuthError) -> String
    func store(_ secret: String, as item: KeyringItem) throws(FBAuthError)
    func secret(of item: KeyringItem) throws(FBAuthError) -> String?
    func delete(_ item: KeyringItem) throws(FBAuthError)
    /// fbauth's attributes of every fbauth item (`service=fbauth`), for `status`.
    func listed() throws(FBAuthError) -> [[String: String]]
}

/// The Secret Service on the session bus: one connection per operation, each with a deadline,
/// so that a keyring that never answers costs seconds and a locked one is an error that says so.
struct SecretServiceKeeper: SecretKeeper {
    /// `DBUS_SESSION_BUS_ADDRESS`.
    let busAddress: String?
    var timeout: Duration = .seconds(3)

    func probe() throws(FBAuthError) -> String {
        try withService { (service) throws(SecretService.Failure) in service.keyringName() }
    }

    func listed() throws(FBAuthError) -> [[String: String]] {
        try withService { (service) throws(SecretService.Failure) in
            try service.items(["service": KeyringItem.service], ownNames: ["service"]).map { KeyringItem.own($0.attributes) }
        }
    }

    func store(_ secret: String, as item: KeyringItem) throws(FBAuthError) {
        try withService { (service) throws(SecretService.Failure) in
            try service.store(Array(secret.utf8), label: item.label, attributes: item.attributes, ownNames: KeyringItem.attributeNames)
        }
    }

    func secret(of item: KeyringItem) throws(FBAuthError) -> String? {
        let bytes = try withService { (service) throws(SecretService.Failure) in try service.secret(item.attributes, ownNames: KeyringItem.attributeNames) }
        return try bytes.map { (bytes: [UInt8]) throws(FBAuthError) -> String in
            guard let text = String(validating: bytes, as: UTF8.self) else { throw .store("the keyring holds something else than a token for \(item.label)") }
            return text
        }
    }

    func delete(_ item: KeyringItem) throws(FBAuthError) {
        try withService { (service) throws(SecretService.Failure) in _ = try service.delete(item.attributes, ownNames: KeyringItem.attributeNames) }
    }

    private func withService<T>(_ body: (SecretService) throws(SecretService.Failure) -> T) throws(FBAuthError) -> T {
        let service: SecretService
        do {
            service = try SecretService(connection: DBusConnection(address: busAddress, timeout: timeout))
        } catch let failure as DBusConnection.Failure {
            throw .store("no keyring: \(failure.reason)")
        } catch let failure as SecretService.Failure {
            throw Self.error(failure)
        } catch {
            throw .store("no keyring")
        }
        do {
            return try body(service)
        } catch {
            throw Self.error(error)
        }
    }

    private static func error(_ failure: SecretService.Failure) -> FBAuthError {
        switch failure {
        case .unavailable(let reason): .store("no keyring: \(reason)")
        case .locked: .store("the keyring is locked: unlock it (Seahorse, or your desktop's keyring prompt) and try again")
        case .failed(let reason): .store("the keyring refused: \(reason)")
        case .foreign(let reason): .store("no keyring: \(reason)")
        }
    }
}
