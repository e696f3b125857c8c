#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport

/// A project with sessions in a config directory: its Web API key, its emulator, its id when
/// known. `Auth(settings:)` with these is that project's view of its users.
public struct SavedProject: Sendable, Equatable {
    public let apiKey: String
    public let emulatorHost: String?
    public let projectID: String?

    var key: ProjectKey { ProjectKey(apiKey: apiKey, emulatorHost: emulatorHost) }

    /// "project my-project (emulator 127.0.0.1:9099)", or by the API key's end while its id is
    /// not known.
    public var description: String { key.displayName(projectId: projectID) }

    /// "my-project (key …abc123, emulator 127.0.0.1:9099)", for lists.
    public var label: String { key.label(projectId: projectID) }

    public static func == (a: SavedProject, b: SavedProject) -> Bool { a.key == b.key }
}

/// Every project with sessions in one config directory (`sessions.json`), read once, and the
/// one a program uses when none is named: the project signed in to last. The SDK has one app
/// and one project; a command line keeps them all, as `gh` keeps hosts.
public struct SavedProjects: Sendable {
    /// Sorted by API key, then emulator.
    public let all: [SavedProject]
    /// Where the sessions are kept (the path of `sessions.json`).
    public let location: String
    let contents: StoreContents

    /// Reads the sessions of `configDirectory` (nil: `$FBAUTH_CONFIG_DIR`, else
    /// `$XDG_CONFIG_HOME/fbauth`, else `~/.config/fbauth`, as `Auth`).
    public static func read(configDirectory: String?, environment: [String: String]) throws(FBAuthError) -> SavedProjects {
        let store = FileSessionStore(directory: Platform.absolutePath(FileSessionStore.directory(option: configDirectory, environment: environment)))
        return SavedProjects(contents: try store.load(), location: store.location)
    }

    init(contents: StoreContents, location: String) {
        self.contents = contents
        self.location = location
        all = contents.projects.values.map { SavedProject(apiKey: $0.apiKey, emulatorHost: $0.emulatorHost, projectID: $0.projectId) }
            .sorted { $0.key.storageKey < $1.key.storageKey }
    }

    /// The project of `apiKey` on `emulatorHost`, with its id when one is known.
    public func project(apiKey: String, emulatorHost: String?) -> SavedProject {
        SavedProject(apiKey: apiKey, emulatorHost: emulatorHost,
                     projectID: contents.project(ProjectKey(apiKey: apiKey, emulatorHost: emulatorHost))?.projectId)
    }

    /// The projects whose id is `projectID` (on `emulatorHost` when one is given).
    public func projects(withID projectID: String, onEmulator emulatorHost: String?) -> [SavedProject] {
        all.filter { $0.projectID == projectID && (emulatorHost == nil || $0.emulatorHost == emulatorHost) }
    }

    /// The project signed in to (or switched to) last; with an emulator host given, the last
    /// one on that emulator.
    public func remembered(onEmulator emulatorHost: String?) -> SavedProject? {
        if let remembered = contents.rememberedProject, remembered.emulatorHost == emulatorHost || emulatorHost == nil {
            return project(apiKey: remembered.apiKey, emulatorHost: remembered.emulatorHost)
        }
        guard let emulatorHost else { return nil }
        let latest = contents.projects.values.filter { $0.emulatorHost == emulatorHost }.max { a, b in
            (a.sessions.map(\.lastSignInTime).max() ?? .distantPast) < (b.sessions.map(\.lastSignInTime).max() ?? .distantPast)
        }
        return latest.map { project(apiKey: $0.apiKey, emulatorHost: $0.emulatorHost) }
    }

    /// The emails and uids of every saved user, each once (for shell completion).
    public var userNames: [String] {
        var seen = Set<String>()
        return contents.projects.values.flatMap(\.sessions).flatMap { [$0.email, $0.uid].compactMap { $0 } }.filter { seen.insert($0).inserted }
    }
}

extension Auth {
    /// Signs `user` out on this machine; when it was the current user, the saved user who signed
    /// in most recently becomes current (as `gh auth logout` does) and is returned.
    public func signOut(_ user: User) throws(FBAuthError) -> User? {
        try store.update { (contents: inout StoreContents) throws(FBAuthError) -> User? in
            let session = try contents.session(.exactly(user.reference), in: project)
            let wasCurrent = contents.currentSession(of: project)?.reference == session.reference
            contents.remove(session.reference, in: project)
            guard wasCurrent, let next = contents.project(project)?.sessions.max(by: { $0.lastSignInTime < $1.lastSignInTime }) else { return nil }
            contents.makeCurrent(next.reference, in: project)
            return User(next, auth: self)
        }
    }

    /// Signs every saved user of this project out on this machine; the users signed out.
    public func signOutAll() throws(FBAuthError) -> [User] {
        try store.update { (contents: inout StoreContents) throws(FBAuthError) -> [User] in
            let sessions = contents.project(project)?.sessions ?? []
            sessions.forEach { contents.remove($0.reference, in: project) }
            return sessions.map { User($0, auth: self) }
        }
    }
}

extension User {
    /// Whether `other` is this same user (uid and tenant) of the same project.
    public func isSameUser(as other: User) -> Bool {
        reference == other.reference && auth.project == other.auth.project
    }
}

extension SessionMemory {
    /// The projects with sessions in memory, as `SavedProjects.read` lists a config directory's.
    public var savedProjects: SavedProjects { SavedProjects(contents: read(), location: MemorySessionFile.location) }
}
