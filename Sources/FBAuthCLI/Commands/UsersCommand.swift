#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthAdmin
import FBAuthHTTP
import FBAuthSupport
import FBAuthVerification

/// `fbauth users …`: a project's (or tenant's) users, for its administrators, on the same
/// engine as FirebaseAdminAuth (FBAuthAdmin): its checks, its codes, its words.
enum UsersCommand: RunnableCommand {
    static let actions = ["list", "get", "create", "update", "delete", "disable", "enable", "set-claims", "revoke", "link", "export", "import"]

    static let spec = CommandSpec(
        name: "users",
        summary: "Manage the project's users with the Admin API: list, look up, create, change, disable, delete, set claims, revoke sessions, make email links.",
        usage: ["list [--max N]", "get UID | --email E | --phone +1…", "create [--uid U] [--email E] [--password-stdin] [--display-name N] [--phone +1…] [--email-verified] [--disabled]",
                "update UID [--email E] [--password-stdin] [--display-name N] [--phone +1…] [--email-verified] [--disabled]",
                "delete UID…", "disable UID", "enable UID", "set-claims UID JSON", "revoke UID", "link reset|verify|signin EMAIL [--continue-url URL]",
                "export FILE [--format json|csv]", "import FILE [--format json|csv] [--hash-algo A [--hash-key-stdin | --hash-key-file F] [--salt-separator S] [--rounds N] [--mem-cost N] …]"],
        options: [
            OptionSpec("max", value: "N", help: "With list: at most N users (default: all of them, a thousand to a page)."),
            OptionSpec("email", value: "EMAIL", help: "With get: look the user up by email; with create and update: the user's email."),
            OptionSpec("phone", value: "NUMBER", help: "With get: look the user up by phone number; with create and update: the user's number (E.164)."),
            OptionSpec("uid", value: "UID", help: "With create: the new user's uid (default: Firebase makes one)."),
            OptionSpec("display-name", value: "NAME", help: "With create and update: the user's name."),
            OptionSpec("password-stdin", help: "With create and update: read the user's password from stdin (never from arguments)."),
            OptionSpec("email-verified", help: "With create and update: take the email as verified."),
            OptionSpec("disabled", help: "With create: create the user disabled."),
            OptionSpec("continue-url", value: "URL", help: "With link: where the user goes once the action is done."),
        ] + UsersTransfer.options,
        positionals: [
            PositionalSpec("ACTION", suggestions: actions, help: actions.joined(separator: ", ") + "."),
            PositionalSpec("ARGUMENTS", optional: true, repeats: true, help: "The uid (several for delete), the uid and the claims' JSON, the kind of link and the email, or the file to export to or import from."),
        ],
        details: """
            Every result is JSON on stdout: a user as firebase-admin's UserRecord.toJSON() \
            writes one (but for the password's hash and salt), a list as {"users": […]}, a link as {"link": …}. The project is \
            --project, else GOOGLE_CLOUD_PROJECT or GCLOUD_PROJECT, else the current \
            session's; --tenant-id works in one of its tenants. The credentials are those \
            verify-token --check-revoked uses (GOOGLE_APPLICATION_CREDENTIALS, gcloud's \
            application default credentials, the metadata server); against an emulator \
            (FIREBASE_AUTH_EMULATOR_HOST) none.

            Arguments are checked as firebase-admin checks them before anything is sent \
            (exit 2): a uid of 1 to 128 characters, an email with one @, a number in E.164, a \
            password of at least 6 characters, claims of at most 1,000 characters without \
            the reserved names. A user the server cannot find, an email already in use, and \
            the server's other refusals are exit 1 with firebase-admin's code and words.

            export and import read and write the files of firebase auth:export and \
            auth:import, JSON or CSV, so users move between the two tools, projects, \
            tenants (--tenant-id, which firebase-tools cannot do) and emulators. An export \
            holds password hashes: it is written mode 0600, replaces FILE only once whole, \
            and never replaces a link or another user's file. An import goes in batches of \
            1,000; a user refused is listed by its place in the file, the others go in. \
            Hashes need --hash-algo and its parameters, as auth:import takes them; the \
            signer key comes from stdin or a file, never an argument. On a terminal, both \
            show their progress on stderr.

            Examples:
              fbauth users export users.json && fbauth --project staging users import users.json --hash-algo SCRYPT --hash-key-file key.txt --salt-separator Bw== --rounds 8 --mem-cost 14
              fbauth users create --email ada@example.com --display-name Ada --password-stdin < password.txt
              fbauth users set-claims UID '{"admin":true}'
              fbauth users list | jq -r '.users[].email'
              fbauth users link reset ada@example.com --continue-url https://example.com/done
            """)

    enum Action: Equatable {
        case list(max: Int?)
        case get(Identifier)
        case create(readsPassword: Bool)
        case update(String, readsPassword: Bool)
        case delete([String])
        case disable(String, Bool)
        case setClaims(String, String)
        case revoke(String)
        case link(String, email: String, continueURL: String?)
        case export(String, AccountFile.Format)
        case importFile(String, AccountFile.Format, UsersTransfer.HashFlags?)

