import FBAuth
/// The arguments of one command after tokenizing: option values by name, flags, positionals.
package struct ParsedArguments: Sendable, Equatable {
    package var values: [String: [String]] = [:]
    package var flags: Set<String> = []
    package var positionals: [String] = []
    /// How many positionals came before `--`; nil when there was none. What follows it is a
    /// command to run (`emulator exec -- CMD ARGS…`), however it is spelled.
    package var positionalsBeforeSeparator: Int?

    package init() {}

    /// The value of a single-valued option.
    package func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable option, in order.
    package func all(_ name: String) -> [String] { values[name] ?? [] }

    package func flag(_ name: String) -> Bool { flags.contains(name) }
}

/// What the command line asks for.
package enum Invocation: Sendable, Equatable {
    /// `--help` (for a command, or the whole tool when nil).
    case help(command: String?)
    case version
    case run(command: String, arguments: ParsedArguments)
}
