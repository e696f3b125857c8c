import FBAuth
import FBAuthSupport
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
        Command(ExecCommand.self),
        Command(VerifyTokenCommand.self),
        Command(UsersCommand.self),
        Command(TenantsCommand.self),
        Command(WhoAmICommand.self),
        Command(StatusCommand.self),
        Command(AccountsCommand.self),
        Command(UseCommand.self),
        Command(SignOutCommand.self),
        Command(PruneCommand.self),
        Command(SignUpCommand.self),
        Command(LinkCommand.self),
        Command(ReauthCommand.self),
        Command(UnlinkCommand.self),
        Command(ProvidersCommand.self),
        Command(DeleteAccountCommand.self),
        Command(MfaCommand.self),
        Command(PasswordCommand.self),
        Command(VerifyEmailCommand.self),
        Command(EmailCommand.self),
        Command(ProfileCommand.self),
        Command(StoreCommand.self),
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
                console.writeOutput("fbauth \(Self.version)" + (FBAuthVersion.commit.map { " (commit \($0))" } ?? "") + "\n")
            case .help(let name):
                // `COMMAND --help` is the command's synopsis and options, even where a guide
                // has the command's name (`fbauth help emulator` prints the guide).
                console.writeOutput(try HelpCommand.text(for: name, preferCommand: true))
            case .run(let name, let parsed):
                let command = Self.commands.first { $0.spec.name == name }!
                let globals = try GlobalOptions(parsed)
                let runCommand = try command.validate(parsed)
                // The emulator is a server: the client's settings (App Check, the emulator host)
                // are not its own, and one set for the clients must not stop it.
                let context = ["help", "completion", "__complete", "emulator"].contains(name)
                    ? CommandContext(dependencies: dependencies, globals: globals, settings: RunSettings())
                    : try CommandContext(dependencies: dependencies, globals: globals)
                try runCommand(context)
                if let status = context.exitStatus.value, console.outputFailure == nil { return status }
            }
            return Self.exitCode(afterOutputTo: console, variable: { dependencies.environment[$0] })
        } catch {
            return Self.report(error, console: console, variable: { dependencies.environment[$0] })
        }
    }

    /// Success, unless what the command printed could not be written (a full disk, a closed pipe).
    static func exitCode(afterOutputTo console: Console, variable: (String) -> String?) -> Int32 {
        guard let failure = console.outputFailure else { return ExitCode.success.rawValue }
        return report(.failed(.internalError, "cannot write to standard output: \(failure)"), console: console, variable: variable)
    }

    /// Says what went wrong on stderr, in one line, and gives the exit code.
    static func report(_ error: FBAuthError, console: Console, variable: (String) -> String?) -> Int32 {
        console.writeError("\(TerminalStyle(console: console, variable: variable).errorPrefix) \(TerminalText.safe(error.commandLineMessage))\n")
        return error.exitCode.rawValue
    }
}