        enum Identifier: Equatable { case uid(String), email(String), phone(String) }
    }

    struct Options: Equatable {
        var action: Action
        var email: String?
        var phone: String?
        var uid: String?
        var displayName: String?
        var emailVerified: Bool
        var disabled: Bool
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        guard let word = arguments.positionals.first else { throw .usage("users needs an action: \(actions.joined(separator: ", "))") }
        let rest = Array(arguments.positionals.dropFirst())
        func one(_ what: String) throws(FBAuthError) -> String {
            guard rest.count == 1, let value = rest.first, !value.isEmpty else { throw .usage("users \(word) takes one \(what)") }
            return value
        }
        let action: Action
        switch word {
        case "list":
            guard rest.isEmpty else { throw .usage("users list takes no arguments") }
            let max = try arguments.nonEmpty("max").map { (text: String) throws(FBAuthError) -> Int in
                guard let number = Int(text), number > 0 else { throw .usage("--max '\(TerminalText.safe(String(text.prefix(20))))' is not a positive number") }
                return number
            }
            action = .list(max: max)
        case "get":
            let ways = [rest.first.map(Action.Identifier.uid), try arguments.nonEmpty("email").map(Action.Identifier.email),
                        try arguments.nonEmpty("phone").map(Action.Identifier.phone)].compactMap { $0 }
            guard ways.count == 1, rest.count <= 1 else { throw .usage("users get takes one of: a uid, --email E or --phone NUMBER") }
            action = .get(ways[0])
        case "create":
            guard rest.isEmpty else { throw .usage("users create takes no arguments; give the uid with --uid") }
            action = .create(readsPassword: arguments.flag("password-stdin"))
        case "update": action = .update(try one("uid"), readsPassword: arguments.flag("password-stdin"))
        case "delete":
            guard !rest.isEmpty else { throw .usage("users delete takes one or more uids") }
            action = .delete(rest)
        case "disable", "enable": action = .disable(try one("uid"), word == "disable")
        case "set-claims":
            guard rest.count == 2 else { throw .usage("users set-claims takes a uid and the claims' JSON object ('{}' removes them)") }
            action = .setClaims(rest[0], rest[1])
        case "revoke": action = .revoke(try one("uid"))
        case "link":
            guard rest.count == 2, ["reset", "verify", "signin"].contains(rest[0]) else { throw .usage("users link takes reset, verify or signin, and the email") }
            action = .link(rest[0], email: rest[1], continueURL: try arguments.nonEmpty("continue-url"))
        case "export":
            let path = try one("file")
            action = .export(path, try UsersTransfer.format(path, arguments))
        case "import":
            let path = try one("file")
            action = .importFile(path, try UsersTransfer.format(path, arguments), try UsersTransfer.hashFlags(arguments))
        default:
            throw .usage("'\(TerminalText.safe(String(word.prefix(40))))' is not a users action; use one of: \(actions.joined(separator: ", "))")
        }
        return Options(action: action, email: try arguments.nonEmpty("email"), phone: try arguments.nonEmpty("phone"), uid: try arguments.nonEmpty("uid"),
                       displayName: arguments.value("display-name"), emailVerified: arguments.flag("email-verified"), disabled: arguments.flag("disabled"))
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        var api = AdminAPI(projectId: try VerifyTokenCommand.projectId(context), emulatorHost: context.settings.emulatorHost,
                           transport: context.dependencies.transport, clock: context.clock, credentials: .applicationDefault(environment: context.environment))
        if let tenant = context.globals.tenantId { api = api.forTenant(tenant) }
        let output: JSONValue
        switch options.action {
        case .export(let path, let format): output = try UsersTransfer.export(to: path, format, api: api, context: context)
        case .importFile(let path, let format, let flags): output = try UsersTransfer.importUsers(from: path, format, flags: flags, api: api, context: context)
        default:
            do throws(TokenRefusal) {
                output = try perform(options, api: api, context: context)
            } catch {
                throw failure(error)
            }
        }
        context.console.writeOutput(JSONOutput.render(output))
        // A partial import did not do what it was asked: the list is on stdout, the exit is 1.
        if case .importFile = options.action, let failed = output["failureCount"]?.integerValue, failed > 0 {
            throw .failed(.serverRefused, "\(failed) of the file's users were not imported; each is in \"errors\" on stdout, by its place in the file")
        }
    }

