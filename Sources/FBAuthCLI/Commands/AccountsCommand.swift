#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import LoopbackHTTP
import FBAuthSupport

/// `fbauth accounts`: the saved sessions of the project.
enum AccountsCommand: RunnableCommand {
    static let spec = CommandSpec(
        name: "accounts",
        summary: "List the saved sessions of the project (--all: of every project); * marks the current one.",
        usage: ["[--all] [--json]"],
        options: [
            OptionSpec("all", help: "List the sessions of every project, with the project of each."),
            OptionSpec("json", help: "Print a JSON array for scripts."),
        ],
        details: """
            One line per session: current marker, uid, email, providers, and the token's state: \
            valid (with time left), expired (refreshed on next use), or signed out by the server \
            (sign in again). Switch with `fbauth use UID-or-EMAIL`, or act on one session with --user. \
            The project is the one of the last sign-in unless --api-key, --app-config or \
            FIREBASE_API_KEY names another.

            Examples:
              fbauth accounts
              fbauth accounts --all --json | jq -r '.[] | select(.current) | .email'
            """)

    struct Options: Equatable {
        /// `--all`: every project's sessions.
        var allProjects: Bool
        var json: Bool
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        Options(allProjects: arguments.flag("all"), json: arguments.flag("json"))
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        let contents = try context.sessionStore().load()
        let projects: [ProjectState]
        if options.allProjects {
            projects = contents.projects.values.sorted { $0.key.storageKey < $1.key.storageKey }
        } else {
            let key = try context.projectKey(in: contents)
            projects = contents.project(key).map { [$0] } ?? []
        }
        let now = context.clock.now()
        let listed = projects.flatMap { project in project.sessions.map { (project, $0) } }
        if options.json {
            context.console.writeOutput(JSONOutput.render(listed.map { project, session in
                SessionListingJSON(session: session, current: session.reference == project.current, projectId: project.projectId,
                            project: project.key.label(projectId: project.projectId), now: now)
            }))
            return
        }
        guard !listed.isEmpty else {
            context.console.say("No saved sessions\(options.allProjects ? "" : " for this project"); sign in with `fbauth signin --provider ID`.")
            return
        }
        // Cleaned cell by cell, so that the columns are measured on what is shown.
        let rows = listed.map { project, session in
            [session.reference == project.current ? "*" : " ", session.uid, session.email ?? "-",
             session.providerData.map(\.providerId).joined(separator: ",").nonEmpty ?? (session.isAnonymous ? "anonymous" : "-"),
             state(of: session, now: now) + (options.allProjects ? "  [\(project.key.label(projectId: project.projectId))]" : "")]
                .map(TerminalText.safe)
        }
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        let lines = rows.map { row in
            row.enumerated().map { index, cell in index < 4 ? cell + String(repeating: " ", count: max(0, widths[index] - cell.count)) : cell }
                .joined(separator: "  ")
        }
        context.console.writeText(lines.joined(separator: "\n") + "\n")
    }

    static func state(of session: Session, now: Date) -> String {
        guard session.canRefresh else { return "signed out by the server: sign in again" }
        let left = session.expirationTime.timeIntervalSince(now)
        return left > 0 ? "valid for \(Int(left / 60)) min" : "expired (refreshed on next use)"
    }
}

/// One saved session as `status --json` and `accounts --json` both print it: the same keys, so a
/// script can read either. The project both as its id (`projectId`, null when unknown) and as
/// the words `status` shows (`project`).
struct SessionListingJSON: Encodable {
    var session: Session
    var current: Bool
    var projectId: String?
    /// The project's label (project id or key suffix, emulator).
    var project: String
    var now: Date

    enum CodingKeys: String, CodingKey {
        case uid, email, displayName, tenantId, projectId, project, providers, secondFactors, current, token, expirationTime, expired, needsSignIn
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(session.uid, forKey: .uid)
        try c.encode(session.email, forKey: .email)
        try c.encode(session.displayName, forKey: .displayName)
        try c.encode(session.tenantId, forKey: .tenantId)
        try c.encode(projectId, forKey: .projectId)
        try c.encode(project, forKey: .project)
        try c.encode(session.providerData.map(\.providerId), forKey: .providers)
        try c.encode((session.enrolledFactors ?? []).map(\.factorId), forKey: .secondFactors)
        try c.encode(current, forKey: .current)
        let token = !session.canRefresh ? "signedOutByServer" : session.expirationTime > now ? "valid" : "expired"
        try c.encode(token, forKey: .token)
        try c.encode(session.canRefresh ? Timestamp.string(session.expirationTime) : nil, forKey: .expirationTime)
        try c.encode(session.expirationTime <= now, forKey: .expired)
        try c.encode(!session.canRefresh, forKey: .needsSignIn)
    }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
