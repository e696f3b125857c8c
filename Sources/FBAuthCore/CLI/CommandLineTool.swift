/// fbauth's entry point: parses argv, runs one command, and turns any error into one line on
/// stderr and an exit code. Nothing below it calls `exit()`.
public struct CommandLineTool: Sendable {
    public static let version = "0.1.0"

    struct Command: Sendable {
        var spec: CommandSpec
        var run: @Sendable (ParsedArguments, CommandContext) throws(FBAuthError) -> Void
        var network: NetworkUse
    }

    /// Whether a command can run in a process without the HTTP stack (see `runWithoutNetwork`).
    enum NetworkUse: Sendable {
        /// Never makes a request.
        case none
        /// Always may.
        case needed
        /// Runs locally when this returns true (e.g. a token that is still fresh); otherwise
        /// it has done nothing and must run where requests can be made.
        case unless(@Sendable (ParsedArguments, CommandContext) throws(FBAuthError) -> Bool)
    }

    /// Every command, in the order `--help` lists them.
    static let commands: [Command] = [
        Command(spec: SignInCommand.spec, run: SignInCommand.run, network: .needed),
        Command(spec: TokenCommand.spec, run: TokenCommand.run, network: .unless(TokenCommand.runFromStore)),
        Command(spec: WhoAmICommand.spec, run: WhoAmICommand.run, network: .unless(WhoAmICommand.runOffline)),
        Command(spec: StatusCommand.spec, run: StatusCommand.run, network: .none),
        Command(spec: AccountsCommand.spec, run: AccountsCommand.run, network: .none),
        Command(spec: UseCommand.spec, run: UseCommand.run, network: .none),
        Command(spec: SignOutCommand.spec, run: SignOutCommand.run, network: .none),
        Command(spec: LinkCommand.spec, run: LinkCommand.run, network: .needed),
        Command(spec: ReauthCommand.spec, run: ReauthCommand.run, network: .needed),
        Command(spec: UnlinkCommand.spec, run: UnlinkCommand.run, network: .needed),
        Command(spec: ProvidersCommand.spec, run: ProvidersCommand.run, network: .needed),
        Command(spec: DeleteAccountCommand.spec, run: DeleteAccountCommand.run, network: .needed),
        Command(spec: DemoCommand.spec, run: DemoCommand.run, network: .needed),
        Command(spec: EmulatorCommand.spec, run: EmulatorCommand.run, network: .needed),
        Command(spec: CompletionCommand.spec, run: CompletionCommand.run, network: .none),
        Command(spec: HelpCommand.spec, run: HelpCommand.run, network: .none),
        Command(spec: CompleteCommand.spec, run: CompleteCommand.run, network: .none),
    ]

    /// The commands people use (help, man page, completions list these).
    public static var commandSpecs: [CommandSpec] { commands.map(\.spec).filter { !$0.hidden } }

    let dependencies: Dependencies

    public init(dependencies: Dependencies) {
        self.dependencies = dependencies
    }

    /// Runs `arguments` (without the program name) and returns the exit code.
    public func run(_ arguments: [String]) -> Int32 {
        execute(arguments, withoutNetwork: false) ?? ExitCode.failure.rawValue
    }

    /// Runs `arguments` if that needs no network request, and returns the exit code; nil when
    /// the command needs the network, in which case nothing has been done. Lets a process that
    /// does not load the HTTP stack answer `fbauth token` with a fresh token, help, and the
    /// commands that only read or edit the session store.
    public func runWithoutNetwork(_ arguments: [String]) -> Int32? {
        execute(arguments, withoutNetwork: true)
    }

    private func execute(_ arguments: [String], withoutNetwork: Bool) -> Int32? {
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
                switch (withoutNetwork, command.network) {
                case (false, _), (true, .none):
                    try command.run(parsed, context)
                case (true, .needed):
                    return nil
                case (true, .unless(let runLocally)):
                    guard try runLocally(parsed, context) else { return nil }
                }
            }
            if let failure = console.outputFailure {
                throw .failed("cannot write to standard output: \(failure)")
            }
            return ExitCode.success.rawValue
        } catch {
            console.say("\(TerminalStyle(console: console, environment: dependencies.environment).errorPrefix) \(TerminalText.safe(error.message))")
            return error.exitCode.rawValue
        }
    }
}
