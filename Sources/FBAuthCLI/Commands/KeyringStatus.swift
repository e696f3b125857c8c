import FBAuth
import FBAuthSupport

/// What `status` says about the keyring: where new refresh tokens go, and the items that
/// disagree with the saved sessions, each with the way out.
struct KeyringStatus {
    /// Where new refresh tokens go, as remembered; nil before the first sign-in.
    var remembered: SecretStorage?
    var problems: [KeyringProblem] = []
    /// Why the keyring could not be checked, when it could not.
    var unreadable: String?

    init() {}

    init(_ auth: AuthService) {
        remembered = auth.rememberedSecretStorage
        do {
            problems = try auth.keyringProblems()
        } catch {
            unreadable = error.message
        }
    }

    var newSecretsPlace: String? {
        remembered.map { $0 == .keyring ? "in the keyring" : "in sessions.json" }
    }

    func lines(entries: [StatusEntry], fbauth: String) -> [String] {
        var lines: [String] = []
        if let unreadable { lines.append("The keyring cannot be checked: \(TerminalText.safe(unreadable))") }
        for problem in problems {
            let who = entries.first { $0.user.uid == problem.uid }
            switch problem.kind {
            case .missing:
                let name = who?.who ?? "uid \(TerminalText.safe(problem.uid))"
                let command = who.map { "`\($0.user.signInCommand)`" } ?? "`\(fbauth) signin`"
                lines.append("The \(problem.secretName) of \(name) is not in the keyring (its item was deleted): sign in again with \(command)")
            case .leftover:
                let name = who?.who ?? "uid \(TerminalText.safe(problem.uid))"
                lines.append("The keyring still holds a copy of the \(problem.secretName) of \(name), which sessions.json keeps now; remove it with: secret-tool clear \(problem.secretToolArguments)")
            case .orphaned where problem.sharesAttributesWithUsedItem:
                lines.append("The keyring holds a \(problem.secretName) no saved session uses (uid \(TerminalText.safe(problem.uid))), with the attributes of one in use: remove it by its label in your keyring's manager (Seahorse), not with secret-tool")
            case .orphaned:
                lines.append("The keyring holds a \(problem.secretName) no saved session uses (uid \(TerminalText.safe(problem.uid))); remove it with: secret-tool clear \(problem.secretToolArguments)")
            }
        }
        return lines
    }

    /// For `status --json`.
    var problemObjects: [[String: String]] {
        problems.map { problem in
            var object = problem.attributes.mapValues { TerminalText.safe($0) }
            object["problem"] = switch problem.kind {
            case .missing: "missing"
            case .orphaned: "orphaned"
            case .leftover: "leftover"
            }
            return object
        }
    }
}
