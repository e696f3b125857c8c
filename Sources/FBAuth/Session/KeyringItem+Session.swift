#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport

// What of a session goes to the keyring, and under which item.

extension KeyringItem {
    /// The item of one of a session's secrets, in the project stored as `key`.
    init(_ kind: Kind, of session: Session, in key: String, projectId: String?) {
        self.init(kind: kind, uid: session.uid, tenantId: session.tenantId, project: key, userLabel: session.displayLabel,
                  projectLabel: Self.projectLabel(key, projectId: projectId))
    }

    /// The item of a project's pending credential: one per project.
    init(pending: PendingCredential, in key: String, projectId: String?) {
        self.init(kind: .pendingCredential, uid: pending.keyringUser, tenantId: nil, project: key, userLabel: TerminalText.safe(pending.keyringUser),
                  projectLabel: Self.projectLabel(key, projectId: projectId))
    }

    /// How the label names the project: its id, else the end of its API key.
    private static func projectLabel(_ key: String, projectId: String?) -> String {
        let apiKey = key.split(separator: "@", maxSplits: 1).first.map(String.init) ?? key
        return projectId ?? "API key …" + String(apiKey.suffix(6))
    }

    /// `service 'fbauth' username 'UID' …`, as `secret-tool` takes them.
    var searchWords: String { Self.secretToolArguments(attributes) }

    /// Attributes as `secret-tool` arguments for a shell, each value single-quoted (a quote in
    /// one, which an item written by another program may hold, closes and reopens the quoting)
    /// and made safe for a terminal.
    static func secretToolArguments(_ attributes: [String: String]) -> String {
        attributes.sorted { $0.key < $1.key }.map { "\(TerminalText.safe($0.key)) '\(TerminalText.safe($0.value).replacing("'", with: "'\\''"))'" }
            .joined(separator: " ")
    }
}

extension PendingCredential.Secrets {
    /// As the keyring item holds them: one JSON object.
    var keyringText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    init(keyringText: String) throws(FBAuthError) {
        do {
            self = try JSONDecoder().decode(Self.self, from: Data(keyringText.utf8))
        } catch {
            throw .store("the keyring's pending-credential item holds something else; sign in with the provider again")
        }
    }
}

extension Session {
    /// The kinds of secret this session keeps in the keyring.
    var kindsInKeyring: [KeyringItem.Kind] {
        (refreshToken == Self.keptInKeyring ? [.refreshToken] : [])
            + KeptCredentialSecret.all.filter { kept in providerCredentials.contains { kept.value($0) == Self.keptInKeyring } }.map(\.kind)
    }
}

/// The secrets of a session's provider credentials that the keyring keeps: an X token secret
/// (useless without it, the access token stays in the file) and an Apple access token (kept to
/// revoke it when the account is deleted).
struct KeptCredentialSecret: Sendable {
    let kind: KeyringItem.Kind
    let value: @Sendable (ProviderCredential) -> String?
    let set: @Sendable (String, inout ProviderCredential) -> Void

    static let all = [
        KeptCredentialSecret(kind: .tokenSecret, value: { $0.secret }, set: { $1.secret = $0 }),
        KeptCredentialSecret(kind: .appleAccessToken, value: { $0.providerId == "apple.com" ? $0.accessToken : nil }, set: { $1.accessToken = $0 }),
    ]
}

extension Session {
    /// Whether it holds a secret the keyring would keep: a refresh token, an X token secret or
    /// an Apple access token (in either place).
    var hasSecrets: Bool {
        !refreshToken.isEmpty || KeptCredentialSecret.all.contains { kept in providerCredentials.contains { kept.value($0) != nil } }
    }
}

extension StoreContents {
    /// Whether any session or pending credential keeps a secret in the keyring.
    var keepsSecretsInKeyring: Bool {
        projects.values.contains { project in
            project.sessions.contains { !$0.kindsInKeyring.isEmpty } || project.pendingCredential?.isInKeyring == true
        }
    }

    /// Every item the keyring could hold for these sessions and pending credentials, of every
    /// kind, whether they keep one there or not.
    var possibleKeyringItems: [KeyringItem] {
        projects.sorted { $0.key < $1.key }.flatMap { key, project in
            project.sessions.flatMap { session in
                [KeyringItem.Kind.refreshToken, .tokenSecret, .appleAccessToken].map { KeyringItem($0, of: session, in: key, projectId: project.projectId) }
            } + (project.pendingCredential.map { [KeyringItem(pending: $0, in: key, projectId: project.projectId)] } ?? [])
        }
    }
}
