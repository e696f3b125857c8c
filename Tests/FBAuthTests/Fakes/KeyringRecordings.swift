@testable import FBAuth

/// What gnome-keyring 42.1 (Debian 12) answered on a private bus, recorded so that the fakes
/// replay it instead of echoing what fbauth wrote. An item stored with `secret-tool store
/// --label='fbauth refresh token for ada@example.com (my-project)' service fbauth username u1
/// project key kind refresh-token`, the daemon killed and started again, then:
enum KeyringRecordings {
    /// The reply to `org.freedesktop.DBus.Properties.GetAll("org.freedesktop.Secret.Item")` on
    /// that item (`dbus-monitor --binary`): `Locked`, `Attributes` (with `xdg:schema`, which the
    /// keyring names on every item after a restart, fbauth's own included), `Label`, `Type`,
    /// `Created`, `Modified`.
    static let getAllReply = "6c020101900100000c0000003500000006017300040000003a312e35000000000801670005617b73767d000000000000050175000300000007017300040000003a312e32000000008801000000000000060000004c6f636b656400016200000000000000000000000a000000417474726962757465730005617b73737d0000009b00000000000000040000006b696e64000000000d000000726566726573682d746f6b656e0000000700000070726f6a65637400030000006b6579000000000007000000736572766963650006000000666261757468000008000000757365726e616d650000000002000000753100000a0000007864673a736368656d6100001e0000006f72672e667265656465736b746f702e5365637265742e47656e65726963000000000000050000004c6162656c0001730000000035000000666261757468207265667265736820746f6b656e20666f7220616461406578616d706c652e636f6d20286d792d70726f6a65637429000000000000000400000054797065000173001e0000006f72672e667265656465736b746f702e5365637265742e47656e657269630000070000004372656174656400017400000929086b00000000080000004d6f646966696564000174000929086b00000000"

    /// `stdbuf -oL secret-tool search --all service fbauth` on the same item (stdout and
    /// stderr in one stream: the attributes come on stderr).
    static let searchOutput = """
        [/1]
        label = fbauth refresh token for ada@example.com (my-project)
        secret = tok
        created = 2026-11-26 12:41:45
        modified = 2026-11-26 12:41:45
        schema = org.freedesktop.Secret.Generic
        attribute.project = key
        attribute.service = fbauth
        attribute.kind = refresh-token
        attribute.username = u1

        """

    /// The attributes the keyring adds of its own, read from the recorded reply: what every
    /// item carries after a restart besides what its writer gave it.
    static var addedByTheKeyring: [String: String] {
        guard case .some(.some(let decoded)) = DBusMessage.decode(DBusMessageTests.bytes(getAllReply)) else { return [:] }
        let written = ["service": "fbauth", "username": "u1", "project": "key", "kind": "refresh-token"]
        return SecretService.itemProperties(decoded.message.body).attributes.filter { written[$0.key] == nil }
    }
}
