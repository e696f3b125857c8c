#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport

/// Which project's current session a bare `fbauth token` asks for.
internal enum ProjectChoice: Sendable, Equatable {
    /// Named by an API key (and emulator), as `FIREBASE_API_KEY` or `--api-key` do.
    case key(ProjectKey)
    /// The remembered project of the last sign-in, when it is on this emulator (nil: any).
    case remembered(emulatorHost: String?)
}

/// A `ProjectChoice` as bytes (of the environment, on `fbauth token`'s quick path).
internal struct ProjectQuery {
    /// The API key naming the project; nil for the remembered project.
    var apiKey: UnsafeRawBufferPointer?
    /// The emulator's `host:port`: nil for production, or with the remembered project for any.
    var emulatorHost: UnsafeRawBufferPointer?
}

/// What `fbauth token` prints from a saved session.
package struct FreshIDToken: Sendable, Equatable {
    package var idToken: String
    package var expirationTime: Date
    package var uid: String

    internal init(idToken: String, expirationTime: Date, uid: String) {
        self.idToken = idToken
        self.expirationTime = expirationTime
        self.uid = uid
    }
}

/// The same as bytes of `sessions.json`, valid while they are.
package struct FreshIDTokenBytes {
    package var idToken: UnsafeRawBufferPointer
    package var uid: UnsafeRawBufferPointer
    /// Seconds since 1970.
    package var expirationTime: Int
}

/// Reads the current session's ID token straight from the bytes of `sessions.json`, for
/// `fbauth token`: it walks the file with `JSONCursor` and keeps the keys and values it needs
/// as the file's own bytes. It builds no `StoreContents`, no Dictionary, no Codable value and no
/// String, each of which costs the Swift runtime more one-time work than the rest of the
/// command (docs/speed.md).
///
/// It answers only the plain case: a well-formed file of a known version, the project found,
/// its current session found, able to refresh and with at least `minValid` seconds left, and
/// no escapes in the values it keeps. In every other case it returns nil and the caller takes
/// the full path (`FileSessionStore.load` and `TokenRefresher`), which refreshes or explains —
/// so it never gives an answer the full path would not, and tests hold the two to that.
internal enum FreshIDTokenReader {
    internal static func read(_ data: UnsafeRawBufferPointer, project: ProjectQuery, minValid: TimeInterval, now: Date) -> FreshIDTokenBytes? {
        var cursor = JSONCursor(data)
        var root = RootFields()
        guard cursor.members({ key, cursor in root.read(key, &cursor, project: project) }), cursor.atEnd(),
            let version = root.version, (1...Int64(StoreFile.currentVersion)).contains(version),
            root.chosen.hasCurrentSession, case let session = root.chosen.currentSession, let refreshToken = session.refreshToken,
            !refreshToken.isEmpty, let idToken = session.idToken, let uid = session.uid, let expiry = session.expirationTime,
            TimeInterval(expiry) - now.timeIntervalSince1970 >= minValid, TokenAlphabet.jwt.accepts(bytes: idToken)
        else { return nil }
        return FreshIDTokenBytes(idToken: idToken, uid: uid, expirationTime: expiry)
    }

    /// The same for the full path's `ProjectChoice`, as Strings.
    internal static func read(_ data: UnsafeRawBufferPointer, project: ProjectChoice, minValid: TimeInterval, now: Date) -> FreshIDToken? {
        project.withQuery { query in read(data, project: query, minValid: minValid, now: now).map(FreshIDToken.init) }
    }

    /// The fields of the file's top level that the answer depends on. Files fbauth writes sort
    /// their keys, so `currentProject` comes before `projects` (and a project's `current` before
    /// its `sessions`); a file in another order is left to the full path.
    ///
    /// Every field here is plain bytes or numbers: copying such values needs no type metadata,
    /// which the runtime would otherwise build at the first copy.
    private struct RootFields {
        var version: Int64?
        /// `.some(nil)` for `null`.
        var currentProject: UnsafeRawBufferPointer??
        var projectsSeen = false
        /// The project asked for.
        var chosen = ProjectFields()

        mutating func read(_ key: JSONKey, _ cursor: inout JSONCursor, project: ProjectQuery) -> Bool {
            switch key {
            case "version":
                return once(&version) { cursor.integer() }
            case "currentProject":
                return once(&currentProject) { cursor.optionalString() }
            case "projects":
                guard !projectsSeen else { return false }
                projectsSeen = true
                var chosenName: UnsafeRawBufferPointer?
                let complete = cursor.members { name, cursor in
                    guard case .plain(let name) = name else { return false }  // fbauth writes no escapes there
                    guard let wanted = isWanted(name, project) else { return false }
                    guard wanted else { return cursor.skipValue() }
                    guard chosenName == nil else { return false }
                    chosenName = name
                    return cursor.members { key, cursor in chosen.read(key, &cursor) }
                }
                guard complete, let chosenName else { return false }
                return chosen.belongs(to: project, storedAs: chosenName)
            default:
                return cursor.skipValue()
            }
        }

        /// Whether `name` under `projects` is the one to look in; nil when the remembered
        /// project is not known yet.
        private func isWanted(_ name: UnsafeRawBufferPointer, _ project: ProjectQuery) -> Bool? {
            if let apiKey = project.apiKey { return ProjectKey.isStorageKey(name, apiKey: apiKey, emulatorHost: project.emulatorHost) }
            guard case .some(.some(let remembered)) = currentProject else { return nil }
            return name.elementsEqual(remembered)
        }
    }

