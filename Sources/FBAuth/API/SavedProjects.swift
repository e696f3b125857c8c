#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport

/// A project with sessions in a config directory: its Web API key, its emulator, its id when
/// known. `AuthService(settings:)` with these is that project's view of its users.
package struct SavedProject: Sendable, Equatable {
    package let apiKey: String
    package let emulatorHost: String?
    package let projectID: String?

    var key: ProjectKey { ProjectKey(apiKey: apiKey, emulatorHost: emulatorHost) }

    /// "project my-project (emulator 127.0.0.1:9099)", or by the API key's end while its id is
    /// not known.
    package var description: String { key.displayName(projectId: projectID) }

    /// "my-project (key …abc123, emulator 127.0.0.1:9099)", for lists.
    package var label: String { key.label(projectId: projectID) }

    package static func == (a: SavedProject, b: SavedProject) -> Bool { a.key == b.key }

    /// The same project as the emulator at `host` serves it now (for messages), when it is
    /// an emulator's.
    package func servedBy(_ host: String?) -> SavedProject {
        guard let host, emulatorHost != nil else { return self }
        return SavedProject(apiKey: apiKey, emulatorHost: host, projectID: projectID)
    }
}

/// Every project with sessions in one config directory (`sessions.json`), read once, and the
/// one a program uses when none is named: the project signed in to last. The SDK has one app
/// and one project; a command line keeps them all, as `gh` keeps hosts.
package struct SavedProjects: Sendable {
    /// Sorted by API key, then emulator.
    package let all: [SavedProject]
    /// Where the sessions are kept (the path of `sessions.json`).
    package let location: String
    let contents: StoreContents
    /// Whether an emulator answers at `host:port` (`AuthHost.emulatorRunning`).
    let emulatorRunning: @Sendable (String) -> Bool

    /// Reads the sessions of `configDirectory` (nil: `$FBAUTH_CONFIG_DIR`, else
    /// `$XDG_CONFIG_HOME/fbauth`, else `~/.config/fbauth`, as `AuthService`).
    /// The config directory `configDirectory` names, else `$FBAUTH_CONFIG_DIR`, else
    /// `$XDG_CONFIG_HOME/fbauth`, else `~/.config/fbauth`, as an absolute path.
    package static func directory(configDirectory: String?, environment: [String: String]) -> String {
        Platform.absolutePath(FileSessionStore.directory(option: configDirectory, environment: environment))
    }

    package static func read(configDirectory: String?, environment: [String: String],
                            emulatorRunning: (@Sendable (String) -> Bool)? = nil) throws(FBAuthError) -> SavedProjects {
        let store = FileSessionStore(directory: Platform.absolutePath(FileSessionStore.directory(option: configDirectory, environment: environment)))
        return SavedProjects(contents: try store.load(), location: store.location, emulatorRunning: emulatorRunning ?? EmulatorHosts.isRunning)
    }

    init(contents: StoreContents, location: String, emulatorRunning: @escaping @Sendable (String) -> Bool = EmulatorHosts.isRunning) {
        self.contents = contents
        self.location = location
        self.emulatorRunning = emulatorRunning
        all = contents.projects.values.map { SavedProject(apiKey: $0.apiKey, emulatorHost: $0.emulatorHost, projectID: $0.projectId) }
            .sorted { $0.key.storageKey < $1.key.storageKey }
    }

    /// The project of `apiKey` on `emulatorHost`, with its id when one is known: on an
    /// emulator, the saved project it is (under another name of the emulator, or left by one
    /// that has stopped), as `AuthService` finds it.
    package func project(apiKey: String, emulatorHost: String?) -> SavedProject {
        let key = contents.resolve(ProjectKey(apiKey: apiKey, emulatorHost: emulatorHost), isRunning: emulatorRunning)
        if let stored = key.storedAs.flatMap({ contents.projects[$0] }) {
            return SavedProject(apiKey: stored.apiKey, emulatorHost: stored.emulatorHost, projectID: stored.projectId)
        }
        return SavedProject(apiKey: apiKey, emulatorHost: emulatorHost, projectID: contents.project(key)?.projectId)
    }

    /// Whether `project` is the one `apiKey` names on `emulatorHost` (see `project(apiKey:emulatorHost:)`).
    package func isProject(_ project: SavedProject, apiKey: String, emulatorHost: String?) -> Bool {
        self.project(apiKey: apiKey, emulatorHost: emulatorHost) == project
    }

    /// The projects whose id is `projectID` (on `emulatorHost` when one is given: under any of
    /// its names, else the latest one left by an emulator that has stopped).
    package func projects(withID projectID: String, onEmulator emulatorHost: String?) -> [SavedProject] {
        let named = all.filter { $0.projectID == projectID }
        guard let emulatorHost else { return named }
        let here = named.filter { $0.emulatorHost.map { EmulatorHosts.same($0, emulatorHost) } ?? false }
        if !here.isEmpty { return here }
        let gone = named.filter { $0.emulatorHost.map { !emulatorRunning($0) } ?? false }
        return gone.max { lastUsed($0) < lastUsed($1) }.map { [$0] } ?? []
    }

    /// The project signed in to (or switched to) last; with an emulator host given, the last
    /// one on that emulator (under any of its names, else left by one that has stopped).
    package func remembered(onEmulator emulatorHost: String?) -> SavedProject? {
        if let remembered = contents.rememberedProject,
           emulatorHost == nil || remembered.emulatorHost.map({ EmulatorHosts.same($0, emulatorHost!) }) == true {
            return project(apiKey: remembered.apiKey, emulatorHost: remembered.emulatorHost)
        }
        guard let emulatorHost else { return nil }
        let emulated = contents.projects.values.filter { $0.emulatorHost != nil }
        let here = emulated.filter { EmulatorHosts.same($0.emulatorHost!, emulatorHost) }
        let candidates = here.isEmpty ? emulated.filter { !emulatorRunning($0.emulatorHost!) } : here
        return candidates.max { $0.lastUsed < $1.lastUsed }.map { SavedProject(apiKey: $0.apiKey, emulatorHost: $0.emulatorHost, projectID: $0.projectId) }
    }

    private func lastUsed(_ project: SavedProject) -> Date { contents.project(project.key)?.lastUsed ?? .distantPast }

    /// The projects saved by an emulator that no longer answers: their sessions cannot be used
    /// there again (`fbauth prune` removes them).
    package var onStoppedEmulators: [SavedProject] {
        all.filter { $0.emulatorHost.map { !emulatorRunning($0) } ?? false }
    }

    /// Whether the emulator `project` was saved with has stopped (false for production).
    package func emulatorStopped(_ project: SavedProject) -> Bool {
        project.emulatorHost.map { !emulatorRunning($0) } ?? false
    }

    /// The emails and uids of every saved user, each once (for shell completion).
    package var userNames: [String] {
        var seen = Set<String>()
        return contents.projects.values.flatMap(\.sessions).flatMap { [$0.email, $0.uid].compactMap { $0 } }.filter { seen.insert($0).inserted }
    }
}

