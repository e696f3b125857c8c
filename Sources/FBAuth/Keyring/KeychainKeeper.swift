#if canImport(Security)
import Foundation
import Security

/// The macOS Keychain behind the same seam as the Secret Service: one generic password per
/// secret (`kSecClassGenericPassword`), service `fbauth`, its account naming the item's
/// attributes (`KIND UID TENANT PROJECT`: none of them holds a space), its label the one a
/// person reads in Keychain Access. No call may show a dialog (`kSecUseAuthenticationUIFail`):
/// a Keychain that would ask is reported, as a locked Secret Service is.
///
/// Compiled and run on macOS only; this machine's tests cover the seam with the Secret Service
/// and a keyring in memory.
struct KeychainKeeper: SecretKeeper {
    func probe() throws(FBAuthError) -> String {
        var query = baseQuery()
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        let status = SecItemCopyMatching(query as CFDictionary, nil)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw Self.error(status) }
        return "the login Keychain"
    }

    func store(_ secret: String, as item: KeyringItem) throws(FBAuthError) {
        let query = baseQuery(item)
        let values: [String: Any] = [kSecValueData as String: Data(secret.utf8), kSecAttrLabel as String: item.label]
        var status = SecItemUpdate(query as CFDictionary, values as CFDictionary)
        if status == errSecItemNotFound {
            status = SecItemAdd(query.merging(values) { $1 } as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw Self.error(status) }
    }

    func secret(of item: KeyringItem) throws(FBAuthError) -> String? {
        var query = baseQuery(item)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else { throw Self.error(status) }
        return String(data: data, encoding: .utf8)
    }

    func delete(_ item: KeyringItem) throws(FBAuthError) {
        let status = SecItemDelete(baseQuery(item) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw Self.error(status) }
    }

    func listed() throws(FBAuthError) -> [[String: String]] {
        var query = baseQuery()
        query[kSecReturnAttributes as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess, let found = result as? [[String: Any]] else { throw Self.error(status) }
        return found.compactMap { ($0[kSecAttrAccount as String] as? String).flatMap(KeychainAccount.attributes(of:)) }
    }

    private func baseQuery(_ item: KeyringItem? = nil) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: KeyringItem.service,
            kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail,
        ]
        if let item { query[kSecAttrAccount as String] = KeychainAccount.name(of: item) }
        return query
    }

    private static func error(_ status: OSStatus) -> FBAuthError {
        if status == errSecInteractionNotAllowed || status == errSecAuthFailed {
            return .store("the Keychain is locked: unlock it (Keychain Access, or log in again) and try again")
        }
        let words = SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "error \(status)"
        return .store("the Keychain refused: \(words)")
    }
}
#endif

/// How a Keychain item's account names a keyring item's attributes: `KIND UID TENANT PROJECT`
/// (`-` for no tenant). None of them holds a space: a uid and a tenant id are letters, digits and
/// hyphens, a project key an API key with, for an emulator, `@emulator:HOST:PORT`.
enum KeychainAccount {
    static func name(of item: KeyringItem) -> String {
        [item.kind.rawValue, item.uid, item.tenantId ?? "-", item.project].joined(separator: " ")
    }

    static func attributes(of account: String) -> [String: String]? {
        let parts = account.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        var attributes = ["service": KeyringItem.service, "kind": parts[0], "username": parts[1], "project": parts[3]]
        if parts[2] != "-" { attributes["tenant"] = parts[2] }
        return attributes
    }
}
