import FBAuth

/// One fbauth command. Its options are read into a typed value and validated before anything
/// runs — swift-argument-parser's `validate()` before `run()` — so a usage error never follows
/// a request, a prompt or a write, and `run` holds only values already checked.
protocol RunnableCommand {
    associatedtype Options: Sendable
    static var spec: CommandSpec { get }
    /// Every usage error of the command's own arguments; no side effects.
    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options
    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError)
}

extension CommandLineTool.Command {
    init<C: RunnableCommand>(_ command: C.Type) {
        self.init(spec: C.spec, validate: { (arguments: ParsedArguments) throws(FBAuthError) -> Run in
            let options = try C.options(arguments)
            return { (context: CommandContext) throws(FBAuthError) in try C.run(options, context) }
        })
    }
}
