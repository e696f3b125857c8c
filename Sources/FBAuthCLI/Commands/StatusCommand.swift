#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthSupport

/// `fbauth status`: who is signed in, where, with what, and how their token stands — one screen,
/// from the store alone (no request to Firebase), like `gh auth status`.
enum StatusCommand: RunnableCommand {
    static let spec = CommandSpec(
        name: "status",
        summary: "Show who is signed in, on which project, with which providers and token state; exit 3 when nobody is.",
        usage: ["[--json]"],
        options: [OptionSpec("json", help: "Print the same as a JSON object for scripts.")],
        details: """
            Reads the saved sessions only; nothing is sent to Firebase (an emulator's sessions \
            are marked when nothing answers at its loopback port any more: `fbauth prune`). \
            The current session (of the project \
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
        let saved = try context.savedProjects()
        // Nobody signed in anywhere is a status to show; a project named wrongly is an error.
        let named: ProjectContext?
        do throws(FBAuthError) {
            named = try context.project(in: saved)
        } catch where error.exitCode == .usage {
            throw error
        } catch {
            named = nil
        }
        let now = context.clock.now()
        var entries: [StatusEntry] = []
        var keyring = KeyringStatus()
        var namedHasSessions = false
        // Every session whose emulator is down is marked, the one FIREBASE_AUTH_EMULATOR_HOST
        // names too: its token's minutes say nothing while nothing answers there (`prune`
        // keeps that one, whose emulator may come back).
        let stopped = saved.onStoppedEmulators
        for project in saved.all {
            let auth = try context.auth(for: ProjectContext(project, tenantId: nil))
            if project == saved.all.first { keyring = KeyringStatus(auth) }
            let current = auth.currentUser
            let isNamed = named.map { saved.isProject(project, apiKey: $0.apiKey, emulatorHost: $0.emulatorHost) } ?? false
            if isNamed, !auth.savedUsers.isEmpty { namedHasSessions = true }
            entries += auth.savedUsers.map { user in
                // The named project as its emulator serves it now, which may not be the one it was saved with.
                StatusEntry(user: user, project: (isNamed ? project.servedBy(named?.emulatorHost) : project).label, projectId: project.projectID,
                            current: isNamed && current.map(user.isSameUser) == true, now: now,
                            emulatorStopped: project.emulatorHost == nil ? nil : stopped.contains(project))
            }
        }
        entries.sort { $0.current && !$1.current }
        // A project named on the command line (or by FIREBASE_API_KEY) with no session while
        // others have some: `fbauth use` cannot help, only a sign-in there can.
        let namedButEmpty = named.flatMap { named in
            context.namesProject && !namedHasSessions && !entries.isEmpty
                ? saved.project(apiKey: named.apiKey, emulatorHost: named.emulatorHost).description : nil
        }
        if options.json {
            context.console.writeOutput(JSONOutput.render(StatusJSON(entries: entries, store: saved.location, keyring: keyring)))
        } else {
            context.console.writeText(text(entries, store: saved.location, keyring: keyring, fbauth: CommandName.forSuggestions(environment: context.environment),
                                           notSignedInTo: namedButEmpty))
        }
        guard let current = entries.first(where: \.current) else {
            if let namedButEmpty {
                throw .signInAgain("no session is saved for \(namedButEmpty); sign in there with `fbauth signin --provider ID`, or leave the project unnamed to use the sessions listed")
            }
            throw .signInAgain(entries.isEmpty
                ? "nobody is signed in; sign in with `fbauth signin --provider ID`"
                : "no current session; choose one with `fbauth use UID-or-EMAIL`")
        }
        // Signed out by the server is not signed in, for scripts as for `fbauth token`.
        guard current.user.canRefresh else {
            throw .signInAgain("the server signed \(current.user.displayLabel) out; \(current.user.signInAgainAdvice)")
        }
    }

    static func text(_ entries: [StatusEntry], store: String, keyring: KeyringStatus = KeyringStatus(), fbauth: String = "fbauth",
                     notSignedInTo project: String? = nil) -> String {
        var lines: [String] = []
        if let project {
            lines.append("Not signed in to \(project).")
        } else if let current = entries.first(where: \.current) {
            lines.append("Signed in as \(current.who) on \(current.project)")
            lines.append("  providers: \(current.providers)")
            if let factors = current.secondFactors { lines.append("  second factors: \(factors)") }
            lines.append("  token: \(current.state)" + (current.user.refreshTokenPlace.map { "; refresh token \($0)" } ?? "")
                + (current.emulatorStopped == true ? "; its emulator is not running" : ""))
        } else {
            lines.append("Not signed in.")
        }
        let others = entries.filter { !$0.current }
        if !others.isEmpty {
            lines.append("Other saved sessions:")
            lines += others.map { "  \($0.who) on \($0.project): \($0.providers); token \($0.state)" + ($0.user.refreshTokenPlace.map { ", refresh token \($0)" } ?? "")
                + ($0.emulatorStopped == true ? "; its emulator is not running (`\(fbauth) prune`)" : "") }
        }
        lines.append("Sessions are stored in \(store)" + (keyring.newSecretsPlace.map { "; new refresh tokens are kept \($0)" } ?? ""))
        lines += keyring.lines(entries: entries, fbauth: fbauth)
        return lines.joined(separator: "\n") + "\n"
    }
}

/// One saved session as `status` shows it.
struct StatusEntry: Encodable {
    var user: SignedInUser
    var project: String
    var projectId: String?
    var current: Bool
    var now: Date
    /// Whether the emulator its session was saved with has stopped; nil for a Firebase project.
    var emulatorStopped: Bool? = nil

    var who: String { user.email.map { "\(TerminalText.safe($0)) (uid \(user.uid))" } ?? "uid \(user.uid)" }
    var providers: String { user.providerWords }
    var state: String { AccountsCommand.state(of: user, now: now) }
    /// `totp "phone app", phone +1555…`, as last seen; nil when there are none.
    var secondFactors: String? {
        let factors = user.multiFactor.enrolledFactors
        guard !factors.isEmpty else { return nil }
        return factors.map { factor in
            [factor.factorID, factor.displayName.map { "\"\($0)\"" }, factor.phoneNumber].compactMap { $0 }.joined(separator: " ")
        }.joined(separator: ", ")
    }

    /// As `accounts --json` prints a session.
    func encode(to encoder: Encoder) throws {
        try SessionListingJSON(user: user, current: current, projectId: projectId, project: project, now: now,
                               emulatorStopped: emulatorStopped).encode(to: encoder)
    }
}

struct StatusJSON: Encodable {
    var entries: [StatusEntry]
    var store: String
    var keyring = KeyringStatus()

    enum CodingKeys: String, CodingKey { case current, sessions, store, newRefreshTokens, keyringProblems }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(entries.first(where: \.current), forKey: .current)
        try c.encode(entries, forKey: .sessions)
        try c.encode(store, forKey: .store)
        try c.encode(keyring.remembered?.rawValue, forKey: .newRefreshTokens)
        try c.encode(keyring.problemObjects, forKey: .keyringProblems)
    }
}
