import FBAuth
import LoopbackHTTP
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
        let project = try context.project()
        let store = context.sessionStore()
        let saved = try store.load().session(context.selector, in: project.key)
        guard saved.providerData.contains(where: { $0.providerId == providerId }) else {
            let linked = saved.providerData.map(\.providerId).joined(separator: ", ")
            throw .failed(.serverRefused, "\(providerId) is not linked to \(saved.displayLabel)" + (linked.isEmpty ? "" : " (linked: \(linked))"))
        }
        let refresher = context.tokenRefresher(for: project.key)
        let session = try refresher.session(.exactly(saved.reference), minValid: 60)
        let account: AccountInfo
        do throws(FBAuthError) {
            account = try project.client.deleteProviders([providerId], idToken: session.idToken)
        } catch where error.rejectsSession {
            try refresher.reject(session, because: error)
        }
        let updated = try store.update { (contents: inout StoreContents) throws(FBAuthError) -> Session in
            var current = try contents.session(.exactly(session.reference), in: project.key)
            current.update(from: account)
            current.providerCredentials.removeAll { $0.providerId == providerId }
            contents.save(current, in: project.key, makeCurrent: false)
            return current
        }
        context.console.writeOutput(JSONOutput.render(UserJSON(session: updated, includeTokens: false)))
        context.console.say("Unlinked \(providerId) from \(updated.displayLabel).")
    }
}
