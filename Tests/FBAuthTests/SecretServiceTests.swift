@testable import FBAuth
@testable import FBAuthSupport
import TestSupport
import Foundation
import Testing

/// Issue 30: the Secret Service client against a real gnome-keyring on a private bus, and the
/// ways a bus can fail, each ending in seconds.
@Suite(.serialized) struct SecretServiceTests {
    let attributes = ["service": "fbauth", "username": String(getuid()), "project": "test-key"]

    static let keyringPrograms = PrivateBus.available && PrivateBus.secretToolAvailable
    static let keyringReason: Comment = "needs dbus-daemon, gnome-keyring-daemon and secret-tool (Debian: dbus-daemon, gnome-keyring, libsecret-tools)"
    let own: Set<String> = ["service", "username", "project", "tenant"]

    @Test(.enabled(if: keyringPrograms, keyringReason))
    func aSecretIsStoredFoundAndDeleted() throws {
        let bus = try PrivateBus()
        try bus.startKeyring()
        let keyring = try SecretService(connection: DBusConnection(address: bus.address, timeout: .seconds(5)))
        #expect(try keyring.secret(attributes, ownNames: own) == nil)
        try keyring.store(Array("refresh-token-1".utf8), label: "fbauth refresh token for ada@example.com (test)", attributes: attributes, ownNames: own)
        try keyring.store(Array("refresh-token-2".utf8), label: "fbauth refresh token for ada@example.com (test)", attributes: attributes, ownNames: own)
        #expect(try keyring.secret(attributes, ownNames: own) == Array("refresh-token-2".utf8), "the second store replaced the first")
        let listed = try bus.fbauthItems()
        #expect(listed.map(\.label) == ["fbauth refresh token for ada@example.com (test)"] && listed.first?.secret == "refresh-token-2", "one item: \(listed)")
        #expect(try keyring.delete(attributes, ownNames: own) == 1)
        #expect(try keyring.secret(attributes, ownNames: own) == nil)
        #expect(try bus.fbauthItemCount() == 0)
    }

    /// The contract the in-memory keyring of the store's tests follows, run against the real
    /// gnome-keyring: items carry attributes nobody asked for (libsecret's `xdg:schema`), a
    /// search matches by subset, and both survive a restart of the daemon. fbauth finds,
    /// replaces and deletes its items whatever else they carry, and never takes an item with a
    /// tenant for one without (gnome-keyring's own replace did: storing the item without a
    /// tenant overwrote the one with).
    @Test(.enabled(if: keyringPrograms, keyringReason))
    func itemsCarryingMoreAttributesAreStillFbauthsAndNoOthersAre() throws {
        let bus = try PrivateBus()
        try bus.startKeyring()
        let keeper = SecretServiceKeeper(busAddress: bus.address)
        let plain = KeyringItem(kind: .refreshToken, uid: "u1", project: "key", userLabel: "ada@example.com", projectLabel: "p")
        var tenant = plain
        tenant.tenantId = "t-1"
        // Rewritten through libsecret: the same attributes, plus the schema it adds.
        try bus.secretTool(["store", "--label=rewritten"] + plain.attributes.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }, input: "token-libsecret")
        try keeper.store("token-tenant", as: tenant)
        let listed = try bus.fbauthItems()
        #expect(listed.count == 2, "\(listed)")
        #expect(try keeper.secret(of: plain) == "token-libsecret" && keeper.secret(of: tenant) == "token-tenant")
        #expect(Set(try keeper.listed()) == [plain.attributes, tenant.attributes], "fbauth's attributes, without the keyring's")

