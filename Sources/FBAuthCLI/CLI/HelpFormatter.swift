import FBAuth
/// `--help` text, generated from the command specs.
enum HelpFormatter {
    static let width = 80

    static func tool(_ commands: [CommandSpec]) -> String {
        var text = """
            fbauth — sign in to Firebase Authentication from the command line.

            Usage: fbauth COMMAND [options]

            Commands:

            """
        // Aliases beside their command (`signin, login`): people type what other tools taught them.
        text += table(commands.map { (([$0.name] + $0.aliases).joined(separator: ", "), $0.summary) })
        text += "\nGlobal options:\n"
        text += global
        text += "\nRun 'fbauth COMMAND --help' for a command's options, 'fbauth help exit-codes' and\n'fbauth help environment' for those tables.\n"
        return text
    }

    /// The options every command takes (`fbauth help global`).
    static var global: String {
        table(GlobalOptions.specs.map { ($0.synopsis, $0.help) }
            + [("-h, --help", "Show help (also: fbauth COMMAND --help)."), ("-V, --version", "Print the version (also: fbauth version).")])
    }

    static func command(_ spec: CommandSpec) -> String {
        var text = spec.usage.enumerated().map { index, line in
            (index == 0 ? "Usage: " : "       ") + "fbauth \(spec.name)" + (line.isEmpty ? "" : " \(line)")
        }.joined(separator: "\n") + "\n\n"
        text += wrap(spec.summary, indent: 0) + "\n"
        if !spec.aliases.isEmpty {
            text += "Also: " + spec.aliases.map { "fbauth \($0)" }.joined(separator: ", ") + "\n"
        }
        if let details = spec.details {
            // Indented lines (examples) are kept as they are.
            text += "\n" + details.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.hasPrefix("  ") ? String($0) : wrap(String($0), indent: 0) }.joined(separator: "\n") + "\n"
        }
        if !spec.positionals.isEmpty {
            text += "\nArguments:\n" + table(spec.positionals.map { ($0.name, $0.help) })
        }
        if !spec.options.isEmpty {
            text += "\nOptions:\n" + table(spec.options.map { ($0.synopsis, $0.help) })
        }
        text += "\nGlobal options (the project, the session, verbose output): see 'fbauth help global'.\n"
        return text
    }

    /// Two columns; long left cells put the text on the next line.
    static func table(_ rows: [(String, String)]) -> String {
        let column = min(26, (rows.map(\.0.count).max() ?? 0) + 4)
        return rows.map { left, right in
            let lead = "  " + left
            let body = wrap(right, indent: column)
            if lead.count + 2 <= column {
                return lead + String(repeating: " ", count: column - lead.count) + body.dropFirst(column)
            }
            return lead + "\n" + body
        }.joined(separator: "\n") + "\n"
    }

    /// Word-wraps `text` to `width`, indenting every line by `indent`.
    static func wrap(_ text: String, indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = pad
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.count > indent, line.count + 1 + word.count > width {
                lines.append(line)
                line = pad
            }
            line += (line.count > indent ? " " : "") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
