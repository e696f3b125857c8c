/// The keyring of this system: the Secret Service on the session bus on Linux, the Keychain
/// on macOS.
enum SystemKeyring {
    static func keeper(environment: [String: String]) -> any SecretKeeper {
#if canImport(Security)
        KeychainKeeper()
#else
        SecretServiceKeeper(busAddress: environment["DBUS_SESSION_BUS_ADDRESS"])
#endif
    }
}