        try bus.killKeyring()
        try bus.startKeyring()
        let restarted = try bus.fbauthItems()
        #expect(restarted.count == 2 && restarted.allSatisfy { $0.attributes["xdg:schema"] == "org.freedesktop.Secret.Generic" },
                "after a restart gnome-keyring 42 names a schema on every item, fbauth's own too: \(restarted)")
        #expect(try keeper.secret(of: plain) == "token-libsecret" && keeper.secret(of: tenant) == "token-tenant", "read back after a restart")

        try keeper.store("token-new", as: plain)
        let replaced = try bus.fbauthItems()
        #expect(replaced.count == 2 && replaced.filter { $0.attributes["tenant"] == nil }.map(\.secret) == ["token-new"], "replaced, not added: \(replaced)")
        try keeper.delete(plain)
        #expect(try keeper.secret(of: plain) == nil && keeper.secret(of: tenant) == "token-tenant", "deleting the item without a tenant keeps the one with")
        #expect(try bus.fbauthItems().map(\.secret) == ["token-tenant"])
    }

    /// Whose bus a connection may trust: the user's own, or root's; never another user's, nor
    /// one whose peer the kernel does not name, nor a socket file of another user's.
    @Test(arguments: [
        (peer: UInt32?(1000), file: UInt32??.some(1000), trusted: true),
        (peer: 0, file: .some(0), trusted: true),
        (peer: 1000, file: .none, trusted: true),
        (peer: 1001, file: .some(1000), trusted: false),
        (peer: 1001, file: .none, trusted: false),
        (peer: nil, file: .some(1000), trusted: false),
        (peer: 1000, file: .some(1001), trusted: false),
        (peer: 1000, file: .some(nil), trusted: false),
    ])
    func aBusIsTrustedWhenItIsTheUsersOwn(peer: UInt32?, file: UInt32??, trusted: Bool) {
        #expect((BusOwnership.distrust(peer: peer, socketFile: file, user: 1000) == nil) == trusted)
    }

    /// Without a keyring daemon the bus answers at once, and none is started for fbauth
    /// (NO_AUTO_START), even where the bus could activate gnome-keyring.
    @Test(.enabled(if: PrivateBus.available, "needs dbus-daemon"))
    func noKeyringIsReportedAndNoneIsStarted() throws {
        let bus = try PrivateBus()
        // Answered, not timed out: the deadline is far beyond what a busy machine takes.
        let started = ContinuousClock.now
        #expect(throws: SecretService.Failure.self) { try SecretService(connection: DBusConnection(address: bus.address, timeout: .seconds(60))) }
        #expect(ContinuousClock.now - started < .seconds(20))
        let names = try DBusConnection(address: bus.address, timeout: .seconds(5)).call(
            .call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "ListNames"))
        let owners = names.first?.arrayValues ?? []
        #expect(owners.contains(.string("org.freedesktop.DBus")) && owners.contains(.string("org.freedesktop.secrets")) == false,
                "no keyring daemon was started: \(owners)")
    }

    /// A session's secrets under the names `secret-tool` users search by, a label a person
    /// reads, one item per kind; nothing secret in attributes or label.
    @Test(.enabled(if: keyringPrograms, keyringReason))
    func aSessionsSecretsAreKeptUnderItsNames() throws {
        let bus = try PrivateBus()
        try bus.startKeyring()
        let keeper = SecretServiceKeeper(busAddress: bus.address)
        let refresh = KeyringItem(kind: .refreshToken, uid: "u1", tenantId: "t-1", project: "AIzaKey@emulator:127.0.0.1:9099",
                                  userLabel: "ada@example.com", projectLabel: "my-project")
        var secret = refresh
        secret.kind = .tokenSecret
        try keeper.store("1//refresh-token", as: refresh)
        try keeper.store("x-secret", as: secret)
        #expect(try keeper.secret(of: refresh) == "1//refresh-token" && keeper.secret(of: secret) == "x-secret")
        let listed = try bus.fbauthItems().filter { $0.attributes["kind"] == "refresh-token" }
        #expect(listed.map(\.label) == ["fbauth refresh token for ada@example.com (my-project)"], "\(listed)")
        #expect(listed.first.map { KeyringItem.own($0.attributes) } == refresh.attributes, "\(listed)")
        #expect(listed.first?.secret == "1//refresh-token" && listed.allSatisfy { !$0.label.contains("1//") && !$0.attributes.values.contains { $0.contains("1//") } },
                "the token only as the secret")
        try keeper.delete(refresh)
        #expect(try keeper.secret(of: refresh) == nil && keeper.secret(of: secret) == "x-secret")
    }

    @Test func withoutABusTheKeeperSaysSoAtOnce() {
        let started = ContinuousClock.now
        let error = #expect(throws: FBAuthError.self) {
            try SecretServiceKeeper(busAddress: nil).secret(of: KeyringItem(kind: .refreshToken, uid: "u", project: "k", userLabel: "u", projectLabel: "p"))
        }
        #expect(error?.code == .keychainError && error?.message.contains("no D-Bus session") == true, "\(String(describing: error))")
        #expect(ContinuousClock.now - started < .seconds(10), "no bus is known at once, without a deadline to wait out")
    }

    @Test func noBusIsReportedAtOnce() {
        #expect(throws: DBusConnection.Failure(reason: "no D-Bus session: DBUS_SESSION_BUS_ADDRESS is not set")) {
            try DBusConnection(address: nil, timeout: .seconds(5))
        }
        let missing = NSTemporaryDirectory() + "fbauth-no-bus-\(UUID().uuidString)"
        #expect(throws: DBusConnection.Failure.self) { try DBusConnection(address: "unix:path=\(missing)", timeout: .seconds(5)) }
        #expect(throws: DBusConnection.Failure.self) { try DBusConnection(address: "tcp:host=localhost,port=1", timeout: .seconds(5)) }
    }

    /// A socket that accepts and never answers (a hung bus) costs the timeout, not forever.
    @Test func aBusThatNeverAnswersEndsAtTheDeadline() throws {
        let path = NSTemporaryDirectory() + "fbauth-silent-\(UUID().uuidString.prefix(8))"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener); unlink(path) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        #expect(bound == 0 && listen(listener, 1) == 0)
        let started = ContinuousClock.now
        #expect(throws: DBusConnection.Failure.self) { try DBusConnection(address: "unix:path=\(path)", timeout: .seconds(1)) }
        let took = ContinuousClock.now - started
        // The deadline is the behaviour: at least it, and not for ever (a bound a busy machine meets).
        #expect(took >= .milliseconds(900) && took < .seconds(15), "\(took)")
    }

    @Test func busAddressesAreRead() {
        #expect(DBusConnection.unixSocket(in: "unix:path=/run/user/1000/bus")! == ("/run/user/1000/bus", false))
        #expect(DBusConnection.unixSocket(in: "unix:abstract=/tmp/dbus-x,guid=0123")! == ("/tmp/dbus-x", true))
        #expect(DBusConnection.unixSocket(in: "tcp:host=h,port=1;unix:path=/tmp/a%20b")! == ("/tmp/a b", false))
        #expect(DBusConnection.unixSocket(in: "tcp:host=h,port=1") == nil)
        #expect(DBusConnection.unixSocket(in: "unix:path=/tmp/%zz") == nil)
    }
}
