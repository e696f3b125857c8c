#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
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
        let saved = try context.savedProjects()
        let projects: [SavedProject]
        if options.allProjects {
            projects = saved.all
        } else {
            let named = try context.project(in: saved)
            projects = saved.all.filter { saved.isProject($0, apiKey: named.apiKey, emulatorHost: named.emulatorHost) }
        }
        let now = context.clock.now()
        // Each emulator asked once whether it still answers (a connection on loopback).
        let stopped = context.projectsOnStoppedEmulators(in: saved)
        var listed: [(project: SavedProject, user: SignedInUser, current: Bool)] = []
        for project in projects {
            let auth = try context.auth(for: ProjectContext(project, tenantId: nil))
            let current = auth.currentUser
            listed += auth.savedUsers.map { (project, $0, current.map($0.isSameUser) == true) }
        }
        if options.json {
            context.console.writeOutput(JSONOutput.render(listed.map { project, user, current in
                SessionListingJSON(user: user, current: current, projectId: project.projectID, project: project.label, now: now,
                                   emulatorStopped: project.emulatorHost == nil ? nil : stopped.contains(project))
            }))
            return
        }
        guard !listed.isEmpty else {
            context.console.say("No saved sessions\(options.allProjects ? "" : " for this project"); sign in with `fbauth signin --provider ID`.")
            return
        }
        // Cleaned cell by cell, so that the columns are measured on what is shown.
        let rows = listed.map { project, user, current in
            [current ? "*" : " ", user.uid, user.email ?? "-",
             user.providerNames(separator: ",", emailLink: "emailLink", none: "-"),
             state(of: user, now: now) + (options.allProjects ? "  [\(project.label)]" : "")
                + (stopped.contains(project) ? "  (its emulator is not running)" : "")]
                .map(TerminalText.safe)
        }
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        let lines = rows.map { row in
            row.enumerated().map { index, cell in index < 4 ? cell + String(repeating: " ", count: max(0, widths[index] - cell.count)) : cell }
                .joined(separator: "  ")
        }
        context.console.writeText(lines.joined(separator: "\n") + "\n")
        if listed.contains(where: { stopped.contains($0.project) }) {
            context.console.say("Sessions of emulators that are not running stay usable if one starts again with the same users and API key (--import); `\(CommandName.forSuggestions(environment: context.environment)) prune` removes them.")
        }
    }

    static func state(of user: SignedInUser, now: Date) -> String {
        guard user.canRefresh else { return user.isAnonymous ? "signed out by the server: the anonymous account is lost" : "signed out by the server: sign in again" }
        let left = user.tokenExpiration.timeIntervalSince(now)
        return left > 0 ? "valid for \(Int(left / 60)) min" : "expired (refreshed on next use)"
    }
}

/// One saved session as `status --json` and `accounts --json` both print it: the same keys, so a
/// script can read either. The project both as its id (`projectId`, null when unknown) and as
/// the words `status` shows (`project`).
struct SessionListingJSON: Encodable {
    var user: SignedInUser
    var current: Bool
    var projectId: String?
    /// The project's label (project id or key suffix, emulator).
    var project: String
    var now: Date
    /// Whether the emulator the session was saved with no longer answers; nil for a Firebase
    /// project.
    var emulatorStopped: Bool?

    enum CodingKeys: String, CodingKey {
        case uid, email, displayName, tenantId, projectId, project, providers, secondFactors, current, token, expirationTime, expired, needsSignIn
        case refreshTokenIn, emulatorStopped
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(user.uid, forKey: .uid)
        try c.encode(user.email, forKey: .email)
        try c.encode(user.displayName, forKey: .displayName)
        try c.encode(user.tenantID, forKey: .tenantId)
        try c.encode(projectId, forKey: .projectId)
        try c.encode(project, forKey: .project)
        try c.encode(user.providerData.map(\.providerID), forKey: .providers)
        try c.encode(user.multiFactor.enrolledFactors.map(\.factorID), forKey: .secondFactors)
        try c.encode(current, forKey: .current)
        let expiration = user.tokenExpiration
        let token = !user.canRefresh ? "signedOutByServer" : expiration > now ? "valid" : "expired"
        try c.encode(token, forKey: .token)
        try c.encode(user.canRefresh ? Timestamp.string(expiration) : nil, forKey: .expirationTime)
        try c.encode(expiration <= now, forKey: .expired)
        try c.encode(!user.canRefresh, forKey: .needsSignIn)
        try c.encode(user.refreshTokenStorage.map { user.auth.settings.keepsSessionsInMemory ? "memory" : $0.rawValue }, forKey: .refreshTokenIn)
        try c.encode(emulatorStopped, forKey: .emulatorStopped)
    }
}

extension SignedInUser {
    /// Whether the session can be refreshed: Firebase has not refused its refresh token.
    var canRefresh: Bool { refreshTokenStorage != nil }
    /// Where the refresh token is, in words: "in the keyring", "in sessions.json".
    var refreshTokenPlace: String? {
        refreshTokenStorage.map { auth.settings.keepsSessionsInMemory ? "in memory only" : $0 == .keyring ? "in the keyring" : "in sessions.json" }
    }
    /// When the saved ID token expires; the epoch for a session that keeps none.
    var tokenExpiration: Date { savedIDToken?.expirationDate ?? Date(timeIntervalSince1970: 0) }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
