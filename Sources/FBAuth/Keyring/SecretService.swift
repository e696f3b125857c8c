import FBAuthSupport

/// The freedesktop.org Secret Service API on the session bus, as gnome-keyring, KeePassXC and
/// KWallet serve it: items in the default collection, found by their attributes, their secret
/// carried in the `plain` session (the bus is the user's own socket; go-keyring does the same).
/// Nothing prompts: a locked collection is reported, not unlocked.
struct SecretService {
    let connection: DBusConnection
    /// The unique bus name of the Secret Service checked to be the user's own: every call goes
    /// there, so the well-known name changing hands afterwards changes nothing.
    let owner: String
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
        /// Another user runs the Secret Service on this bus: nothing secret goes there.
        case foreign(String)
    }

    /// The unique name of the Secret Service's owner, once the bus says that process is the
    /// user's own (or root's).
    private static func trustedOwner(on connection: DBusConnection) throws(Failure) -> String {
        let owner = try bus(connection, "GetNameOwner", service)
        guard case .string(let name)? = owner.first else { throw .failed("GetNameOwner answered \(owner.map(\.signature))") }
        let user = try bus(connection, "GetConnectionUnixUser", name)
        guard case .uint32(let uid)? = user.first else { throw .failed("GetConnectionUnixUser answered \(user.map(\.signature))") }
        guard BusOwnership.isTrusted(uid, by: Platform.effectiveUserID) else { throw .foreign(BusOwnership.secretService(uid).reason(address: "")) }
        return name
    }

    /// A call to the bus itself (`org.freedesktop.DBus`).
    private static func bus(_ connection: DBusConnection, _ member: String, _ name: String) throws(Failure) -> [DBusValue] {
        do {
            return try connection.call(.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                             interface: "org.freedesktop.DBus", member: member, [.string(name)]))
        } catch where error.errorName == "org.freedesktop.DBus.Error.NameHasNoOwner" || error.errorName == "org.freedesktop.DBus.Error.ServiceUnknown" {
            throw .unavailable("no Secret Service on the D-Bus session: no keyring daemon is running")
        } catch {
            throw .failed(error.reason)
        }
    }

    init(connection: DBusConnection) throws(Failure) {
        self.connection = connection
        owner = try Self.trustedOwner(on: connection)
        let answer = try Self.call(connection, owner, path: Self.root, interface: "org.freedesktop.Secret.Service", member: "OpenSession",
                                   [.string("plain"), .variant(.string(""))])
        guard answer.count == 2, case .objectPath(let session) = answer[1] else { throw .failed("OpenSession answered \(answer.map(\.signature))") }
        self.session = session
    }

    /// One item: where it is, all its attributes (the keyring's own, such as gnome-keyring's
    /// `xdg:schema`, included), when it last changed, whether it is locked.
    struct Item: Equatable {
        let path: String
        let attributes: [String: String]
        let modified: UInt64
        let locked: Bool
    }

    /// The items whose attributes named in `ownNames` are exactly `attributes`, whatever else
    /// they carry, newest first. The Secret Service matches by subset: an item written by
    /// libsecret or rewritten by the keyring carries more, and a search for an item without a
    /// `tenant` also finds those with one, which are other items.
    func items(_ attributes: [String: String], ownNames: Set<String>) throws(Failure) -> [Item] {
        let (unlocked, locked) = try search(attributes)
        var found: [Item] = []
        for path in unlocked + locked {
            let all = try properties(of: path)
            guard all.attributes.filter({ ownNames.contains($0.key) }) == attributes else { continue }
            found.append(Item(path: path, attributes: all.attributes, modified: all.modified, locked: locked.contains(path)))
        }
        return found.sorted { $0.modified > $1.modified }
    }

    /// Stores `secret` under `attributes` in the default collection, leaving it the only item
    /// with exactly those attributes (of `ownNames`). Not with `CreateItem`'s replace:
    /// gnome-keyring replaces an item that carries the attributes and more, so storing an item
    /// without a tenant took the place of one with. The new item is written first, and the
    /// old ones deleted after, so a crash between leaves two good items, never none.
    func store(_ secret: [UInt8], label: String, attributes: [String: String], ownNames: Set<String>) throws(Failure) {
        let alias = try call(path: Self.root, interface: "org.freedesktop.Secret.Service", member: "ReadAlias", [.string("default")])
        guard case .objectPath(let collection)? = alias.first, collection != "/" else {
            throw .failed("the keyring has no default collection")
        }
        let properties = DBusValue.array(elementSignature: "{sv}", [
            .dictEntry(.string("org.freedesktop.Secret.Item.Label"), .variant(.string(label))),
            .dictEntry(.string("org.freedesktop.Secret.Item.Attributes"), .variant(.attributes(attributes))),
        ])
        let answer = try call(path: collection, interface: "org.freedesktop.Secret.Collection", member: "CreateItem",
                              [properties, secretValue(secret), .boolean(false)])
        guard answer.count == 2, case .objectPath(let created) = answer[0], case .objectPath(let prompt) = answer[1] else {
            throw .failed("CreateItem answered \(answer.map(\.signature))")
        }
        guard prompt == "/" else { throw .locked }
        for item in try items(attributes, ownNames: ownNames) where item.path != created { try delete(item) }
    }

    /// The secret of the newest item with exactly `attributes` (of `ownNames`); nil when there
    /// is none.
    func secret(_ attributes: [String: String], ownNames: Set<String>) throws(Failure) -> [UInt8]? {
        let found = try items(attributes, ownNames: ownNames)
        guard let item = found.first(where: { !$0.locked }) else {
            if !found.isEmpty { throw .locked }
            return nil
        }
        let answer = try call(path: Self.root, interface: "org.freedesktop.Secret.Service", member: "GetSecrets",
                              [.array(elementSignature: "o", [.objectPath(item.path)]), .objectPath(session)])
        guard case .dictEntry(_, .structure(let fields))? = answer.first?.arrayValues?.first, fields.count == 4, let value = fields[2].byteValues else {
            throw .failed("GetSecrets answered no secret")
        }
        return value
    }

    /// Deletes every item with exactly `attributes` (of `ownNames`); how many there were.
    @discardableResult
    func delete(_ attributes: [String: String], ownNames: Set<String>) throws(Failure) -> Int {
        let found = try items(attributes, ownNames: ownNames)
        for item in found { try delete(item) }
        return found.count
    }

    func delete(_ item: Item) throws(Failure) {
        let answer = try call(path: item.path, interface: "org.freedesktop.Secret.Item", member: "Delete")
        guard case .objectPath("/")? = answer.first else { throw .locked }
    }

    /// The attributes and modification time of the item at `path` (readable without unlocking).
    private func properties(of path: String) throws(Failure) -> (attributes: [String: String], modified: UInt64) {
        let answer = try call(path: path, interface: "org.freedesktop.DBus.Properties", member: "GetAll", [.string("org.freedesktop.Secret.Item")])
        return Self.itemProperties(answer)
    }

    /// What an item's `GetAll` answers (`a{sv}`): its attributes and modification time.
    static func itemProperties(_ answer: [DBusValue]) -> (attributes: [String: String], modified: UInt64) {
        var attributes: [String: String] = [:]
        var modified: UInt64 = 0
        for entry in answer.first?.arrayValues ?? [] {
            guard case .dictEntry(.string(let name), .variant(let value)) = entry else { continue }
            if name == "Attributes" {
                for pair in value.arrayValues ?? [] {
                    if case .dictEntry(let key, let text) = pair, let key = key.stringValue, let text = text.stringValue { attributes[key] = text }
                }
            } else if name == "Modified", case .uint64(let time) = value {
                modified = time
            }
        }
        return (attributes, modified)
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
        try Self.call(connection, owner, path: path, interface: interface, member: member, body)
    }

    private static func call(_ connection: DBusConnection, _ owner: String, path: String, interface: String, member: String,
                             _ body: [DBusValue] = []) throws(Failure) -> [DBusValue] {
        do {
            return try connection.call(.call(destination: owner, path: path, interface: interface, member: member, body))
        } catch where error.errorName == "org.freedesktop.DBus.Error.ServiceUnknown" || error.errorName == "org.freedesktop.DBus.Error.NameHasNoOwner" {
            throw .unavailable("no Secret Service on the D-Bus session: no keyring daemon is running")
        } catch where error.errorName == "org.freedesktop.Secret.Error.IsLocked" {
            throw .locked
        } catch {
            throw .failed(error.reason)
        }
    }
}
