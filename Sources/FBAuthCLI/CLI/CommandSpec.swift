import FBAuth
/// One `--name` option of a command. Specs are data, so help text, the man page and shell
/// completions are all generated from the same source as the parser.
package struct OptionSpec: Sendable, Equatable {
    package let name: String
    /// Placeholder for the value (`ID`, `SECONDS`); nil for a flag.
    package let valueName: String?
    package let help: String
    package let repeatable: Bool
    /// Values offered by shell completion (e.g. provider ids).
    package let suggestions: [String]
    /// The value may be left out (`--export-on-exit [DIR]`): then the option is a flag.
    package let valueIsOptional: Bool

    package init(_ name: String, value valueName: String? = nil, optionalValue: Bool = false, repeatable: Bool = false,
                 suggestions: [String] = [], help: String) {
        self.name = name
        self.valueName = valueName
        self.help = help
        self.repeatable = repeatable
        self.suggestions = suggestions
        valueIsOptional = optionalValue
    }

    package var takesValue: Bool { valueName != nil }

    /// `--name VALUE`, `--name [VALUE]` or `--name`.
    package var synopsis: String { "--\(name)" + (valueName.map { valueIsOptional ? " [\($0)]" : " \($0)" } ?? "") }
}

/// A positional argument.
package struct PositionalSpec: Sendable, Equatable {
    package let name: String
    package let help: String
    package let optional: Bool
    /// Words shell completion offers for it.
    package let suggestions: [String]
    /// Offered only after this word (`totp phone` after `mfa enroll`); nil: right after the command.
    package let after: String?
    /// The last positional may be given any number of times (`users delete UID…`).
    package let repeats: Bool

    package init(_ name: String, optional: Bool = false, suggestions: [String] = [], after: String? = nil, repeats: Bool = false, help: String) {
        self.name = name
        self.help = help
        self.optional = optional
        self.suggestions = suggestions
        self.after = after
        self.repeats = repeats
    }
}

/// A command's name, help and accepted arguments.
package struct CommandSpec: Sendable, Equatable {
    package let name: String
    package let summary: String
    /// Synopsis lines after `fbauth NAME`.
    package let usage: [String]
    package let options: [OptionSpec]
    package let positionals: [PositionalSpec]
    /// Paragraphs shown by `--help` after the summary.
    package let details: String?
    /// Other names that run the command (`login` for signin); kept out of the command list.
    package let aliases: [String]
    /// For fbauth's own use (shell completion): runs, but is listed nowhere.
    package let hidden: Bool

    package init(name: String, summary: String, usage: [String] = ["[options]"], options: [OptionSpec] = [],
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

    package func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name } ?? GlobalOptions.specs.first { $0.name == name }
    }
}
