import FBAuth

/// One fbauth command. Its options are read into a typed value and validated before anything
/// runs — swift-argument-parser's `validate()` before `run()` — so a usage error never follows
/// a request, a prompt or a write, and `run` holds only values already checked.
protocol RunnableCommand: SendableMetatype {
    associatedtype Options: Sendable
    static var spec: CommandSpec { get }
    /// Whether the command can start from nothing (signin, signup): without a project it is
    /// then told one (exit 2), where the others find nobody signed in (exit 3).
    static var startsSession: Bool { get }
    /// Every usage error of the command's own arguments; no side effects.
    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options
    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError)
}

extension RunnableCommand {
    static var startsSession: Bool { false }
}

extension CommandLineTool.Command {
    init<C: RunnableCommand>(_ command: C.Type) {
        self.init(spec: C.spec, validate: { (arguments: ParsedArguments) throws(FBAuthError) -> Run in
            let options = try C.options(arguments)
            return { (context: CommandContext) throws(FBAuthError) in
                var context = context
                context.startsSession = C.startsSession
                try C.run(options, context)
            }
        })
    }
}
