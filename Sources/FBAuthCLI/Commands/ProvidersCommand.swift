import FBAuth
/// `fbauth providers --email E`: the sign-in methods registered for an email.
enum ProvidersCommand: RunnableCommand {
    static let startsSession = true
    static let spec = CommandSpec(
        name: "providers",
        summary: "Print the sign-in methods registered for an email, as a JSON array.",
        usage: ["--email E"],
        options: [OptionSpec("email", value: "EMAIL", help: "The email address to look up.")],
        details: """
            Prints e.g. ["password", "google.com"]. Projects with email enumeration protection \
            (the default for new projects) do not reveal them: then the list is empty.
            """)

    struct Options: Equatable {
        var email: String
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        let email = try arguments.required("email", hint: "EMAIL")
        guard email.contains("@") else { throw .usage("--email '\(email)' is not an email address") }
        return Options(email: email)
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        let email = options.email
        let auth = try context.auth(for: context.project())
        let answer = try Waiting.result { auth.lookUpSignInMethods(forEmail: email, completion: $0) }
        let methods = answer.methods
        context.console.writeOutput(JSONOutput.render(methods))
        if methods.isEmpty {
            context.console.say(answer.isRegistered == false
                ? "No account uses \(email)."
                : "The project does not reveal sign-in methods (email enumeration protection), so none are listed.")
        }
    }
}
