#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthSupport

/// A resolved project: its API key and server, the tenant and, when known, its id.
struct ProjectContext: Equatable {
    var apiKey: String
    var emulatorHost: String?
    var tenantId: String?
    var projectId: String?

    /// `servedBy`: the emulator that serves the project now, when it is not the one it was
    /// saved with (a session belongs to the project, not to the emulator's host:port).
    init(_ project: SavedProject, tenantId: String?, servedBy: String? = nil) {
        self.init(apiKey: project.apiKey, emulatorHost: project.emulatorHost.map { servedBy ?? $0 }, tenantId: tenantId, projectId: project.projectID)
    }

    init(apiKey: String, emulatorHost: String?, tenantId: String?, projectId: String?) {
        self.apiKey = apiKey
        self.emulatorHost = emulatorHost
        self.tenantId = tenantId
        self.projectId = projectId
    }
}

/// Which project a command acts on: `--app-config`, `--project`, `--api-key` or
/// `FIREBASE_API_KEY`, else the project of the last sign-in, each on the emulator of
/// `FIREBASE_AUTH_EMULATOR_HOST` when set. Kept apart from `CommandContext`, which only wires.
extension CommandContext {
    /// The project, with the tenant; `saved`, when the caller has read the sessions already.
    func project(in saved: SavedProjects? = nil) throws(FBAuthError) -> ProjectContext {
        if let config = settings.appConfig {
            return ProjectContext(apiKey: config.apiKey, emulatorHost: emulatorHost, tenantId: globals.tenantId, projectId: config.projectId)
        }
        if let projectId = globals.project {
            let known: SavedProjects
            if let saved { known = saved } else { known = try savedProjects() }
            return ProjectContext(try project(byId: projectId, in: known), tenantId: globals.tenantId, servedBy: emulatorHost)
        }
        if let apiKey = try namedAPIKey() {
            let projectId = saved?.project(apiKey: apiKey, emulatorHost: emulatorHost).projectID
            return ProjectContext(apiKey: apiKey, emulatorHost: emulatorHost, tenantId: globals.tenantId, projectId: projectId)
        }
        let known: SavedProjects
        if let saved { known = saved } else { known = try savedProjects() }
        if let remembered = known.remembered(onEmulator: emulatorHost) {
            if startsSession {
                // A sign-in that nobody pointed at a project goes where the last one went: say so.
                console.say("Using \(remembered.description) from your last sign-in; pass --api-key or FIREBASE_API_KEY for another.")
            }
            return ProjectContext(remembered, tenantId: globals.tenantId, servedBy: emulatorHost)
        }
        // No project named and none known: a command that needs a signed-in user finds
        // nobody (exit 3), one that signs in needs to be told the project (exit 2).
        if let given = settings.refreshToken {
            throw .usage("\(given.source) needs the API key of its project: set FIREBASE_API_KEY, or pass --api-key KEY or --app-config FILE")
        }
        throw startsSession ? Self.missingProject : Self.nobodySignedIn
    }

    /// `FIREBASE_AUTH_EMULATOR_HOST`: as checked before the command ran, or for the commands that
    /// read no setting (shell completion), taken when it is well-formed.
    var emulatorHost: String? {
        settings.emulatorHost ?? (try? SettingChecks.emulatorHost(environment["FIREBASE_AUTH_EMULATOR_HOST"])) ?? nil
    }

    /// The projects whose emulator is not running, but for the one the emulator of
    /// `FIREBASE_AUTH_EMULATOR_HOST` serves now (restarted elsewhere with the same users).
    func projectsOnStoppedEmulators(in saved: SavedProjects) -> [SavedProject] {
        let served = emulatorHost == nil ? nil : try? project(in: saved)
        return saved.onStoppedEmulators.filter { stopped in
            served.map { !saved.isProject(stopped, apiKey: $0.apiKey, emulatorHost: $0.emulatorHost) } ?? true
        }
    }

    /// Every project with sessions here.
    func savedProjects() throws(FBAuthError) -> SavedProjects {
        if let sessionMemory {
            // A refresh token given is the run's session: listed (status, accounts) once adopted.
            if settings.refreshToken != nil, !startsSession, sessionMemory.savedProjects.all.isEmpty {
                _ = try auth(for: project(in: sessionMemory.savedProjects))
            }
            return sessionMemory.savedProjects
        }
        return try SavedProjects.read(configDirectory: sessionDirectory, environment: environment)
    }

    /// Whether the command line or environment names a project (rather than the remembered one).
    var namesProject: Bool {
        globals.appConfig != nil || globals.apiKey != nil || globals.project != nil || !(environment["FIREBASE_API_KEY"] ?? "").isEmpty
    }

    /// `--api-key`, else `FIREBASE_API_KEY`, checked; nil when neither is given.
    private func namedAPIKey() throws(FBAuthError) -> String? {
        try ProjectNaming.apiKey(option: globals.apiKey, variable: { environment[$0] })
    }

    /// The saved project whose id is `projectId` (on the emulator when one is set); several
    /// (one id on two emulators) or none are explained with the commands that pick each.
    private func project(byId projectId: String, in saved: SavedProjects) throws(FBAuthError) -> SavedProject {
        let matching = saved.projects(withID: projectId, onEmulator: emulatorHost)
        if matching.count == 1 { return matching[0] }
        let fbauth = CommandName.forSuggestions(environment: environment)
        if matching.isEmpty {
            let where_ = emulatorHost.map { " on the emulator at \($0)" } ?? ""
            let message = "fbauth has no sessions for project \(projectId)\(where_); "
            if startsSession { throw .usage(message + "a first sign-in needs its Web API key (FIREBASE_API_KEY, --api-key or --app-config)") }
            throw .signInAgain(message + "sign in first (`\(fbauth) signin --provider ID` with its API key); `\(fbauth) accounts --all` lists the projects fbauth knows")
        }
        throw .usage("project \(projectId) is saved on several servers; pick one: " + matching.map { "`" + ProjectPicker.command(for: $0, fbauth: fbauth) + " …`" }.joined(separator: "; or "))
    }

    static let nobodySignedIn = FBAuthError.signInAgain("nobody is signed in, and no project is known yet: sign in first (`fbauth signin --provider ID` with FIREBASE_API_KEY set, or --api-key KEY, or --app-config FILE)")

    static let missingProject = FBAuthError.usage("no Firebase Web API key: set FIREBASE_API_KEY, or pass --app-config FILE (or --api-key KEY) (Firebase console → Project settings → General → Web API key); after a sign-in fbauth remembers the project")
}

/// The rule for the project the command line names, apart from the store: `fbauth token`'s quick
/// path (`QuickTokenRead`) follows the same, and the tests hold the two to the same answers.
enum ProjectNaming {
    /// `option` (`--api-key`), else `FIREBASE_API_KEY`, checked; nil: the remembered project.
    static func apiKey(option: String?, variable: (String) -> String?) throws(FBAuthError) -> String? {
        let fromVariable = variable("FIREBASE_API_KEY").flatMap { $0.isEmpty ? nil : $0 }
        guard let apiKey = option ?? fromVariable else { return nil }
        if let problem = SettingChecks.apiKeyProblem(apiKey, named: apiKey == fromVariable ? "FIREBASE_API_KEY" : "--api-key") { throw problem }
        return apiKey
    }
}
