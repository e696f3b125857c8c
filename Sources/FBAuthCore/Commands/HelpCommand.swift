/// `fbauth help [COMMAND]`
enum HelpCommand {
    static let spec = CommandSpec(
        name: "help",
        summary: "Show help for fbauth or one of its commands.",
        usage: ["[COMMAND]"],
        positionals: [PositionalSpec("COMMAND", optional: true, help: "A command name.")])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(FBAuthError) {
        context.console.writeOutput(try text(for: arguments.positionals.first))
    }

    static func text(for name: String?) throws(FBAuthError) -> String {
        let specs = CommandLineTool.commandSpecs
        guard let name else { return HelpFormatter.tool(specs) }
        guard let spec = specs.first(where: { $0.name == name }) else {
            let suggestion = Suggestions.closest(to: name, among: specs.map(\.name))
            throw .usage("no help for '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
        }
        return HelpFormatter.command(spec)
    }
}
