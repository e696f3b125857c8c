/// Which Firebase project (and which server) sessions belong to. Sessions from an Auth
/// emulator are kept apart from production ones, even with the same API key.
internal struct ProjectKey: Hashable, Sendable {
    internal var apiKey: String
    internal var emulatorHost: String?
    /// The `storageKey` of the saved project this one is, when it was saved under another name
    /// of its emulator, or by an emulator that has stopped (`StoreContents.resolve`).
    internal var storedAs: String?
    /// The app of the SDK's API whose current session this key reads and sets, for an app
    /// other than the default one: as firebase-ios-sdk keeps the stored user by app name, two
    /// apps of one project keep a current user each. Nil: the project's own current session,
    /// which the command line and the default app share. Not part of the key's identity: every
    /// app of a project sees the same saved sessions.
    internal var app: String?

    internal init(apiKey: String, emulatorHost: String?, app: String? = nil) {
        self.apiKey = apiKey
        self.emulatorHost = emulatorHost
        self.app = app
    }

    /// The key of this project in `sessions.json`: the API key, then for an emulator
    /// `emulatorSeparator` and its host (the one it was first saved with).
    internal var storageKey: String { storedAs ?? emulatorHost.map { "\(apiKey)\(Self.emulatorSeparator)\($0)" } ?? apiKey }

    /// One stored project is one project, whichever name of its emulator reached it.
    static func == (a: ProjectKey, b: ProjectKey) -> Bool { a.storageKey == b.storageKey }
    func hash(into hasher: inout Hasher) { hasher.combine(storageKey) }

    static let emulatorSeparator: StaticString = "@emulator:"

    /// Whether `name` is the `storageKey` of this API key and emulator host, all as bytes.
    static func isStorageKey(_ name: UnsafeRawBufferPointer, apiKey: UnsafeRawBufferPointer, emulatorHost: UnsafeRawBufferPointer?) -> Bool {
        guard let emulatorHost else { return name.elementsEqual(apiKey) }
        let separator = emulatorSeparator.bytes
        guard name.count == apiKey.count + separator.count + emulatorHost.count else { return false }
        let hostStart = apiKey.count + separator.count
        return name[..<apiKey.count].elementsEqual(apiKey) && name[apiKey.count..<hostStart].elementsEqual(separator)
            && name[hostStart...].elementsEqual(emulatorHost)
    }

    /// How messages name the project without printing the whole API key: the project id when
    /// known, the key's last six characters, and the emulator, if any.
    /// How messages name the project: `project my-project`, `project fbauth-stand-in
    /// (emulator 127.0.0.1:9099)`, or by the API key's end while its id is not known yet.
    internal func displayName(projectId: String?) -> String {
        let name = projectId.flatMap { IDTokenClaims.isProjectID($0) ? "project " + $0 : nil } ?? "the project of API key …" + String(apiKey.suffix(6))
        return name + (emulatorHost.map { " (emulator \($0))" } ?? "")
    }

    internal func label(projectId: String?) -> String {
        let details = ["key …" + String(apiKey.suffix(6))] + (emulatorHost.map { ["emulator \($0)"] } ?? [])
        return (projectId ?? "project") + " (" + details.joined(separator: ", ") + ")"
    }
}

/// Names one session of a project: tenant + uid.
internal struct SessionReference: Codable, Hashable, Sendable {
    internal var uid: String
    internal var tenantId: String?

    internal init(uid: String, tenantId: String?) {
        self.uid = uid
        self.tenantId = tenantId
    }
}

/// The saved state of one project: its sessions and which one is current.
internal struct ProjectState: Codable, Sendable, Equatable {
    internal var apiKey: String
    internal var emulatorHost: String?
    /// The Firebase project id, once an app config file has named it.
    internal var projectId: String?
    internal var current: SessionReference?
    /// The current session of each app other than the default (`ProjectKey.app`).
    internal var appCurrent: [String: SessionReference]?
    internal var sessions: [Session]
    /// Saved by a sign-in that ended with "account exists with different credential".
    internal var pendingCredential: PendingCredential?
    /// Flows started with `--print-url`, waiting for `--complete`.
    internal var pendingFlows: [PendingFlow]?
    /// The App Check token of the last debug-token exchange, used until shortly before it
    /// expires (it lives an hour at most, as an ID token does, and is kept beside them).
    internal var appCheck: ExchangedAppCheckToken?