    private static func perform(_ options: Options, api: AdminAPI, context: CommandContext) throws(TokenRefusal) -> JSONValue {
        switch options.action {
        case .list(let max):
            var users: [JSONValue] = [], token: String?, shown = false
            repeat {
                let page = try api.listUsers(maxResults: min(AdminAPI.maxListUsers, (max ?? Int.max) - users.count), pageToken: token)
                users += page.users.map(printed)
                token = page.pageToken
                // A long listing says how far it is, on a terminal's stderr only.
                if token != nil {
                    UsersTransfer.progress("Listed \(users.count) users…", context)
                    shown = true
                }
            } while token != nil && users.count < (max ?? Int.max)
            if shown { UsersTransfer.endProgress(context) }
            return .object(["users": .array(users)])
        case .get(.uid(let uid)): return printed(try api.getUser(.uid(uid)))
        case .get(.email(let email)): return printed(try api.getUser(.email(email)))
        case .get(.phone(let phone)): return printed(try api.getUser(.phoneNumber(phone)))
        case .create(let readsPassword):
            var user = AdminNewUser()
            (user.uid, user.email, user.phoneNumber, user.displayName) = (options.uid, options.email, options.phone, options.displayName)
            if options.emailVerified { user.emailVerified = true }
            if options.disabled { user.disabled = true }
            if readsPassword { user.password = try password(context) }
            return printed(try api.createUser(user))
        case .update(let uid, let readsPassword):
            var change = AdminUserChange()
            change.email = options.email
            if let phone = options.phone { change.phoneNumber = .some(phone.isEmpty ? nil : phone) }
            if let name = options.displayName { change.displayName = .some(name.isEmpty ? nil : name) }
            if options.emailVerified { change.emailVerified = true }
            if readsPassword { change.password = try password(context) }
            return printed(try api.updateUser(uid, change))
        case .delete(let uids):
            if uids.count == 1 {
                try api.deleteUser(uids[0])
                return .object(["deleted": .array([.string(uids[0])])])
            }
            let deletion = try api.deleteUsers(uids)
            return .object(["successCount": .integer(Int64(deletion.successCount)), "failureCount": .integer(Int64(deletion.failures.count)),
                            "errors": .array(deletion.failures.map { .object(["index": .integer(Int64($0.index)), "uid": .string(uids[$0.index]), "message": .string($0.error.message)]) })])
        case .disable(let uid, let disabled):
            var change = AdminUserChange()
            change.disabled = disabled
            return printed(try api.updateUser(uid, change))
        case .setClaims(let uid, let text):
            guard case .object(let claims)? = JSONValue.decoded(Data(text.utf8)) else {
                throw AdminErrors.client("INVALID_ARGUMENT", message: "the claims must be a JSON object, such as '{\"admin\":true}' ('{}' removes them)")
            }
            try api.setCustomUserClaims(uid, claims.isEmpty ? nil : claims)
            return printed(try api.getUser(.uid(uid)))
        case .revoke(let uid):
            try api.revokeRefreshTokens(uid, now: context.clock.now())
            return printed(try api.getUser(.uid(uid)))
        case .link(let kind, let email, let continueURL):
            var settings = continueURL.map(AdminActionSettings.init(url:))
            if kind == "signin" {
                guard settings != nil else {
                    throw AdminErrors.client("INVALID_ARGUMENT", message: "a sign-in link needs --continue-url, the page that finishes the sign-in")
                }
                settings?.handleCodeInApp = true
            }
            let linkKind: AdminAPI.LinkKind = kind == "reset" ? .passwordReset : kind == "verify" ? .verifyEmail : .signIn
            return .object(["link": .string(try api.emailActionLink(linkKind, email: email, settings: settings))])
        case .export, .importFile:
            preconditionFailure("transfers are run by UsersTransfer")
        }
    }

    /// A user as printed: firebase-admin's `toJSON()` without the password's hash and salt,
    /// which are a secret of their own (an emulator's even holds the password); `users export`
    /// writes them, to a file of the user's alone.
    static func printed(_ user: AdminUserRecord) -> JSONValue {
        guard case .object(var fields) = AdminRecordJSON.user(user) else { return .null }
        (fields["passwordHash"], fields["passwordSalt"]) = (nil, nil)
        return .object(fields)
    }

    /// The user's password: all of stdin, one trailing newline removed.
    private static func password(_ context: CommandContext) throws(TokenRefusal) -> String {
        guard let text = try? SecretInput.text(from: "-", option: "--password-stdin", console: context.console), !text.isEmpty else {
            throw AdminErrors.client("INVALID_PASSWORD")
        }
        return text
    }

    /// The Admin SDK's code and words, with the exit code: bad input 2, unreachable 6, else 1.
    static func failure(_ refusal: TokenRefusal) -> FBAuthError {
        let message = "\(TerminalText.safe(refusal.message)) [\(refusal.code)]"
        if refusal.blame == .unavailable { return .failed(.networkError, message) }
        let code = refusal.code
        if code.hasPrefix("auth/invalid-") || code.hasPrefix("auth/missing-") || ["auth/argument-error", "auth/reserved-claim", "auth/claims-too-large",
                                                                                 "auth/maximum-user-count-exceeded"].contains(code) {
            return .usage(message)
        }
        return .failed(.serverRefused, message)
    }
}