extension AuthService {
    /// Signs `user` out on this machine; when it was the current user, the saved user who signed
    /// in most recently becomes current (as `gh auth logout` does) and is returned.
    package func signOut(_ user: SignedInUser) throws(FBAuthError) -> SignedInUser? {
        try store.update { (contents: inout StoreContents) throws(FBAuthError) -> SignedInUser? in
            let session = try contents.session(.exactly(user.reference), in: project)
            return contents.removePromotingNext(session.reference, in: project).map { SignedInUser($0, auth: self) }
        }
    }

    /// Signs every saved user of this project out on this machine; the users signed out.
    package func signOutAll() throws(FBAuthError) -> [SignedInUser] {
        try store.update { (contents: inout StoreContents) throws(FBAuthError) -> [SignedInUser] in
            let sessions = contents.project(project)?.sessions ?? []
            sessions.forEach { contents.remove($0.reference, in: project) }
            return sessions.map { SignedInUser($0, auth: self) }
        }
    }
}

extension SignedInUser {
    /// Whether `other` is this same user (uid and tenant) of the same project.
    package func isSameUser(as other: SignedInUser) -> Bool {
        reference == other.reference && auth.project == other.auth.project
    }
}

extension SessionMemory {
    /// The projects with sessions in memory, as `SavedProjects.read` lists a config directory's.
    package var savedProjects: SavedProjects { SavedProjects(contents: read(), location: MemorySessionFile.location) }
}
