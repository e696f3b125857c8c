import FBAuth
import LoopbackHTTP
/// One `--name` option of a command. Specs are data, so help text, the man page and shell
/// completions are all generated from the same source as the parser.
public struct OptionSpec: Sendable, Equatable {
    public let name: String
    /// Placeholder for the value (`ID`, `SECONDS`); nil for a flag.
    public let valueName: String?
    public let help: String
    public let repeatable: Bool
    /// Values offered by shell completion (e.g. provider ids).
    public let suggestions: [String]

    public init(_ name: String, value valueName: String? = nil, repeatable: Bool = false, suggestions: [String] = [], help: String) {
        self.name = name
        self.valueName = valueName
        self.help = help
        self.repeatable = repeatable
        self.suggestions = suggestions
    }

    public var takesValue: Bool { valueName != nil }

    /// `--name VALUE` or `--name`.
    public var synopsis: String { "--\(name)" + (valueName.map { " \($0)" } ?? "") }
}

/// A positional argument.
public struct PositionalSpec: Sendable, Equatable {
    public let name: String
    public let help: String
    public let optional: Bool

    public init(_ name: String, optional: Bool = false, help: String) {
        self.name = name
        self.help = help
        self.optional = optional
    }
}

/// A command's name, help and accepted arguments.
public struct CommandSpec: Sendable, Equatable {
    public let name: String
    public let summary: String
    /// Synopsis lines after `fbauth NAME`.
    public let usage: [String]
    public let options: [OptionSpec]
    public let positionals: [PositionalSpec]
    /// Paragraphs shown by `--help` after the summary.
    public let details: String?
    /// Other names that run the command (`login` for signin); kept out of the command list.
    public let aliases: [String]
    /// For fbauth's own use (shell completion): runs, but is listed nowhere.
    public let hidden: Bool

    public init(name: String, summary: String, usage: [String] = ["[options]"], options: [OptionSpec] = [],
                positionals: [PositionalSpec] = [], details: String? = nil, aliases: [String] = [], hidden: Bool = false) {
        self.aliases = aliases
        self.hidden = hidden
        self.name = name
        self.summary = summary
        self.usage = usage
        self.options = options
        self.positionals = positionals
        self.details = details
    }

    public func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name } ?? GlobalOptions.specs.first { $0.name == name }
    }
}
