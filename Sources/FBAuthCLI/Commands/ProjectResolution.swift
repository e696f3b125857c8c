#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthSupport

/// Which project a command acts on: `--app-config`, `--project`, `--api-key` or
/// `FIREBASE_API_KEY`, else the project of the last sign-in, each on the emulator of
/// `FIREBASE_AUTH_EMULATOR_HOST` when set. Kept apart from `CommandContext`, which only wires.
extension CommandContext {
    /// Project key, client and tenant together, for commands that talk to Firebase.
    func project() throws(FBAuthError) -> ProjectContext {
        let (key, projectId) = try projectIdentity()
        return ProjectContext(key: key, client: try client(for: key), tenantId: globals.tenantId, projectId: projectId)
    }

    /// The project: API key (flag, app config, then `FIREBASE_API_KEY`) and which server it
    /// lives on; with none of them, the project of the last sign-in (`contents`, when the caller
    /// has read the store already).
    func projectKey(in contents: StoreContents? = nil) throws(FBAuthError) -> ProjectKey {
        try projectIdentity(in: contents).key
    }

    /// Whether the command line or environment names a project (rather than the remembered one).
    var namesProject: Bool {
        globals.appConfig != nil || globals.apiKey != nil || globals.project != nil || !(environment["FIREBASE_API_KEY"] ?? "").isEmpty
    }

    /// The project `--api-key` or `FIREBASE_API_KEY` names, else the remembered one (not for
    /// `--app-config`, which `projectKey` reads).
    func projectChoice() throws(FBAuthError) -> ProjectChoice {
        try ProjectChoice.from(apiKey: globals.apiKey, variable: { environment[$0] })
    }

    /// The project key and, when known, the project id.
    private func projectIdentity(in contents: StoreContents? = nil) throws(FBAuthError) -> (key: ProjectKey, projectId: String?) {
        if let config = settings.appConfig {
            return (ProjectKey(apiKey: config.apiKey, emulatorHost: settings.emulatorHost), config.projectId)
        }
        if let projectId = globals.project {
            let saved: StoreContents
            if let contents { saved = contents } else { saved = try sessionStore().load() }
            return (try saved.project(byId: projectId, onEmulator: settings.emulatorHost,
                                      startsSession: startsSession, fbauth: CommandName.forSuggestions(environment: environment)), projectId)
        }
        let emulatorHost: String?
        switch try projectChoice() {
        case .key(let key): return (key, nil)
        case .remembered(let host): emulatorHost = host
        }
        let saved: StoreContents
        if let contents { saved = contents } else { saved = try sessionStore().load() }
        if let remembered = saved.remembered(onEmulator: emulatorHost) {
            let projectId = saved.project(remembered)?.projectId
            if startsSession {
                // A sign-in that nobody pointed at a project goes where the last one went: say so.
                console.say("Using \(remembered.displayName(projectId: projectId)) from your last sign-in; pass --api-key or FIREBASE_API_KEY for another.")
            }
            return (remembered, projectId)
        }
        // No project named and none known: a command that needs a signed-in user finds
        // nobody (exit 3), one that signs in needs to be told the project (exit 2).
        throw startsSession ? ProjectKey.missing : ProjectKey.nobodySignedIn
    }
}

extension ProjectKey {
    static func resolve(apiKey: String, environment: [String: String]) throws(FBAuthError) -> ProjectKey {
        ProjectKey(apiKey: apiKey, emulatorHost: try FirebaseEndpoints.from(environment: environment).emulatorHost)
    }

    static let nobodySignedIn = FBAuthError.signInAgain("nobody is signed in, and no project is known yet: sign in first (`fbauth signin --provider ID` with FIREBASE_API_KEY set, or --api-key KEY, or --app-config FILE)")

    static let missing = FBAuthError.usage("no Firebase Web API key: set FIREBASE_API_KEY, or pass --app-config FILE (or --api-key KEY) (Firebase console → Project settings → General → Web API key); after a sign-in fbauth remembers the project")
}

extension ProjectChoice {
    /// `apiKey` (from `--api-key`), else `FIREBASE_API_KEY`, names the project; with neither, the
    /// remembered one. Either on the emulator of `FIREBASE_AUTH_EMULATOR_HOST`, when set.
    static func from(apiKey: String?, variable: (String) -> String?) throws(FBAuthError) -> ProjectChoice {
        let emulatorHost = try SettingChecks.emulatorHost(variable("FIREBASE_AUTH_EMULATOR_HOST"))
        guard let apiKey = apiKey ?? variable("FIREBASE_API_KEY").flatMap({ $0.isEmpty ? nil : $0 }) else {
            return .remembered(emulatorHost: emulatorHost)
        }
        if let problem = SettingChecks.apiKeyProblem(apiKey, named: apiKey == variable("FIREBASE_API_KEY") ? "FIREBASE_API_KEY" : "--api-key") { throw problem }
        return .key(ProjectKey(apiKey: apiKey, emulatorHost: emulatorHost))
    }
}

extension StoreContents {
    /// The saved project whose id is `projectId` (on `emulatorHost` when one is given); several
    /// (one id on two emulators) or none are explained with the commands that pick each.
    func project(byId projectId: String, onEmulator emulatorHost: String?, startsSession: Bool, fbauth: String) throws(FBAuthError) -> ProjectKey {
        let matching = projects.values.filter { $0.projectId == projectId && (emulatorHost == nil || $0.emulatorHost == emulatorHost) }
            .map { ProjectKey(apiKey: $0.apiKey, emulatorHost: $0.emulatorHost) }.sorted { $0.storageKey < $1.storageKey }
        if matching.count == 1 { return matching[0] }
        if matching.isEmpty {
            let where_ = emulatorHost.map { " on the emulator at \($0)" } ?? ""
            let message = "fbauth has no sessions for project \(projectId)\(where_); "
            if startsSession { throw .usage(message + "a first sign-in needs its Web API key (FIREBASE_API_KEY, --api-key or --app-config)") }
            throw .signInAgain(message + "sign in first (`\(fbauth) signin --provider ID` with its API key); `\(fbauth) accounts --all` lists the projects fbauth knows")
        }
        throw .usage("project \(projectId) is saved on several servers; pick one: " + matching.map { "`" + ProjectPicker.command(for: $0, projectId: projectId, fbauth: fbauth) + " …`" }.joined(separator: "; or "))
    }

    /// The project commands use when none is named: the last one signed in to; with an emulator
    /// host given, the last one on that emulator.
    func remembered(onEmulator emulatorHost: String?) -> ProjectKey? {
        if let remembered = rememberedProject, remembered.emulatorHost == emulatorHost || emulatorHost == nil {
            return remembered
        }
        guard let emulatorHost else { return nil }
        let candidates = projects.values.filter { $0.emulatorHost == emulatorHost }
        let latest = candidates.max { a, b in
            (a.sessions.map(\.lastSignInTime).max() ?? .distantPast) < (b.sessions.map(\.lastSignInTime).max() ?? .distantPast)
        }
        return latest.map { ProjectKey(apiKey: $0.apiKey, emulatorHost: $0.emulatorHost) }
    }
}
