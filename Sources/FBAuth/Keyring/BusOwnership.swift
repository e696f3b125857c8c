/// Whose bus and whose keyring a connection reaches. `DBUS_SESSION_BUS_ADDRESS` often outlives
/// its bus (tmux, screen, a user unit, an old `dbus-launch`), and another local user can bind
/// the address it names: an abstract name is anyone's to take, and a path in a shared
/// directory may be recreated. So the process at the other end of the socket is asked of the
/// kernel (`SO_PEERCRED`), a socket file's owner is checked, and on the bus the owner of
/// `org.freedesktop.secrets` is asked of the bus (`GetConnectionUnixUser`) before any secret
/// is sent: each must be the user, or root (a system-wide broker; root can read everything
/// anyway).
enum BusOwnership: Equatable {
    /// The process serving the socket runs as another user.
    case peer(UInt32)
    /// The kernel did not say who serves the socket.
    case unknownPeer
    /// The socket file belongs to another user (or is gone).
    case socketFile(UInt32?)
    /// The Secret Service on the bus is run by another user.
    case secretService(UInt32)

    /// Why a bus served by `peer`, through a socket file owned by `socketFile` (nil: an
    /// abstract address, which has no file), cannot be trusted by `user`; nil when it can.
    static func distrust(peer: UInt32?, socketFile: UInt32??, user: UInt32) -> BusOwnership? {
        guard let peer else { return .unknownPeer }
        guard isTrusted(peer, by: user) else { return .peer(peer) }
        if case .some(let owner) = socketFile, owner.map({ isTrusted($0, by: user) }) != true { return .socketFile(owner) }
        return nil
    }

    static func isTrusted(_ uid: UInt32, by user: UInt32) -> Bool { uid == user || uid == 0 }

    /// The reason, for "no keyring: …" and status.
    func reason(address: String) -> String {
        switch self {
        case .peer(let uid): "the D-Bus session bus at \(address) is run by another user (uid \(uid)), not by you"
        case .unknownPeer: "the kernel does not say who runs the D-Bus session bus at \(address)"
        case .socketFile(let uid?): "the D-Bus session bus's socket \(address) belongs to another user (uid \(uid))"
        case .socketFile(nil): "the D-Bus session bus's socket \(address) cannot be checked"
        case .secretService(let uid): "the Secret Service on the D-Bus session bus is run by another user (uid \(uid)), not by you"
        }
    }
}
