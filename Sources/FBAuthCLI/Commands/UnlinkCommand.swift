import FBAuth
/// `fbauth unlink --provider ID`
enum UnlinkCommand: RunnableCommand {
    static let spec = CommandSpec(
        name: "unlink",
        summary: "Remove a provider from the current user.",
        usage: ["--provider ID"],
        options: [OptionSpec("provider", value: "ID", suggestions: ProviderID.wellKnown + ["password"], help: "The provider to remove (see `fbauth whoami`).")])

    struct Options: Equatable {
        var providerId: String
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        let providerId = try arguments.required("provider", hint: "ID (see `fbauth whoami`)")
        return Options(providerId: providerId == "password" ? providerId : try ProviderWords.validated(providerId))
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        let providerId = options.providerId
        let user = try context.user()
        let updated = try Waiting.result { user.unlink(fromProvider: providerId, completion: $0) }
        context.console.writeOutput(JSONOutput.render(UserJSON(user: updated, includeTokens: false)))
        context.console.say("Unlinked \(providerId) from \(updated.displayLabel).")
    }
}
