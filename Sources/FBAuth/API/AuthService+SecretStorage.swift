/// Where the secrets of this config directory's sessions are kept, and moving them.
extension AuthService {
    /// Moves the secrets of every saved session (of every project in this config directory) to
    /// `target`, and makes it the place for new ones: to the keyring, each is written there
    /// before the file stops holding it; to the file, the other way round.
    package func moveSecrets(to target: SecretStorage) throws(FBAuthError) -> SecretMoveReport {
        let move = try store.moveSecrets(to: target)
        return SecretMoveReport(moved: move.moved, pendingCredentials: move.pendingCredentials, alreadyThere: move.alreadyThere,
                                missing: move.missing, notRemoved: move.notRemoved)
    }

    /// The place new secrets go when the settings name none: remembered in the config
    /// directory (chosen on the first sign-in); nil until then.
    package var rememberedSecretStorage: SecretStorage? { (try? store.load())?.secretStorage }

    /// Keyring items that disagree with the saved sessions: a session whose item is gone (it
    /// must be signed in again) and an item no session uses (left by a crash or another
    /// copy of the config directory). Empty when every secret is in the file.
    ///
    /// When no saved session uses the keyring, items left there (by a migration or sign-out
    /// that was cut short) are still listed when a keyring answers; one that cannot be reached
    /// then is no problem.
    package func keyringProblems() throws(FBAuthError) -> [KeyringProblem] {
        let contents = try store.load()
        let usesKeyring = contents.projects.values.contains { $0.sessions.contains { !$0.kindsInKeyring.isEmpty } || $0.pendingCredential?.isInKeyring == true }
        let audit: KeyringAudit
        do {
            audit = try store.audit()
        } catch {
            guard usesKeyring || contents.secretStorage == .keyring else { return [] }
            throw error
        }
        return audit.missing.map { KeyringProblem(kind: .missing, attributes: $0) }
            + audit.orphaned.map { KeyringProblem(kind: .orphaned, attributes: $0, sharesAttributesWithUsedItem: audit.sharingAttributes.contains($0)) }
            + audit.leftover.map { KeyringProblem(kind: .leftover, attributes: $0, sharesAttributesWithUsedItem: audit.sharingAttributes.contains($0)) }
    }
}

/// What `AuthService.moveSecrets(to:)` did.
package struct SecretMoveReport: Sendable, Equatable {
    /// How many sessions had a secret moved.
    package let moved: Int
    /// How many pending provider credentials had their tokens moved.
    package let pendingCredentials: Int
    /// How many sessions kept their secrets where they were, already in the target place.
    package let alreadyThere: Int
    /// The users (email, else uid) whose secret was no longer in the keyring: they sign in again.
    package let missing: [String]
    /// Keyring items that stayed although their secret moved to the file: each named, with
    /// why and how to remove it.
    package let notRemoved: [String]
}

/// A keyring item that disagrees with the saved sessions.
package struct KeyringProblem: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// A saved session's secret is not in the keyring (its item was deleted).
        case missing
        /// An item of fbauth's that no saved session uses.
        case orphaned
        /// A copy of a secret that sessions.json keeps now (a migration or fallback was cut
        /// short): safe to remove.
        case leftover
    }

    package let kind: Kind
    /// fbauth's attributes of the item (`service`, `username`, `project`, `tenant`, `kind`):
    /// names, never secrets. Attributes the keyring or another program added are left out.
    package let attributes: [String: String]
    /// An orphan whose attributes an item in use also carries: a `secret-tool clear` with them
    /// would delete that item too, so none is offered.
    package let sharesAttributesWithUsedItem: Bool

    init(kind: Kind, attributes: [String: String], sharesAttributesWithUsedItem: Bool = false) {
        self.kind = kind
        self.attributes = attributes
        self.sharesAttributesWithUsedItem = sharesAttributesWithUsedItem
    }

    /// The user's uid, as the item names it.
    package var uid: String { attributes["username"] ?? "" }
    /// Which secret: "refresh token", "X token secret".
    package var secretName: String { (attributes["kind"].flatMap(KeyringItem.Kind.init(rawValue:))?.words) ?? "secret" }
    /// The `secret-tool` arguments that find the item, quoted for a shell:
    /// `kind 'refresh-token' project 'KEY' service 'fbauth' username 'UID'`.
    package var secretToolArguments: String { KeyringItem.secretToolArguments(attributes) }
}