    /// One project's fields the answer depends on.
    private struct ProjectFields {
        var apiKey: UnsafeRawBufferPointer?
        var emulatorHost: UnsafeRawBufferPointer??
        /// The current session's reference, `.some(nil)` for `null`.
        var current: SessionFields??
        var sessionsSeen = false
        /// The first session with the current reference, as `StoreContents.currentSession` picks.
        var currentSession = SessionFields()
        var hasCurrentSession = false

        mutating func read(_ key: JSONKey, _ cursor: inout JSONCursor) -> Bool {
            switch key {
            case "apiKey":
                return once(&apiKey) { cursor.unescapedString() }
            case "emulatorHost":
                return once(&emulatorHost) { cursor.optionalString() }
            case "current":
                guard current == nil else { return false }
                if cursor.literal("null") {
                    current = .some(nil)
                    return true
                }
                var reference = SessionFields()
                guard cursor.members({ key, cursor in reference.read(key, &cursor) }), reference.uid != nil else { return false }
                current = .some(reference)
                return true
            case "sessions":
                guard !sessionsSeen, let current else { return false }
                sessionsSeen = true
                return cursor.elements { cursor in
                    var session = SessionFields()
                    guard cursor.members({ key, cursor in session.read(key, &cursor) }), session.uid != nil else { return false }
                    if !hasCurrentSession, let current, session.isSession(current) { (currentSession, hasCurrentSession) = (session, true) }
                    return true
                }
            default:
                return cursor.skipValue()
            }
        }

        /// Whether this is the project the full path would pick: for the remembered one, the
        /// entry's own key must name it and be on the emulator asked for.
        func belongs(to project: ProjectQuery, storedAs name: UnsafeRawBufferPointer) -> Bool {
            guard let apiKey, sessionsSeen else { return false }
            guard project.apiKey == nil else { return true }
            let host = emulatorHost ?? nil
            guard ProjectKey.isStorageKey(name, apiKey: apiKey, emulatorHost: host) else { return false }
            guard let wantedHost = project.emulatorHost else { return true }
            return host?.elementsEqual(wantedHost) ?? false
        }
    }

    /// The fields of a session (or of the `current` reference) the answer depends on.
    private struct SessionFields {
        var uid: UnsafeRawBufferPointer?
        /// Absent and `null` both mean no tenant.
        var tenantId: UnsafeRawBufferPointer??
        var idToken: UnsafeRawBufferPointer?
        var refreshToken: UnsafeRawBufferPointer?
        /// Seconds since 1970.
        var expirationTime: Int?

        mutating func read(_ key: JSONKey, _ cursor: inout JSONCursor) -> Bool {
            switch key {
            case "uid":
                return once(&uid) { cursor.unescapedString() }
            case "tenantId":
                return once(&tenantId) { cursor.optionalString() }
            case "idToken":
                return once(&idToken) { cursor.unescapedString() }
            case "refreshToken":
                return once(&refreshToken) { cursor.unescapedString() }
            case "expirationTime":
                return once(&expirationTime) { cursor.unescapedString().flatMap(Timestamp.secondsSince1970) }
            default:
                return cursor.skipValue()
            }
        }

        /// Whether this session is the one `reference` names: the same uid and tenant.
        func isSession(_ reference: SessionFields) -> Bool {
            guard let uid, let wantedUid = reference.uid, uid.elementsEqual(wantedUid) else { return false }
            switch (tenantId ?? nil, reference.tenantId ?? nil) {
            case (nil, nil): return true
            case let (tenant?, wanted?): return tenant.elementsEqual(wanted)
            default: return false
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
    /// `.some(nil)` for `null`, `.some(bytes)` for a string without escapes, nil for anything else.
    mutating func optionalString() -> UnsafeRawBufferPointer?? {
        if literal("null") { return .some(nil) }
        return unescapedString().map { .some($0) }
    }
}

extension ProjectChoice {
    /// Lends the choice to `body` as bytes.
    func withQuery<T>(_ body: (ProjectQuery) -> T) -> T {
        let (apiKey, emulatorHost): (String?, String?) = switch self {
        case .key(let key): (key.apiKey, key.emulatorHost)
        case .remembered(let host): (nil, host)
        }
        return withBytes(of: apiKey) { apiKey in withBytes(of: emulatorHost) { host in body(ProjectQuery(apiKey: apiKey, emulatorHost: host)) } }
    }

    private func withBytes<T>(of text: String?, _ body: (UnsafeRawBufferPointer?) -> T) -> T {
        guard var text else { return body(nil) }
        return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }
}

extension FreshIDToken {
    internal init(_ session: Session) {
        self.init(idToken: session.idToken, expirationTime: session.expirationTime, uid: session.uid)
    }

    internal init(_ token: FreshIDTokenBytes) {
        self.init(idToken: String(decoding: token.idToken, as: UTF8.self),
                  expirationTime: Date(timeIntervalSince1970: TimeInterval(token.expirationTime)),
                  uid: String(decoding: token.uid, as: UTF8.self))
    }
}
