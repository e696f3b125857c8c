import FBAuth
import LoopbackHTTP
/// The arguments of one command after tokenizing: option values by name, flags, positionals.
public struct ParsedArguments: Sendable, Equatable {
    public var values: [String: [String]] = [:]
    public var flags: Set<String> = []
    public var positionals: [String] = []

    public init() {}

    /// The value of a single-valued option.
    public func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable option, in order.
    public func all(_ name: String) -> [String] { values[name] ?? [] }

    public func flag(_ name: String) -> Bool { flags.contains(name) }
}

/// What the command line asks for.
public enum Invocation: Sendable, Equatable {
    /// `--help` (for a command, or the whole tool when nil).
    case help(command: String?)
    case version
    case run(command: String, arguments: ParsedArguments)
}
