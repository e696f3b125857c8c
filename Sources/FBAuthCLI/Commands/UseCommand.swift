import FBAuth
import LoopbackHTTP
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
        let explicit = context.namesProject
        let (session, key) = try context.sessionStore().update { (contents: inout StoreContents) throws(FBAuthError) -> (Session, ProjectKey) in
            let current = try? context.projectKey(in: contents)
            if let current {
                do throws(FBAuthError) {
                    let session = try contents.session(.user(name), in: current)
                    contents.makeCurrent(session.reference, in: current)
                    contents.currentProject = current.storageKey
                    return (session, current)
                } catch where error.exitCode == .usage {
                    throw error  // several sessions match: the user must name one
                } catch {}
            }
            let elsewhere = contents.projects.values.filter { $0.key != current }.sorted { $0.key.storageKey < $1.key.storageKey }.compactMap { state in
                (try? contents.session(.user(name), in: state.key)).map { ($0, state.key) }
            }
            let fbauth = CommandName.forSuggestions(environment: context.environment)
            let picks = elsewhere.map { (session: Session, key: ProjectKey) in
                "`\(ProjectPicker.command(for: key, projectId: contents.project(key)?.projectId, fbauth: fbauth)) use \(session.uid)` (\(session.displayLabel) on \(key.displayName(projectId: contents.project(key)?.projectId)))"
            }
            if explicit, !elsewhere.isEmpty {
                // The project named (FIREBASE_API_KEY, --project…) has no such session; others do.
                let here = current.map { $0.displayName(projectId: contents.project($0)?.projectId) } ?? "the project named"
                throw .signInAgain("no saved session for '\(name)' on \(here); it is saved elsewhere: " + picks.joined(separator: "; or "))
            }
            guard elsewhere.count <= 1 else {
                throw .usage("'\(name)' names sessions in several projects; pick one: " + picks.joined(separator: "; or "))
            }
            guard let (session, key) = elsewhere.first else {
                throw .signInAgain("no saved session for '\(name)'" + (Self.suggestion(for: name, in: contents).map { "; did you mean \($0)?" } ?? " (see `fbauth accounts --all`)"))
            }
            contents.makeCurrent(session.reference, in: key)
            contents.currentProject = key.storageKey
            return (session, key)
        }
        let project = try context.sessionStore().load().project(key)
        context.console.say("Now using \(session.displayLabel) (uid \(session.uid)) on \(key.label(projectId: project?.projectId)).")
    }

    /// A saved session whose email starts with what was typed (`grace` → grace@example.com).
    /// The saved email (or uid) `name` probably means: a near miss by edit distance
    /// (`grce@example.com` → `grace@example.com`), or the one that starts with it.
    static func suggestion(for name: String, in contents: StoreContents) -> String? {
        let sessions = contents.projects.values.flatMap(\.sessions)
        let names = Array(Set(sessions.compactMap(\.email) + sessions.map(\.uid))).sorted()
        if let near = Suggestions.closest(to: name, among: names), near.lowercased() != name.lowercased() { return near }
        let matches = names.filter { $0.lowercased().hasPrefix(name.lowercased()) && $0.lowercased() != name.lowercased() }
        return matches.count == 1 ? matches.first : nil
    }
}
