import FBAuth
import FBAuthSupport
/// `fbauth help [COMMAND|TOPIC]`
enum HelpCommand: RunnableCommand {
    static let topics = ["global", "exit-codes", "environment", "man"] + HelpTopics.names

    static let spec = CommandSpec(
        name: "help",
        summary: "Show help for fbauth, a command, or a topic: global, exit-codes, environment, man, and the guides tokens, app-check, headless, security, sessions.",
        usage: ["[COMMAND]", "global|exit-codes|environment|man", HelpTopics.names.joined(separator: "|")],
        positionals: [PositionalSpec("COMMAND-or-TOPIC", optional: true, suggestions: topics,
                                     help: "A command name, or global (the options every command takes), exit-codes, environment, man (the manual page in roff), or a guide: "
                                        + HelpTopics.guides.map { "\($0.name) (\($0.summary))" }.joined(separator: "; ") + ".")])

    struct Options: Equatable {
        /// The page to print: the overview, a command's, or a topic's.
        var text: String
        /// A guide (Markdown), rendered as text on a terminal.
        var isGuide = false
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        let name = arguments.positionals.first
        return Options(text: try text(for: name), isGuide: name.map { HelpTopics.guide($0) != nil } ?? false)
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        guard options.isGuide, context.console.isOutputTerminal else {
            context.console.writeOutput(options.text)
            return
        }
        let shown = MarkdownText.render(options.text)
        context.console.writeOutput(shown.hasSuffix("\n") ? shown : shown + "\n")
    }

    /// `preferCommand`: a name that is a command and a guide (`emulator`) gives the command's
    /// page, which then names the guide.
    static func text(for name: String?, preferCommand: Bool = false) throws(FBAuthError) -> String {
        let specs = CommandLineTool.commandSpecs
        if preferCommand, let name, let spec = specs.first(where: { $0.name == name || $0.aliases.contains(name) }) {
            let page = HelpFormatter.command(spec)
            guard HelpTopics.guide(spec.name) != nil else { return page }
            return page + "\nThe guide: fbauth help \(spec.name)\n"
        }
        switch name {
        case nil: return HelpFormatter.tool(specs)
        case "global":
            return "Global options (every command takes them, before or after its name):\n" + HelpFormatter.global
        case "exit-codes":
            return "Exit codes (with the library's error codes that end in each, FBAuth's AuthErrorCode):\n"
                + HelpFormatter.table(ExitCode.allCases.map { exit in
                    (String(exit.rawValue), exit.meaning + (exit.errorCodes.isEmpty ? "" : " [" + exit.errorCodes.map(\.rawValue).joined(separator: ", ") + "]"))
                })
        case "environment":
            return "Environment variables:\n" + HelpFormatter.table(EnvironmentVariables.all.map { ($0.name, $0.meaning) })
        case "man":
            return ManPage.render(commands: specs)
        case let name? where HelpTopics.guide(name) != nil:
            return HelpTopics.guide(name) ?? ""
        case let name?:
            guard let spec = specs.first(where: { $0.name == name || $0.aliases.contains(name) }) else {
                let suggestion = Suggestions.closest(to: name, among: specs.map(\.name) + topics)
                throw .usage("no help for '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "; try a command, or exit-codes, environment, man, " + HelpTopics.names.joined(separator: ", ")))
            }
            return HelpFormatter.command(spec)
        }
    }
}
