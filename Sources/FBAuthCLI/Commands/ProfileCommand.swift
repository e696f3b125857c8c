import FBAuth
import FBAuthSupport

/// `fbauth profile set --display-name N --photo-url U` (`updateProfile`).
enum ProfileCommand: RunnableCommand {
    static let spec = CommandSpec(
        name: "profile",
        summary: "Set the current user's display name and photo URL.",
        usage: ["set [--display-name NAME] [--photo-url URL]"],
        options: [
            OptionSpec("display-name", value: "NAME", help: "The display name; an empty value removes it."),
            OptionSpec("photo-url", value: "URL", help: "The photo's http(s) URL; an empty value removes it."),
        ],
        positionals: [PositionalSpec("ACTION", suggestions: ["set"], help: "set.")],
        details: """
            Changes the profile on the server (accounts:update), saves it with the session and \
            prints the user as whoami does. The ID token's name and picture claims change at its \
            next refresh (`fbauth token --force-refresh`).

            Examples:
              fbauth profile set --display-name "Ada Lovelace"
              fbauth profile set --photo-url ""
            """)

    struct Options: Equatable {
        var displayName: String?
        var photoURL: String?
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        guard arguments.positionals.first == "set" else {
            throw .usage("'\(arguments.positionals.first ?? "")' is not a profile action; use: fbauth profile set --display-name NAME --photo-url URL")
        }
        if arguments.positionals.count > 1 { throw .usage("unexpected argument '\(arguments.positionals[1])' for profile set") }
        let options = Options(displayName: try ProfileValues.displayName(arguments, allowEmpty: true),
                              photoURL: try ProfileValues.photoURL(arguments))
        guard options.displayName != nil || options.photoURL != nil else { throw .usage("profile set needs --display-name or --photo-url") }
        return options
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        let user = try context.user()
        // An empty value removes the attribute, as the SDKs' `updateProfile` with null does.
        let updated = try Waiting.result { user.updateProfile(displayName: options.displayName, photoURL: options.photoURL, completion: $0) }
        context.console.writeOutput(JSONOutput.render(UserJSON(user: updated, includeTokens: false)))
        context.console.say("Updated the profile of \(updated.displayLabel).")
    }
}

/// Profile values from options, checked before they are sent or saved.
enum ProfileValues {
    /// At most 256 characters without control characters; empty only where it means "remove".
    static func displayName(_ arguments: ParsedArguments, allowEmpty: Bool = false) throws(FBAuthError) -> String? {
        guard let name = arguments.value("display-name") else { return nil }
        if name.isEmpty, allowEmpty { return name }
        guard !name.trimmed().isEmpty, name.count <= 256,
            !name.unicodeScalars.contains(where: { TextChecks.isControl($0) || TextChecks.isBidiControl($0) })
        else { throw .usage("--display-name must be 1 to 256 characters without control or bidirectional formatting characters") }
        return name
    }

    /// An absolute http(s) URL of at most 2048 characters, no spaces; empty means "remove".
    static func photoURL(_ arguments: ParsedArguments) throws(FBAuthError) -> String? {
        guard let url = arguments.value("photo-url") else { return nil }
        if url.isEmpty { return url }
        let lower = url.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), url.count <= 2048, url.utf8.allSatisfy({ (0x21...0x7E).contains($0) }),
            URLHost.of(url) != nil
        else { throw .usage("--photo-url '\(TerminalText.safe(String(url.prefix(80))))' is not an http(s) URL") }
        return url
    }
}

/// The host of an absolute URL, if it has one.
enum URLHost {
    static func of(_ url: String) -> String? {
        guard let range = url.firstRange(of: "://") else { return nil }
        let host = url[range.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return host.isEmpty ? nil : String(host)
    }
}
