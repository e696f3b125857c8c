import FBAuth
/// `fbauth whoami`: the current user as JSON, fresh from the server.
enum WhoAmICommand: RunnableCommand {
    static let spec = CommandSpec(
        name: "whoami",
        summary: "Print the current user as JSON (fresh from Firebase unless --offline).",
        usage: ["[--offline] [--tokens] [--json]", "--claims"],
        options: [
            OptionSpec("claims", help: "Print the ID token's decoded claims instead, as `fbauth token --claims` does."),
            OptionSpec("offline", help: "Print the saved copy without asking Firebase."),
            OptionSpec("json", help: "Accepted for scripts: the output is always JSON."),
            OptionSpec("tokens", help: "Include the ID token, refresh token and expiration time."),
        ],
        details: """
            Without --offline, fbauth refreshes the ID token if needed and reads the user with \
            accounts:lookup, so linked providers, email verification and display name are current, \
            and saves what it learned. Microsoft accounts show their object id (oid) beside the uid.
            """)

    struct Options: Equatable {
        var offline: Bool
        var includeTokens: Bool
        var claims = false
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        if arguments.flag("claims"), let other = ["offline", "tokens"].first(where: arguments.flag) {
            throw .usage("--\(other) does not apply to --claims")
        }
        return Options(offline: arguments.flag("offline"), includeTokens: arguments.flag("tokens"), claims: arguments.flag("claims"))
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        if options.claims {
            try TokenCommand.printClaims(minValid: 60, forceRefresh: false, auth: context.auth(for: context.project()), context)
            return
        }
        var user = try context.user()
        if !options.offline {
            let saved = user
            user = try Waiting.result { saved.reload(completion: $0) }
        }
        context.console.writeOutput(JSONOutput.render(UserJSON(user: user, includeTokens: options.includeTokens)))
    }
}
