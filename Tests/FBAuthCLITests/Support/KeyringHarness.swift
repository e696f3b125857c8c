import FBAuthStandIn
import TestSupport

extension Harness {
    /// A harness whose fbauth runs on a private session bus with an unlocked gnome-keyring,
    /// and that bus (kept alive by the caller).
    static func onPrivateKeyring(configuration: StandInConfiguration = StandInConfiguration()) throws -> (bus: PrivateBus, harness: Harness) {
        let bus = try PrivateBus()
        try bus.startKeyring()
        let harness = try Harness(configuration: configuration)
        harness.environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        return (bus, harness)
    }
}
