/// `fbauth use UID-or-EMAIL`: switches the current session.
enum UseCommand {
    static let spec = CommandSpec(
        name: "use",
        summary: "Make another saved session the current one.",
        usage: ["UID-or-EMAIL"],
        positionals: [PositionalSpec("UID-or-EMAIL", help: "The uid or email of a saved session (see `fbauth accounts`).")])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(FBAuthError) {
        let key = try context.projectKey()
        let name = arguments.positionals[0]
        let session = try context.sessionStore().update { (contents: inout StoreContents) throws(FBAuthError) -> Session in
            let session = try contents.session(.user(name), in: key)
            contents.makeCurrent(session.reference, in: key)
            return session
        }
        context.console.say("Now using \(session.displayLabel) (uid \(session.uid)).")
    }
}
