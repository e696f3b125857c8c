@testable import FBAuth
import Foundation
import TestSupport
import Testing

/// The contract of the keyring's fakes: the same calls on the in-memory keyring the store's
/// tests use and on the real gnome-keyring give the same answers, and the recordings the fake
/// replays are read as the real component wrote them.
@Suite(.serialized) struct KeyringContractTests {
    /// What a run of calls saw, in order.
    static func transcript(_ keeper: any SecretKeeper, plant: ([String: String], String) throws -> Void, restart: () throws -> Void) throws -> [String] {
        let ada = KeyringItem(kind: .refreshToken, uid: "ada", project: "key", userLabel: "ada@example.com", projectLabel: "p")
        var tenant = ada
        tenant.tenantId = "t-1"
        var secret = ada
        secret.kind = .tokenSecret
        var seen: [String] = []
        func note(_ label: String, _ value: Any?) { seen.append("\(label): \(value.map { "\($0)" } ?? "nil")") }
        func listed() throws -> [String] {
            try keeper.listed().map { $0.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") }.sorted()
        }
        try keeper.store("a-1", as: ada)
        try keeper.store("t-1", as: tenant)
        try keeper.store("a-2", as: ada)
        note("ada", try keeper.secret(of: ada))
        note("tenant", try keeper.secret(of: tenant))
        note("secret", try keeper.secret(of: secret))
        try plant(["service": "fbauth", "username": "gone", "project": "key", "kind": "refresh-token"], "orphan")
        note("listed", try listed())
        try restart()
        note("after restart", try listed())
        note("ada after restart", try keeper.secret(of: ada))
        try keeper.store("a-3", as: ada)
        note("ada replaced", try keeper.secret(of: ada))
        try keeper.delete(ada)
        note("ada deleted", try keeper.secret(of: ada))
        note("tenant kept", try keeper.secret(of: tenant))
        note("left", try listed())
        return seen
    }

    @Test(.enabled(if: PrivateBus.available && PrivateBus.secretToolAvailable,
                   "needs dbus-daemon, gnome-keyring-daemon and secret-tool (Debian: dbus-daemon, gnome-keyring, libsecret-tools)"))
    func theMemoryKeyringAnswersAsGnomeKeyringDoes() throws {
        let memory = MemoryKeyring()
        let fake = try Self.transcript(memory, plant: { memory.plant($0, $1) }, restart: { memory.restart() })
        let bus = try PrivateBus()
        try bus.startKeyring()
        let real = try Self.transcript(SecretServiceKeeper(busAddress: bus.address),
                                       plant: { attributes, secret in
                                           try bus.secretTool(["store", "--label=planted"] + attributes.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }, input: secret)
                                       },
                                       restart: { try bus.killKeyring(); try bus.startKeyring() })
        #expect(fake == real)
        #expect(fake.contains("tenant kept: t-1") && fake.contains("ada after restart: a-2"), "\(fake)")
    }

    /// The helper that reads the keyring back fails when its program fails: "no items" never
    /// also means "secret-tool could not reach the bus".
    @Test(.enabled(if: PrivateBus.available, "needs dbus-daemon (Debian: dbus-daemon)"))
    func aFailingSecretToolFailsTheTest() throws {
        let bus = try PrivateBus()
        bus.secretToolPath = "/bin/false"
        #expect(throws: PrivateBus.Failure.self) { try bus.fbauthItems() }
        bus.secretToolPath = "/usr/bin/true"
        #expect(try bus.fbauthItemCount() == 0, "a program that succeeds and prints nothing lists nothing")
    }

    /// The recordings the fake replays are read as the keyring wrote them.
    @Test func theRecordedAnswersAreReadAsTheKeyringWroteThem() throws {
        let reply = try #require(DBusMessage.decode(DBusMessageTests.bytes(KeyringRecordings.getAllReply)) ?? nil)
        #expect(reply.length == KeyringRecordings.getAllReply.count / 2 && reply.message.kind == .methodReturn)
        let properties = SecretService.itemProperties(reply.message.body)
        #expect(properties.attributes == ["service": "fbauth", "username": "u1", "project": "key", "kind": "refresh-token", "xdg:schema": "org.freedesktop.Secret.Generic"])
        #expect(properties.modified == 1_795_696_905)
        #expect(KeyringItem.own(properties.attributes) == ["service": "fbauth", "username": "u1", "project": "key", "kind": "refresh-token"])
        #expect(KeyringRecordings.addedByTheKeyring == ["xdg:schema": "org.freedesktop.Secret.Generic"])
        let listed = ListedItem.parse(KeyringRecordings.searchOutput)
        #expect(listed == [ListedItem(label: "fbauth refresh token for ada@example.com (my-project)", secret: "tok", attributes: properties.attributes)])
    }
}
