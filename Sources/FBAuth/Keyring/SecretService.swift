/// The freedesktop.org Secret Service API on the session bus, as gnome-keyring, KeePassXC and
/// KWallet serve it: items in the default collection, found by their attributes, their secret
/// carried in the `plain` session (the bus is the user's own socket; go-keyring does the same).
/// Nothing prompts: a locked collection is reported, not unlocked.
struct SecretService {
    let connection: DBusConnection
    /// The object path of the session secrets travel in.
    let session: String

    static let service = "org.freedesktop.secrets"
    static let root = "/org/freedesktop/secrets"

    enum Failure: Error, Equatable {
        /// No Secret Service answers on the bus (no keyring daemon runs; fbauth starts none).
        case unavailable(String)
        /// The collection or item is locked; unlocking it would need a prompt.
        case locked
        /// The service answered something else than the specification says.
        case failed(String)
    }

    init(connection: DBusConnection) throws(Failure) {
        self.connection = connection
        let answer = try Self.call(connection, path: Self.root, interface: "org.freedesktop.Secret.Service", member: "OpenSession",
                                   [.string("plain"), .variant(.string(""))])
        guard answer.count == 2, case .objectPath(let session) = answer[1] else { throw .failed("OpenSession answered \(answer.map(\.signature))") }
        self.session = session
    }

    /// Stores `secret` under `attributes` in the default collection, replacing an item with the
    /// same attributes.
    func store(_ secret: [UInt8], label: String, attributes: [String: String]) throws(Failure) {
        let alias = try call(path: Self.root, interface: "org.freedesktop.Secret.Service", member: "ReadAlias", [.string("default")])
        guard case .objectPath(let collection)? = alias.first, collection != "/" else {
            throw .failed("the keyring has no default collection")
        }
        let properties = DBusValue.array(elementSignature: "{sv}", [
            .dictEntry(.string("org.freedesktop.Secret.Item.Label"), .variant(.string(label))),
            .dictEntry(.string("org.freedesktop.Secret.Item.Attributes"), .variant(.attributes(attributes))),
        ])
        let answer = try call(path: collection, interface: "org.freedesktop.Secret.Collection", member: "CreateItem",
                              [properties, secretValue(secret), .boolean(true)])
        guard answer.count == 2, case .objectPath(let prompt) = answer[1] else { throw .failed("CreateItem answered \(answer.map(\.signature))") }
        guard prompt == "/" else { throw .locked }
    }

    /// The secret of the item with `attributes`; nil when there is none.
    func secret(attributes: [String: String]) throws(Failure) -> [UInt8]? {
        let (unlocked, locked) = try search(attributes)
        guard let item = unlocked.first else {
            if !locked.isEmpty { throw .locked }
            return nil
        }
        let answer = try call(path: Self.root, interface: "org.freedesktop.Secret.Service", member: "GetSecrets",
                              [.array(elementSignature: "o", [.objectPath(item)]), .objectPath(session)])
        guard case .dictEntry(_, .structure(let fields))? = answer.first?.arrayValues?.first, fields.count == 4, let value = fields[2].byteValues else {
            throw .failed("GetSecrets answered no secret")
        }
        return value
    }

    /// Deletes every item with `attributes`; how many there were.
    @discardableResult
    func delete(attributes: [String: String]) throws(Failure) -> Int {
        let (unlocked, locked) = try search(attributes)
        for item in unlocked + locked {
            let answer = try call(path: item, interface: "org.freedesktop.Secret.Item", member: "Delete")
            guard case .objectPath("/")? = answer.first else { throw .locked }
        }
        return unlocked.count + locked.count
    }

    /// The attributes of every item that has `attributes` (locked ones included: attributes are
    /// readable without unlocking), for a listing that needs no secret.
    func itemAttributes(matching attributes: [String: String]) throws(Failure) -> [[String: String]] {
        let (unlocked, locked) = try search(attributes)
        var listed: [[String: String]] = []
        for item in unlocked + locked {
            let answer = try call(path: item, interface: "org.freedesktop.DBus.Properties", member: "Get",
                                  [.string("org.freedesktop.Secret.Item"), .string("Attributes")])
            var found: [String: String] = [:]
            for entry in answer.first?.arrayValues ?? [] {
                if case .dictEntry(let name, let value) = entry, let name = name.stringValue, let value = value.stringValue { found[name] = value }
            }
            listed.append(found)
        }
        return listed
    }

    /// How messages name the keyring that answers: the Secret Service does not say which
    /// program serves it, but each of them also owns a name of its own on the bus.
    func keyringName() -> String {
        let owners = [("org.gnome.keyring", "the GNOME keyring"), ("org.kde.kwalletd6", "KWallet"), ("org.kde.kwalletd5", "KWallet"),
                      ("org.keepassxc.KeePassXC.MainWindow", "KeePassXC")]
        for (name, words) in owners {
            let answer = try? connection.call(.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                    interface: "org.freedesktop.DBus", member: "NameHasOwner", [.string(name)]))
            if case .boolean(true)? = answer?.first { return words }
        }
        return "the Secret Service keyring"
    }

    private func search(_ attributes: [String: String]) throws(Failure) -> (unlocked: [String], locked: [String]) {
        let answer = try call(path: Self.root, interface: "org.freedesktop.Secret.Service", member: "SearchItems", [.attributes(attributes)])
        guard answer.count == 2, let unlocked = answer[0].arrayValues, let locked = answer[1].arrayValues else {
            throw .failed("SearchItems answered \(answer.map(\.signature))")
        }
        return (unlocked.compactMap(\.stringValue), locked.compactMap(\.stringValue))
    }

    /// `(oayays)`: the session, no parameters (plain), the value, its content type.
    private func secretValue(_ secret: [UInt8]) -> DBusValue {
        .structure([.objectPath(session), .bytes([]), .bytes(secret), .string("text/plain")])
    }

    private func call(path: String, interface: String, member: String, _ body: [DBusValue] = []) throws(Failure) -> [DBusValue] {
        try Self.call(connection, path: path, interface: interface, member: member, body)
    }

    private static func call(_ connection: DBusConnection, path: String, interface: String, member: String,
                             _ body: [DBusValue] = []) throws(Failure) -> [DBusValue] {
        do {
            return try connection.call(.call(destination: service, path: path, interface: interface, member: member, body))
        } catch where error.errorName == "org.freedesktop.DBus.Error.ServiceUnknown" || error.errorName == "org.freedesktop.DBus.Error.NameHasNoOwner" {
            throw .unavailable("no Secret Service on the D-Bus session: no keyring daemon is running")
        } catch where error.errorName == "org.freedesktop.Secret.Error.IsLocked" {
            throw .locked
        } catch {
            throw .failed(error.reason)
        }
    }
}
