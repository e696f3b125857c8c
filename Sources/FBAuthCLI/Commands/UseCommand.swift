import FBAuth
import FBAuthSupport
/// `fbauth use UID-or-EMAIL`: switches the current session, and the current project when the
/// session belongs to another one.
enum UseCommand: RunnableCommand {
    static let spec = CommandSpec(
        name: "use",
        summary: "Make another saved session the current one (of its project, which becomes current too).",
        usage: ["UID-or-EMAIL"],
        positionals: [PositionalSpec("UID-or-EMAIL", help: "The uid or email of a saved session (see `fbauth accounts --all`).")],
        details: """
            Looks in the current project first, then in every project fbauth has sessions for; a \
            session of another project makes that project the one commands use.
            """)

    struct Options: Equatable {
        /// The uid or email of the session to switch to.
        var name: String
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        guard let name = arguments.positionals.first, !name.trimmed().isEmpty else { throw .usage("missing UID-or-EMAIL: which saved session to use (see `fbauth accounts`)") }
        return Options(name: name)
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        let name = options.name
        let saved = try context.savedProjects()
        let current = try? context.project(in: saved)
        if let current {
            let auth = try context.auth(for: current)
            do throws(FBAuthError) {
                let user = try auth.savedUser(name)
                try auth.updateCurrentUser(user)
                return say(user, on: saved.project(apiKey: current.apiKey, emulatorHost: current.emulatorHost), context)
            } catch where error.exitCode == .usage {
                throw error  // several sessions match: the user must name one
            } catch {}
        }
        var elsewhere: [(SignedInUser, SavedProject)] = []
        for project in saved.all where project.apiKey != current?.apiKey || project.emulatorHost != current?.emulatorHost {
            if let user = try? context.auth(for: ProjectContext(project, tenantId: context.globals.tenantId)).savedUser(name) {
                elsewhere.append((user, project))
            }
        }
        let fbauth = CommandName.forSuggestions(environment: context.environment)
        let picks = elsewhere.map { user, project in
            "`\(ProjectPicker.command(for: project, fbauth: fbauth)) use \(user.uid)` (\(user.displayLabel) on \(project.description))"
        }
        if context.namesProject, !elsewhere.isEmpty {
            // The project named (FIREBASE_API_KEY, --project…) has no such session; others do.
            let here = current.map { saved.project(apiKey: $0.apiKey, emulatorHost: $0.emulatorHost).description } ?? "the project named"
            throw .signInAgain("no saved session for '\(name)' on \(here); it is saved elsewhere: " + picks.joined(separator: "; or "), remedy: .listAllSessions)
        }
        guard elsewhere.count <= 1 else {
            throw .usage("'\(name)' names sessions in several projects; pick one: " + picks.joined(separator: "; or "))
        }
        guard let (user, project) = elsewhere.first else {
            // The remedy adds `fbauth accounts --all`; a near miss is named before it.
            throw .signInAgain("no saved session for '\(name)'" + (Self.suggestion(for: name, among: saved.userNames).map { "; did you mean \($0)?" } ?? ""),
                               remedy: .listAllSessions)
        }
        try user.auth.updateCurrentUser(user)
        say(user, on: project, context)
    }

    private static func say(_ user: SignedInUser, on project: SavedProject, _ context: CommandContext) {
        context.console.say("Now using \(user.displayLabel) (uid \(user.uid)) on \(project.label).")
    }

    /// The saved email (or uid) `name` probably means: a near miss by edit distance
    /// (`grce@example.com` → `grace@example.com`), or the one that starts with it.
    static func suggestion(for name: String, among names: [String]) -> String? {
        let names = names.sorted()
        // An address is near another only where one of its two parts is the same and the other
        // a likely typo of it: ada@example.co for ada@example.com, grac@example.com for
        // grace@example.com; pat@example.com is no typo of ada@example.com.
        if let at = name.lastIndex(of: "@") {
            let local = name[..<at].lowercased(), domain = name[name.index(after: at)...].lowercased()
            let addresses = names.compactMap { saved -> (String, String, String)? in
                guard let savedAt = saved.lastIndex(of: "@") else { return nil }
                return (saved, saved[..<savedAt].lowercased(), saved[saved.index(after: savedAt)...].lowercased())
            }
            let sameDomain = addresses.filter { $0.2 == domain && $0.1 != local }
            if let near = Suggestions.closest(to: local, among: sameDomain.map(\.1)) { return sameDomain.first { $0.1 == near }?.0 }
            let sameLocal = addresses.filter { $0.1 == local && $0.2 != domain }
            if let near = Suggestions.closest(to: domain, among: sameLocal.map(\.2)) { return sameLocal.first { $0.2 == near }?.0 }
            return nil
        }
        if let near = Suggestions.closest(to: name, among: names), near.lowercased() != name.lowercased() { return near }
        let matches = names.filter { $0.lowercased().hasPrefix(name.lowercased()) && $0.lowercased() != name.lowercased() }
        return matches.count == 1 ? matches.first : nil
    }
}
