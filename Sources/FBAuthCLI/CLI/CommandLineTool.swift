import FBAuth
import LoopbackHTTP
/// fbauth's entry point: parses argv, runs one command, and turns any error into one line on
/// stderr and an exit code. Nothing below it calls `exit()`.
package struct CommandLineTool: Sendable {
    package static let version = FBAuthVersion.current

    struct Command: Sendable {
        var spec: CommandSpec
        var run: @Sendable (ParsedArguments, CommandContext) throws(FBAuthError) -> Void
    }

    /// Every command, in the order `--help` lists them.
    static let commands: [Command] = [
        Command(spec: SignInCommand.spec, run: SignInCommand.run),
        Command(spec: TokenCommand.spec, run: TokenCommand.run),
        Command(spec: WhoAmICommand.spec, run: WhoAmICommand.run),
        Command(spec: StatusCommand.spec, run: StatusCommand.run),
        Command(spec: AccountsCommand.spec, run: AccountsCommand.run),
        Command(spec: UseCommand.spec, run: UseCommand.run),
        Command(spec: SignOutCommand.spec, run: SignOutCommand.run),
        Command(spec: LinkCommand.spec, run: LinkCommand.run),
        Command(spec: ReauthCommand.spec, run: ReauthCommand.run),
        Command(spec: UnlinkCommand.spec, run: UnlinkCommand.run),
        Command(spec: ProvidersCommand.spec, run: ProvidersCommand.run),
        Command(spec: DeleteAccountCommand.spec, run: DeleteAccountCommand.run),
        Command(spec: DemoCommand.spec, run: DemoCommand.run),
        Command(spec: EmulatorCommand.spec, run: EmulatorCommand.run),
        Command(spec: CompletionCommand.spec, run: CompletionCommand.run),
        Command(spec: HelpCommand.spec, run: HelpCommand.run),
        Command(spec: CompleteCommand.spec, run: CompleteCommand.run),
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
                let context = CommandContext(dependencies: dependencies, globals: try GlobalOptions(parsed))
                try command.run(parsed, context)
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
