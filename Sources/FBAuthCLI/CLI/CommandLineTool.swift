import FBAuth
import LoopbackHTTP
/// fbauth's entry point: parses argv, runs one command, and turns any error into one line on
/// stderr and an exit code. Nothing below it calls `exit()`.
package struct CommandLineTool: Sendable {
    package static let version = FBAuthVersion.current

    struct Command: Sendable {
        typealias Run = @Sendable (CommandContext) throws(FBAuthError) -> Void
        var spec: CommandSpec
        /// Reads and checks the command's arguments; returns what runs it.
        var validate: @Sendable (ParsedArguments) throws(FBAuthError) -> Run
    }

    /// Every command, in the order `--help` lists them.
    static let commands: [Command] = [
        Command(SignInCommand.self),
        Command(TokenCommand.self),
        Command(WhoAmICommand.self),
        Command(StatusCommand.self),
        Command(AccountsCommand.self),
        Command(UseCommand.self),
        Command(SignOutCommand.self),
        Command(LinkCommand.self),
        Command(ReauthCommand.self),
        Command(UnlinkCommand.self),
        Command(ProvidersCommand.self),
        Command(DeleteAccountCommand.self),
        Command(DemoCommand.self),
        Command(EmulatorCommand.self),
        Command(CompletionCommand.self),
        Command(HelpCommand.self),
        Command(CompleteCommand.self),
    ]

    /// The commands people use (help, man page, completions list these).
    package static var commandSpecs: [CommandSpec] { commands.map(\.spec).filter { !$0.hidden } }

    let dependencies: Dependencies

    package init(dependencies: Dependencies) {
        self.dependencies = dependencies
    }

    /// Runs `arguments` (without the program name) and returns the exit code.
    package func run(_ arguments: [String]) -> Int32 {
        let console = dependencies.console
        do throws(FBAuthError) {
            switch try ArgumentParser(commands: Self.commands.map(\.spec)).parse(arguments) {
            case .version:
                console.writeOutput("fbauth \(Self.version)\n")
            case .help(let name):
                console.writeOutput(try HelpCommand.text(for: name))
            case .run(let name, let parsed):
                let command = Self.commands.first { $0.spec.name == name }!
                let globals = try GlobalOptions(parsed)
                let runCommand = try command.validate(parsed)
                try runCommand(CommandContext(dependencies: dependencies, globals: globals))
            }
            if let failure = console.outputFailure {
                throw .failed(.internalError, "cannot write to standard output: \(failure)")
            }
            return ExitCode.success.rawValue
        } catch {
            console.say("\(TerminalStyle(console: console, environment: dependencies.environment).errorPrefix) \(TerminalText.safe(error.commandLineMessage))")
            return error.exitCode.rawValue
        }
    }
}
