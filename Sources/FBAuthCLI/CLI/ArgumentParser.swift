import FBAuth
import FBAuthSupport
/// Turns argv into an `Invocation`, or a usage error that names the problem and the nearest
/// valid spelling. Accepts `--name value`, `--name=value`, repeatable options, `-h`, and `--`
/// (everything after it is positional). Global options may come before or after the command.
package struct ArgumentParser: Sendable {
    package let commands: [CommandSpec]

    package init(commands: [CommandSpec]) {
        self.commands = commands
    }

    package func parse(_ arguments: [String]) throws(FBAuthError) -> Invocation {
        if let help = helpRequest(in: arguments) { return help }
        var command: CommandSpec?
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false

        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if command == nil, !onlyPositionals, argument == "-V" || argument == "version" { return .version }
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                if command == nil {
                    command = try lookUpCommand(argument)
                } else {
                    parsed.positionals.append(argument)
                }
                continue
            }
            if argument == "--" {
                if !onlyPositionals, command != nil { parsed.positionalsBeforeSeparator = parsed.positionals.count }
                onlyPositionals = true
                continue
            }
            guard argument.hasPrefix("--") else {
                throw .usage("unknown option '\(argument)'" + scopeSuffix(command) + "; options are spelled --name")
            }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inlineValue = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }

            if name == "version" && command == nil { return .version }
            guard let spec = (command?.options ?? []).first(where: { $0.name == name })
                ?? GlobalOptions.specs.first(where: { $0.name == name })
            else {
                throw unknownOption(name, in: command)
            }
            guard spec.takesValue else {
                if inlineValue != nil { throw .usage("option --\(name) takes no value" + scopeSuffix(command)) }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count, !looksLikeOption(arguments[index]) {
                value = arguments[index]
                index += 1
            } else if spec.valueIsOptional {
                parsed.flags.insert(name)
                continue
            } else {
                throw .usage("option --\(name) needs a value: \(spec.synopsis)" + scopeSuffix(command))
            }
            if !spec.repeatable, let previous = parsed.value(name), previous != value {
                throw .usage("option --\(name) was given twice ('\(previous)' and '\(value)')" + scopeSuffix(command))
            }
            parsed.values[name, default: []].append(value)
        }

        guard let command else { return .help(command: nil) }
        let maximum = command.positionals.count
        if parsed.positionals.count > maximum, command.positionals.last?.repeats != true {
            throw .usage("unexpected argument '\(parsed.positionals[maximum])'" + scopeSuffix(command))
        }
        if let missing = command.positionals.dropFirst(parsed.positionals.count).first(where: { !$0.optional }) {
            throw .usage("missing \(missing.name)" + scopeSuffix(command) + " (usage: fbauth \(command.name) \(command.usage[0]))")
        }
        if let provider = parsed.value("provider"), command.option(named: "provider") != nil {
            parsed.values["provider"] = [try ProviderWords.normalize(provider, allowUnknown: parsed.flags.contains("allow-unknown-provider"))]
        }
        return .run(command: command.name, arguments: parsed)
    }

    /// `-h`/`--help` anywhere before `--` asks for help, for the command if one is named.
    private func helpRequest(in arguments: [String]) -> Invocation? {
        let options = arguments.prefix { $0 != "--" }
        guard options.contains("--help") || options.contains("-h") else { return nil }
        let named = options.first { !$0.hasPrefix("-") }.flatMap { name in commands.first { $0.name == name || $0.aliases.contains(name) } }
        return .help(command: named?.name)
    }

    /// What people type for a command, from other tools (gh, gcloud, firebase).
    static let nearMisses = [
        "logon": "signin", "log-in": "signin", "sign-in": "signin", "signon": "signin", "sign_in": "signin", "auth": "signin",
        "logoff": "signout", "log-out": "signout", "sign-out": "signout", "signoff": "signout", "sign_out": "signout",
        "stat": "status", "info": "status", "user": "whoami", "me": "whoami", "switch": "use", "list": "accounts",
    ]

    private func lookUpCommand(_ name: String) throws(FBAuthError) -> CommandSpec {
        if let command = commands.first(where: { $0.name == name || $0.aliases.contains(name) }) { return command }
        let suggestion = Self.nearMisses[name.lowercased()] ?? Suggestions.closest(to: name, among: commands.map(\.name))
        throw .usage("unknown command '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "; run 'fbauth --help' for the list"))
    }

    private func unknownOption(_ name: String, in command: CommandSpec?) -> FBAuthError {
        // Before a command, `--version` is one too.
        let known = (command?.options ?? []).map(\.name) + GlobalOptions.specs.map(\.name) + ["help"] + (command == nil ? ["version"] : [])
        let suggestion = Suggestions.closest(to: name, among: known)
        return .usage("unknown option '--\(name)'" + scopeSuffix(command) + (suggestion.map { "; did you mean '--\($0)'?" } ?? ""))
    }

    private func scopeSuffix(_ command: CommandSpec?) -> String {
        command.map { " for '\($0.name)'" } ?? ""
    }

    /// `--x` is an option; `-` (stdin) and negative numbers are values.
    private func looksLikeOption(_ argument: String) -> Bool {
        argument.hasPrefix("--") && argument.count > 2
    }
}
