import Foundation

/// `fbauth accounts`: the saved sessions of the project.
enum AccountsCommand {
    static let spec = CommandSpec(
        name: "accounts",
        summary: "List the saved sessions of the project; * marks the current one.",
        usage: ["[--json]"],
        options: [OptionSpec("json", help: "Print a JSON array for scripts.")],
        details: """
            One line per session: current marker, uid, email, providers, and the token's state: \
            valid (with time left), expired (refreshed on next use), or signed out by the server \
            (sign in again). Switch with `fbauth use UID-or-EMAIL`, or act on one session with --user.
            """)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(FBAuthError) {
        let key = try context.projectKey()
        let project = try context.sessionStore().load().project(key)
        let sessions = project?.sessions ?? []
        let now = context.clock.now()
        if arguments.flag("json") {
            context.console.writeOutput(JSONOutput.render(sessions.map {
                AccountJSON(session: $0, current: $0.reference == project?.current, projectId: project?.projectId, now: now)
            }))
            return
        }
        guard !sessions.isEmpty else {
            context.console.say("No saved sessions for this project; sign in with `fbauth signin --provider ID`.")
            return
        }
        let rows = sessions.map { session in
            [session.reference == project?.current ? "*" : " ", session.uid, session.email ?? "-",
             session.providerData.map(\.providerId).joined(separator: ",").nonEmpty ?? (session.isAnonymous ? "anonymous" : "-"),
             state(of: session, now: now)]
        }
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        let lines = rows.map { row in
            row.enumerated().map { index, cell in index < 4 ? cell.padding(toLength: widths[index], withPad: " ", startingAt: 0) : cell }
                .joined(separator: "  ")
        }
        context.console.writeOutput(lines.joined(separator: "\n") + "\n")
    }

    static func state(of session: Session, now: Date) -> String {
        guard session.canRefresh else { return "signed out by the server: sign in again" }
        let left = session.expirationTime.timeIntervalSince(now)
        return left > 0 ? "valid for \(Int(left / 60)) min" : "expired (refreshed on next use)"
    }
}

/// One entry of `fbauth accounts --json`.
struct AccountJSON: Encodable {
    var session: Session
    var current: Bool
    var projectId: String?
    var now: Date

    enum CodingKeys: String, CodingKey {
        case uid, email, displayName, tenantId, projectId, providers, current, expirationTime, expired, needsSignIn
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(session.uid, forKey: .uid)
        try c.encode(session.email, forKey: .email)
        try c.encode(session.displayName, forKey: .displayName)
        try c.encode(session.tenantId, forKey: .tenantId)
        try c.encode(projectId, forKey: .projectId)
        try c.encode(session.providerData.map(\.providerId), forKey: .providers)
        try c.encode(current, forKey: .current)
        try c.encode(session.canRefresh ? Timestamp.string(session.expirationTime) : nil, forKey: .expirationTime)
        try c.encode(session.expirationTime <= now, forKey: .expired)
        try c.encode(!session.canRefresh, forKey: .needsSignIn)
    }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
