import FBAuth
import FBAuthSupport

/// `fbauth prune`: forgets the sessions of emulators that are no longer running, as `git remote
/// prune` forgets branches that are gone. A session belongs to its project, not to the
/// emulator's host:port, so one started again with the same users and API key would have
/// taken them over; this is for the ones nobody will start again.
enum PruneCommand: RunnableCommand {
    static let spec = CommandSpec(
        name: "prune",
        summary: "Forget the sessions of Auth emulators that are no longer running (local only).",
        usage: [""],
        options: [],
        details: """
            An emulator is not running when nothing accepts a connection at the host:port its \
            sessions were saved with (a loopback address; another host is not probed and is \
            kept). Their sessions, keyring items and files written for them are removed, as \
            `fbauth signout --all` removes a project's. `fbauth accounts --all` marks them first. \
            Sessions of Firebase projects are never touched.

            Examples:
              fbauth accounts --all
              fbauth prune
            """)

    struct Options: Equatable {}

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options { Options() }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        let saved = try context.savedProjects()
        var removed: [(project: SavedProject, users: [SignedInUser])] = []
        for project in context.projectsOnStoppedEmulators(in: saved) {
            let auth = try context.auth(for: ProjectContext(project, tenantId: nil))
            removed.append((project, try auth.signOutAll()))
        }
        let count = removed.map(\.users.count).reduce(0, +)
        guard count > 0 else {
            context.console.say("No saved session belongs to an emulator that is not running.")
            return
        }
        let hosts = removed.compactMap(\.project.emulatorHost).joined(separator: ", ")
        context.console.say("Forgot \(count == 1 ? "1 session" : "\(count) sessions") of emulators that are not running (\(TerminalText.safe(hosts))).")
    }
}
