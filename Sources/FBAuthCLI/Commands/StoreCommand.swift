import FBAuth
import FBAuthSupport

/// `fbauth store migrate`: moves every saved session's refresh token (and X token secret) to
/// the keyring, or back to sessions.json with `--store file`, and remembers the choice.
enum StoreCommand: RunnableCommand {
    static let spec = CommandSpec(
        name: "store",
        summary: "Move saved refresh tokens into the OS keyring (or back to sessions.json with --store file).",
        usage: ["migrate", "migrate --store file"],
        positionals: [PositionalSpec("ACTION", suggestions: ["migrate"], help: "migrate.")],
        details: """
            Refresh tokens are long-lived secrets. Where a keyring answers (the Secret Service \
            of gnome-keyring, KeePassXC or KWallet on Linux, the Keychain on macOS) fbauth keeps \
            them there and sessions.json keeps the rest; without one, sessions.json (mode 0600) \
            keeps them too. The first sign-in chooses and says which; sessions saved before stay \
            where they are until their next refresh, or until this command moves them all.

            migrate moves the secrets of every saved session of every project to the keyring \
            (--store keyring, the default here) or to sessions.json (--store file), each written \
            to its new place before it leaves the old one, and makes that place the one for new \
            sign-ins. `fbauth status` shows where each session's refresh token is.

            Examples:
              fbauth store migrate
              fbauth store migrate --store file
            """)

    struct Options: Equatable {}

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        guard arguments.positionals.first == "migrate" else {
            throw .usage(arguments.positionals.isEmpty ? "missing ACTION: fbauth store migrate [--store keyring|file]"
                                                       : "unknown action '\(TerminalText.safe(arguments.positionals[0]))' for store: migrate")
        }
        if arguments.positionals.count > 1 { throw .usage("unexpected argument '\(TerminalText.safe(arguments.positionals[1]))' for store migrate") }
        return Options()
    }

    /// "Moved the secrets of 5 sessions and 1 pending credential to the keyring (1 session's
    /// were there already); new refresh tokens are kept there too."
    static func summary(_ report: SecretMoveReport, place: String) -> String {
        func count(_ number: Int, _ noun: String) -> String { number == 1 ? "1 \(noun)" : "\(number) \(noun)s" }
        var moved = "Moved the secrets of \(count(report.moved, "session"))"
        if report.pendingCredentials > 0 { moved += " and \(count(report.pendingCredentials, "pending credential"))" }
        moved += " to \(place)"
        if report.alreadyThere > 0 { moved += " (\(report.alreadyThere == 1 ? "1 session's were" : "\(report.alreadyThere) sessions' were") there already)" }
        return moved + "; new refresh tokens are kept there too."
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        let target = context.settings.secretStorage ?? .keyring
        let place = target == .keyring ? "the keyring" : "sessions.json"
        let saved = try context.savedProjects()
        guard let project = saved.all.first else {
            context.console.say("No saved sessions: nothing to move.")
            return
        }
        // The store is one file for every project: any project's Auth moves them all.
        let report = try context.auth(for: ProjectContext(project, tenantId: nil)).moveSecrets(to: target)
        context.console.say(summary(report, place: place))
        if !report.notRemoved.isEmpty {
            throw .store("could not remove from the keyring \(report.notRemoved.map { TerminalText.safe($0) }.joined(separator: "; "))")
        }
        if !report.missing.isEmpty {
            let names = report.missing.map { TerminalText.safe($0) }.joined(separator: ", ")
            throw .signInAgain("the refresh token of \(names) was no longer in the keyring; sign in again (see `fbauth status`)")
        }
    }
}
