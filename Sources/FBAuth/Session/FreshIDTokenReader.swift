#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which project's current session a bare `fbauth token` asks for.
package enum ProjectChoice: Sendable, Equatable {
    /// Named by an API key (and emulator), as `FIREBASE_API_KEY` or `--api-key` do.
    case key(ProjectKey)
    /// The remembered project of the last sign-in, when it is on this emulator (nil: any).
    case remembered(emulatorHost: String?)
}

/// What `fbauth token` prints from a saved session.
package struct FreshIDToken: Sendable, Equatable {
    package var idToken: String
    package var expirationTime: Date
    package var uid: String

    package init(idToken: String, expirationTime: Date, uid: String) {
        self.idToken = idToken
        self.expirationTime = expirationTime
        self.uid = uid
    }
}

/// Reads the current session's ID token straight from the bytes of `sessions.json`, for
/// `fbauth token`: it walks the file with `JSONCursor` and builds no `StoreContents`, no
/// Dictionary and no Codable value, whose first use costs the Swift runtime more start-up work
/// than the rest of the command (README, "Speed").
///
/// It answers only the plain case: a well-formed file of a known version, the project found,
/// its current session found, able to refresh and with at least `minValid` seconds left. In
/// every other case it returns nil and the caller takes the full path (`FileSessionStore.load`
/// and `TokenRefresher`), which refreshes or explains — so it never gives an answer the full
/// path would not, and tests hold the two to that.
package enum FreshIDTokenReader {
    package static func read(_ data: UnsafeRawBufferPointer, project: ProjectChoice, minValid: TimeInterval, now: Date) -> FreshIDToken? {
        var cursor = JSONCursor(data)
        var root = RootFields()
        guard cursor.members({ key, cursor in root.read(key, &cursor, project: project) }), cursor.atEnd(),
            let version = root.version, (1...Int64(StoreFile.currentVersion)).contains(version),
            root.chosen.hasCurrentSession, case let session = root.chosen.currentSession, session.refreshToken?.isEmpty == false,
            let idToken = session.idToken, let expiry = session.expirationTime,
            TimeInterval(expiry) - now.timeIntervalSince1970 >= minValid
        else { return nil }
        return FreshIDToken(idToken: idToken, expirationTime: Date(timeIntervalSince1970: TimeInterval(expiry)), uid: session.uid ?? "")
    }

    /// The fields of the file's top level that the answer depends on. Files fbauth writes sort
    /// their keys, so `currentProject` comes before `projects` (and a project's `current` before
    /// its `sessions`); a file in another order is left to the full path.
    private struct RootFields {
        var version: Int64?
        var currentProject: String??
        var projectsSeen = false
        /// The project asked for (no Optional of these structs anywhere here: copying one makes
        /// the runtime build its metadata, the start-up cost this type exists to avoid).
        var chosen = ProjectFields()

        mutating func read(_ key: String, _ cursor: inout JSONCursor, project: ProjectChoice) -> Bool {
            switch key {
            case "version":
                return once(&version) { cursor.integer() }
            case "currentProject":
                return once(&currentProject) { cursor.optionalString() }
            case "projects":
                guard !projectsSeen, let wanted = storageKey(project) else { return false }
                projectsSeen = true
                var found = false
                let complete = cursor.members { name, cursor in
                    guard name == wanted else { return cursor.skipValue() }
                    guard !found else { return false }
                    found = true
                    return cursor.members { key, cursor in chosen.read(key, &cursor) }
                }
                return complete && found && chosen.belongs(to: project, storedAs: wanted)
            default:
                return cursor.skipValue()
            }
        }

        /// The name under `projects` to look in; nil when the remembered project is not known yet.
        private func storageKey(_ project: ProjectChoice) -> String? {
            switch project {
            case .key(let key): key.storageKey
            case .remembered: currentProject ?? nil
            }
        }
    }

    /// One project's fields the answer depends on.
    private struct ProjectFields {
        var apiKey: String?
        var emulatorHost: String??
        var current: SessionReference??
        var sessionsSeen = false
        /// The first session with the current reference, as `StoreContents.currentSession` picks.
        var currentSession = SessionFields()
        var hasCurrentSession = false

        mutating func read(_ key: String, _ cursor: inout JSONCursor) -> Bool {
            switch key {
            case "apiKey":
                return once(&apiKey) { cursor.string() }
            case "emulatorHost":
                return once(&emulatorHost) { cursor.optionalString() }
            case "current":
                guard current == nil else { return false }
                if cursor.literal("null") {
                    current = .some(nil)
                    return true
                }
                var fields = SessionFields()
                guard cursor.members({ key, cursor in fields.read(key, &cursor) }), let reference = fields.reference else { return false }
                current = .some(reference)
                return true
            case "sessions":
                guard !sessionsSeen, let current else { return false }
                sessionsSeen = true
                return cursor.elements { cursor in
                    var session = SessionFields()
                    guard cursor.members({ key, cursor in session.read(key, &cursor) }), let reference = session.reference else { return false }
                    if !hasCurrentSession, reference == current { (currentSession, hasCurrentSession) = (session, true) }
                    return true
                }
            default:
                return cursor.skipValue()
            }
        }

        /// Whether this is the project the full path would pick: for the remembered one, the
        /// entry's own key must name it and be on the emulator asked for.
        func belongs(to project: ProjectChoice, storedAs name: String) -> Bool {
            guard let apiKey, sessionsSeen else { return false }
            guard case .remembered(let host) = project else { return true }
            let key = ProjectKey(apiKey: apiKey, emulatorHost: emulatorHost ?? nil)
            return key.storageKey == name && (host == nil || key.emulatorHost == host)
        }
    }

    /// The fields of a session (or of the `current` reference) the answer depends on.
    private struct SessionFields {
        var uid: String?
        /// Absent and `null` both mean no tenant.
        var tenantId: String??
        var idToken: String?
        var refreshToken: String?
        /// Seconds since 1970 (no `Date` here: a struct holding one has no layout the compiler
        /// knows, and copying it asks the runtime for metadata).
        var expirationTime: Int?

        var reference: SessionReference? { uid.map { SessionReference(uid: $0, tenantId: tenantId ?? nil) } }

        mutating func read(_ key: String, _ cursor: inout JSONCursor) -> Bool {
            switch key {
            case "uid":
                return once(&uid) { cursor.string() }
            case "tenantId":
                return once(&tenantId) { cursor.optionalString() }
            case "idToken":
                return once(&idToken) { cursor.string() }
            case "refreshToken":
                return once(&refreshToken) { cursor.string() }
            case "expirationTime":
                return once(&expirationTime) { cursor.string().flatMap(Timestamp.secondsSince1970) }
            default:
                return cursor.skipValue()
            }
        }
    }
}

extension FreshIDTokenReader {
    /// Sets `field` to `value()`: false when a duplicate key set it already (the full decoder
    /// and this reader might then disagree on which one counts) or the value has another type.
    fileprivate static func once<Value>(_ field: inout Value?, _ value: () -> Value?) -> Bool {
        guard field == nil, let read = value() else { return false }
        field = read
        return true
    }
}

extension JSONCursor {
    /// `.some(nil)` for `null`, `.some(text)` for a string, nil for anything else.
    mutating func optionalString() -> String?? {
        if literal("null") { return .some(nil) }
        return string().map { .some($0) }
    }
}

extension FreshIDToken {
    package init(_ session: Session) {
        self.init(idToken: session.idToken, expirationTime: session.expirationTime, uid: session.uid)
    }
}
