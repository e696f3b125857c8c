@testable import FBAuth
@testable import FBAuthSupport
import TestSupport
import Foundation
import Testing

/// Issue 30: the Secret Service client against a real gnome-keyring on a private bus, and the
/// ways a bus can fail, each ending in seconds.
@Suite(.serialized) struct SecretServiceTests {
    let attributes = ["service": "fbauth", "username": String(getuid()), "project": "test-key"]

    @Test(.enabled(if: PrivateBus.available, "needs dbus-daemon and gnome-keyring-daemon (Debian: dbus-daemon, gnome-keyring)"))
    func aSecretIsStoredFoundAndDeleted() throws {
        let bus = try PrivateBus()
        try bus.startKeyring()
        let keyring = try SecretService(connection: DBusConnection(address: bus.address, timeout: .seconds(5)))
        #expect(try keyring.secret(attributes: attributes) == nil)
        try keyring.store(Array("refresh-token-1".utf8), label: "fbauth refresh token for ada@example.com (test)", attributes: attributes)
        try keyring.store(Array("refresh-token-2".utf8), label: "fbauth refresh token for ada@example.com (test)", attributes: attributes)
        #expect(try keyring.secret(attributes: attributes) == Array("refresh-token-2".utf8), "the second store replaced the first")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/secret-tool") {
            let listed = try bus.secretTool(["search", "--all", "service", "fbauth"])
            #expect(listed.contains("label = fbauth refresh token for ada@example.com (test)") && listed.contains("attribute.project = test-key"), "\(listed)")
            #expect(listed.components(separatedBy: "[/").count == 2, "one item: \(listed)")
        }
        #expect(try keyring.delete(attributes: attributes) == 1)
        #expect(try keyring.secret(attributes: attributes) == nil)
    }

    /// Without a keyring daemon the bus answers at once, and none is started for fbauth
    /// (NO_AUTO_START), even where the bus could activate gnome-keyring.
    @Test(.enabled(if: PrivateBus.available, "needs dbus-daemon"))
    func noKeyringIsReportedAndNoneIsStarted() throws {
        let bus = try PrivateBus()
        let started = ContinuousClock.now
        #expect(throws: SecretService.Failure.self) { try SecretService(connection: DBusConnection(address: bus.address, timeout: .seconds(5))) }
        #expect(ContinuousClock.now - started < .seconds(3))
        let names = try DBusConnection(address: bus.address, timeout: .seconds(5)).call(
            .call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "ListNames"))
        let owners = names.first?.arrayValues ?? []
        #expect(owners.contains(.string("org.freedesktop.DBus")) && owners.contains(.string("org.freedesktop.secrets")) == false,
                "no keyring daemon was started: \(owners)")
    }

    /// A session's secrets under the names `secret-tool` users search by, a label a person
    /// reads, one item per kind; nothing secret in attributes or label.
    @Test(.enabled(if: PrivateBus.available, "needs dbus-daemon and gnome-keyring-daemon (Debian: dbus-daemon, gnome-keyring)"))
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
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/secret-tool") {
            let listed = try bus.secretTool(["search", "--all", "service", "fbauth", "username", "u1", "kind", "refresh-token"])
            #expect(listed.contains("label = fbauth refresh token for ada@example.com (my-project)"), "\(listed)")
            for attribute in ["service = fbauth", "username = u1", "tenant = t-1", "project = AIzaKey@emulator:127.0.0.1:9099"] {
                #expect(listed.contains("attribute.\(attribute)"), "\(attribute): \(listed)")
            }
            #expect(!listed.contains("1//refresh-token") || listed.contains("secret = 1//refresh-token"), "the token only as the secret")
        }
        try keeper.delete(refresh)
        #expect(try keeper.secret(of: refresh) == nil && keeper.secret(of: secret) == "x-secret")
    }

    @Test func withoutABusTheKeeperSaysSoAtOnce() {
        let started = ContinuousClock.now
        let error = #expect(throws: FBAuthError.self) {
            try SecretServiceKeeper(busAddress: nil).secret(of: KeyringItem(kind: .refreshToken, uid: "u", project: "k", userLabel: "u", projectLabel: "p"))
        }
        #expect(error?.code == .keychainError && error?.message.contains("no D-Bus session") == true, "\(String(describing: error))")
        #expect(ContinuousClock.now - started < .seconds(1))
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
        #expect(took >= .milliseconds(900) && took < .seconds(3), "\(took)")
    }

    @Test func busAddressesAreRead() {
        #expect(DBusConnection.unixSocket(in: "unix:path=/run/user/1000/bus")! == ("/run/user/1000/bus", false))
        #expect(DBusConnection.unixSocket(in: "unix:abstract=/tmp/dbus-x,guid=0123")! == ("/tmp/dbus-x", true))
        #expect(DBusConnection.unixSocket(in: "tcp:host=h,port=1;unix:path=/tmp/a%20b")! == ("/tmp/a b", false))
        #expect(DBusConnection.unixSocket(in: "tcp:host=h,port=1") == nil)
        #expect(DBusConnection.unixSocket(in: "unix:path=/tmp/%zz") == nil)
    }
}