    internal init(key: ProjectKey) {
        apiKey = key.apiKey
        emulatorHost = key.emulatorHost
        sessions = []
    }
}

/// Everything in `sessions.json`, as values.
internal struct StoreContents: Sendable, Equatable {
    internal var projects: [String: ProjectState]
    /// The project of the last sign-in (or `use`): commands that name no project act on it.
    internal var currentProject: String?
    /// Where new secrets go when the run names no place: chosen once, on the first sign-in
    /// (the keyring when one answers), or by the user; nil until then.
    internal var secretStorage: SecretStorage?

    internal init(projects: [String: ProjectState] = [:], currentProject: String? = nil, secretStorage: SecretStorage? = nil) {
        self.projects = projects
        self.currentProject = currentProject
        self.secretStorage = secretStorage
    }

    /// The remembered project, when it still exists.
    internal var rememberedProject: ProjectKey? {
        guard let name = currentProject, let state = projects[name] else { return nil }
        return ProjectKey(apiKey: state.apiKey, emulatorHost: state.emulatorHost)
    }

    internal func project(_ key: ProjectKey) -> ProjectState? { projects[key.storageKey] }

    internal func currentSession(of key: ProjectKey) -> Session? {
        guard let project = project(key), let current = project.current(of: key.app) else { return nil }
        return project.sessions.first { $0.reference == current }
    }

    /// Saves (adds or replaces) a session; other sessions are kept.
    internal mutating func save(_ session: Session, in key: ProjectKey, makeCurrent: Bool) {
        var project = projects[key.storageKey] ?? ProjectState(key: key)
        if let index = project.sessions.firstIndex(where: { $0.reference == session.reference }) {
            var session = session
            // A new sign-in of the same user still owns the files written for the old one.
            if session.writtenFiles == nil { session.writtenFiles = project.sessions[index].writtenFiles }
            project.sessions[index] = session
        } else {
            project.sessions.append(session)
        }
        if makeCurrent {
            project.setCurrent(session.reference, of: key.app)
            // The project the command line uses when none is named follows the default app only.
            if key.app == nil { currentProject = key.storageKey }
        }
        projects[key.storageKey] = project
    }
}

extension Session {
    internal var reference: SessionReference { SessionReference(uid: uid, tenantId: tenantId) }
}

extension StoreContents {
    /// Changes the project's state, creating it when needed.
    internal mutating func modifyProject(_ key: ProjectKey, _ change: (inout ProjectState) -> Void) {
        var project = projects[key.storageKey] ?? ProjectState(key: key)
        change(&project)
        projects[key.storageKey] = project
    }
}

extension StoreContents {
    /// The sessions of these contents that `after` no longer has.
    func sessionsGone(in after: StoreContents) -> [Session] {
        projects.flatMap { key, project in
            project.sessions.filter { session in after.projects[key]?.sessions.contains { $0.reference == session.reference } != true }
        }
    }
}

extension ProjectState {
    /// The current session of `app` (`ProjectKey.app`; nil: the project's own).
    internal func current(of app: String?) -> SessionReference? {
        guard let app else { return current }
        return appCurrent?[app]
    }

    internal mutating func setCurrent(_ reference: SessionReference?, of app: String?) {
        guard let app else {
            current = reference
            return
        }
        var apps = appCurrent ?? [:]
        apps[app] = reference
        appCurrent = apps.isEmpty ? nil : apps
    }

    /// Forgets `reference` as any app's current session (it is no longer saved).
    internal mutating func forgetCurrent(_ reference: SessionReference) {
        if current == reference { current = nil }
        guard let apps = appCurrent else { return }
        let kept = apps.filter { $0.value != reference }
        appCurrent = kept.isEmpty ? nil : kept
    }
}
