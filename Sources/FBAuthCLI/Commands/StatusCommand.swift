#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import LoopbackHTTP
import FBAuthSupport

/// `fbauth status`: who is signed in, where, with what, and how their token stands — one screen,
/// from the store alone (no request), like `gh auth status`.
enum StatusCommand: RunnableCommand {
    static let spec = CommandSpec(
        name: "status",
        summary: "Show who is signed in, on which project, with which providers and token state; exit 3 when nobody is.",
        usage: ["[--json]"],
        options: [OptionSpec("json", help: "Print the same as a JSON object for scripts.")],
        details: """
            Reads the saved sessions only; nothing is sent. The current session (of the project \
            commands use when none is named) comes first, then every other saved session of every \
            project, then where the store is. A token's state is "valid for N min", "expired \
            (refreshed on next use)" or "signed out by the server" (its refresh failed: sign in again).

            Examples:
              fbauth status
              fbauth status --json | jq -r .current.email
            """)

    struct Options: Equatable {
        var json: Bool
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        Options(json: arguments.flag("json"))
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        let store = context.sessionStore()
        let contents = try store.load()
        // Nobody signed in anywhere is a status to show; a project named wrongly is an error.
        let key: ProjectKey?
        do throws(FBAuthError) {
            key = try context.projectKey(in: contents)
        } catch where error.exitCode == .usage {
            throw error
        } catch {
            key = nil
        }
        let current = key.flatMap { contents.currentSession(of: $0) }
        let now = context.clock.now()
        let entries = contents.projects.values.sorted { $0.apiKey + ($0.emulatorHost ?? "") < $1.apiKey + ($1.emulatorHost ?? "") }
            .flatMap { state in
                state.sessions.map { session in
                    StatusEntry(session: session, project: state.key.label(projectId: state.projectId), projectId: state.projectId,
                                current: state.key == key && session.reference == current?.reference, now: now)
                }
            }
            .sorted { $0.current && !$1.current }
        if options.json {
            context.console.writeOutput(JSONOutput.render(StatusJSON(entries: entries, store: store.location)))
        } else {
            context.console.writeText(text(entries, store: store.location))
        }
        guard let current = entries.first(where: \.current) else {
            throw .signInAgain(entries.isEmpty
                ? "nobody is signed in; sign in with `fbauth signin --provider ID`"
                : "no current session; choose one with `fbauth use UID-or-EMAIL`")
        }
        // Signed out by the server is not signed in, for scripts as for `fbauth token`.
        guard current.session.canRefresh else {
            throw .signInAgain("the server signed \(current.session.displayLabel) out; sign in again with `\(current.session.signInCommand)`")
        }
    }

    static func text(_ entries: [StatusEntry], store: String) -> String {
        var lines: [String] = []
        if let current = entries.first(where: \.current) {
            lines.append("Signed in as \(current.who) on \(current.project)")
            lines.append("  providers: \(current.providers)")
            if let factors = current.secondFactors { lines.append("  second factors: \(factors)") }
            lines.append("  token: \(current.state)")
        } else {
            lines.append("Not signed in.")
        }
        let others = entries.filter { !$0.current }
        if !others.isEmpty {
            lines.append("Other saved sessions:")
            lines += others.map { "  \($0.who) on \($0.project): \($0.providers); token \($0.state)" }
        }
        lines.append("Sessions are stored in \(store)")
        return lines.joined(separator: "\n") + "\n"
    }
}

/// One saved session as `status` shows it.
struct StatusEntry: Encodable {
    var session: Session
    var project: String
    var projectId: String?
    var current: Bool
    var now: Date

    var who: String { session.email.map { "\(TerminalText.safe($0)) (uid \(session.uid))" } ?? "uid \(session.uid)" }
    var providers: String {
        session.providerData.map(\.providerId).joined(separator: ", ").nonEmpty ?? (session.isAnonymous ? "anonymous" : "none")
    }
    var state: String { AccountsCommand.state(of: session, now: now) }
    /// `totp "phone app", phone +1555…`, as last seen; nil when there are none.
    var secondFactors: String? {
        guard let factors = session.enrolledFactors, !factors.isEmpty else { return nil }
        return factors.map { factor in
            [factor.factorId, factor.displayName.map { "\"\($0)\"" }, factor.phoneNumber].compactMap { $0 }.joined(separator: " ")
        }.joined(separator: ", ")
    }

    /// As `accounts --json` prints a session.
    func encode(to encoder: Encoder) throws {
        try SessionListingJSON(session: session, current: current, projectId: projectId, project: project, now: now).encode(to: encoder)
    }
}

struct StatusJSON: Encodable {
    var entries: [StatusEntry]
    var store: String

    enum CodingKeys: String, CodingKey { case current, sessions, store }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(entries.first(where: \.current), forKey: .current)
        try c.encode(entries, forKey: .sessions)
        try c.encode(store, forKey: .store)
    }
}

extension ProjectState {
    var key: ProjectKey { ProjectKey(apiKey: apiKey, emulatorHost: emulatorHost) }
}
