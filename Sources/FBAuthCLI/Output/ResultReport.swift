import FBAuth

/// What signin, signup, link and reauth print. Like gh: on a terminal, a summary for people
/// on stderr (who, how, which project, where the session is kept) and no tokens to linger in
/// the scrollback; the whole result as JSON on stdout with `--json`, or whenever stdout is not
/// a terminal (scripts, pipes, files), as before.
struct ResultReport {
    let context: CommandContext
    /// `--json`.
    let json: Bool

    var printsJSON: Bool { json || !context.console.isOutputTerminal }

    /// Prints `result` and the summary line.
    func print(_ result: AuthOutcome, summary: String) {
        if printsJSON {
            context.console.writeOutput(JSONOutput.render(AuthDataResultJSON(result)))
        }
        context.console.say(summary + (printsJSON ? "" : " --json prints the whole result, tokens included."))
    }

    /// `signed in as ada@example.com with yahoo.com on project my-project (emulator …); the
    /// session is saved in PATH.`
    static func projectAndStore(_ auth: AuthService) -> String {
        guard !auth.settings.keepsSessionsInMemory else {
            return " on \(auth.projectDescription); nothing was saved (--store none): its refresh token is in the result (--json)."
        }
        return " on \(auth.projectDescription); the session is saved in \(auth.sessionsLocation)."
    }
}

/// `--json` for the commands whose result is summed up on a terminal.
enum ResultJSONOption {
    static let spec = OptionSpec("json", help: "Print the whole result as JSON on stdout (tokens included); the default when stdout is not a terminal. On a terminal fbauth prints only a summary.")
}
