#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthSupport
/// `fbauth emulator`: serves the stand-in on its own, for other programs to test against.
enum EmulatorCommand: RunnableCommand {
    static let defaultPort: UInt16 = 9099
    /// A demo project's id, as `firebase emulators:start` takes for projects that exist nowhere.
    static let defaultProject = "demo-fbauth"

    static let spec = CommandSpec(
        name: "emulator",
        summary: "Serve the local stand-in for Firebase Auth and fake OAuth providers on loopback.",
        usage: ["[--port N] [--project ID] [--sign-tokens] [--auto-consent EMAIL] [--token-lifetime SECONDS] [--import DIR] [--export-on-exit [DIR]] [--enforce-app-check] [--app-check-debug-token TOKEN]… [--test-phone-number NUMBER=CODE]… [--hash-config FILE] [--blocking-function EVENT=URL]…",
                "exec [OPTIONS] -- COMMAND [ARGUMENTS…]"],
        options: [
            OptionSpec("port", value: "PORT", help: "Port to serve on (default \(defaultPort), the Auth emulator's; 0 picks a free port)."),
            OptionSpec("sign-tokens", help: "Sign ID tokens and session cookies with RS256 by the stand-in's own key, whose certificate it publishes where Google publishes securetoken's, so that servers check signatures as against production. Default: alg none, as Google's Auth emulator makes them (the Admin SDKs take both from an emulator)."),
            OptionSpec("auto-consent", value: "EMAIL", help: "Consent at the fake providers at once, as EMAIL (or the account a sign-in's login_hint names, fbauth's --email), for scripts and tests with no one to click Allow."),
            OptionSpec("token-lifetime", value: "SECONDS", help: "How long minted ID tokens last (default 3600, as in production); shorter exercises refresh."),
            OptionSpec("import", value: "DIR", help: "Start with the users and settings of an export (this command's, or Google's Auth emulator's: firebase emulators:export DIR)."),
            OptionSpec("export-on-exit", value: "DIR", optionalValue: true,
                       help: "On Ctrl-C (or SIGTERM), write the users and settings to DIR (default: the --import directory), in the Auth emulator's layout."),
            OptionSpec("app-check-debug-token", value: "TOKEN", repeatable: true,
                       help: "Register an App Check debug token (repeatable): its exchange then succeeds for any app id. For tokens made up for local tests; other users can read arguments, so a token registered in a real project belongs in --app-check-debug-token-file FILE (one per line) or FBAUTH_APP_CHECK_DEBUG_TOKEN, which are registered too."),
            OptionSpec("test-phone-number", value: "NUMBER=CODE", repeatable: true,
                       help: "A fictional phone number of the project and its fixed 6-digit code, as production's test phone numbers (repeatable, up to 10): it signs in and serves as a second factor with that code, and no text is sent or listed. Tenants have their own, through the Admin API."),
            OptionSpec("hash-config", value: "FILE",
                       help: "The project's password hash parameters, as the Firebase console shows them (Users, Password hash parameters: hash_config { algorithm: SCRYPT, base64_signer_key: …, … }), or the Admin API's signIn.hashConfig JSON: users imported from firebase auth:export then sign in with their real passwords."),
            OptionSpec("blocking-function", value: "EVENT=URL", repeatable: true,
                       help: "Call a blocking function (repeatable): EVENT is beforeCreate, beforeSignIn, beforeSendEmail or beforeSendSms, URL where it serves (a firebase-functions handler, the Functions emulator's). Also set through the Admin API's blockingFunctions, as for Google's emulator."),
            OptionSpec("enforce-app-check", help: "Refuse every Identity Toolkit and securetoken request without a valid App Check token, with production's answer (401 Firebase App Check token is invalid.)."),
        ],
        positionals: [
            PositionalSpec("exec", optional: true, suggestions: ["exec"], help: "exec -- COMMAND [ARGUMENTS…]: serve only while COMMAND runs, as firebase emulators:exec does."),
            PositionalSpec("COMMAND", optional: true, repeats: true, help: "After --: the command to run, and its arguments."),
        ],
        details: """
            Unlike the official Auth emulator, which answers createAuthUri for identity providers \
            with 501, the stand-in runs the full OAuth code flow: createAuthUri returns an \
            authorization URL at a fake provider (OAuth 2 with code and state; OAuth 1.0a for \
            twitter.com), whose consent page redirects to your redirect URI, and signInWithIdp \
            exchanges the code. It also serves accounts:lookup, securetoken and multi-factor \
            authentication (TOTP, and SMS codes listed at \
            /emulator/v1/projects/PROJECT/verificationCodes, without reCAPTCHA).

            It starts as Google's Auth emulator does: --project ID (a global option; default \
            demo-fbauth) is the project of clients with an API key, and every projects/P/… path \
            serves any other project with users of its own; email enumeration protection is off \
            until PATCH /emulator/v1/projects/P/config turns it on; any continue URL is taken. \
            The Admin API is served too: users (lookup, update, delete, query, batchGet, \
            batchCreate, batchDelete, sendOobCode links, createSessionCookie), tenants, and OpenID \
            Connect and SAML provider configurations, and v2 projects/P/config; so are passkeys \
            and the legacy v3 relyingparty paths, as Google's emulator serves them. Where Google's \
            emulator answers otherwise than production, it answers as Google's does. The whole \
            list: fbauth help emulator.

            A users page is at its address (http://127.0.0.1:PORT/ in a browser): it lists, \
            searches, adds, edits and deletes the users of each project and tenant, and is served \
            to that address only. JSON clients of / still get the status answer.

            Blocking functions are called as Google's emulator calls them (--blocking-function \
            beforeSignIn=http://127.0.0.1:8081/, or the Admin API's blockingFunctions): the \
            user's changes and session claims they answer are applied, and a refusal reaches \
            the client in production's words. beforeSendEmail and beforeSendSms run too.

            Its ID tokens are unsigned (alg none), as Google's Auth emulator makes them. With \
            --sign-tokens they are signed with RS256 by a key of its own (public: emulator tokens \
            prove nothing elsewhere), whose certificate it publishes where Google publishes \
            securetoken's (/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com), \
            so that servers check their signatures (fbauth verify-token, FirebaseAdminAuth), and \
            as a JSON Web Key Set with each project's OpenID Connect discovery document, for API \
            gateways and JWT libraries.

            Test phone numbers, as production has them: --test-phone-number +15555550100=123456 \
            signs that number in (or answers a second factor) with that code, and texts nothing.

            Imported password hashes are checked as production checks them, for all 13 algorithms \
            of the Admin SDKs' importUsers (Firebase's own SCRYPT, STANDARD_SCRYPT, BCRYPT, PBKDF2, \
            HMAC and the plain hashes): users from firebase auth:import or fbauth users import sign \
            in with their real passwords. A firebase auth:export file's hashes name no algorithm: \
            --hash-config FILE gives the project's (the console's password hash parameters).

            Prints HOST:PORT on stdout, then serves until interrupted (Ctrl-C). Every mail and SMS \
            it would send is printed on stderr instead, link or code included, as Google's Auth \
            emulator logs them. Point clients at it \
            with FIREBASE_AUTH_EMULATOR_HOST=HOST:PORT and any API key.

            --import and --export-on-exit keep users across restarts, as firebase emulators:start \
            does, in the same directory layout as Google's Auth emulator \
            (firebase-export-metadata.json, auth_export/accounts.json, auth_export/config.json): \
            users move between the two in either direction. Passwords are kept as the Auth \
            emulator keeps them (readable: these are test users); TOTP second factors, which it \
            lacks, in auth_export/fbauth-totp-factors.json.

            App Check, which Google's Auth emulator ignores, can be tried here: \
            --enforce-app-check refuses requests as a project that enforces it does, and the \
            debug tokens registered (--app-check-debug-token, --app-check-debug-token-file, \
            FBAUTH_APP_CHECK_DEBUG_TOKEN) are exchanged for App Check tokens at \
            /content-firebaseappcheck.googleapis.com/v1/projects/P/apps/APP:exchangeDebugToken, \
            where clients under FIREBASE_AUTH_EMULATOR_HOST send them.

            exec runs a command against the emulator, as firebase emulators:exec does: it \
            starts serving, runs COMMAND with FIREBASE_AUTH_EMULATOR_HOST and GCLOUD_PROJECT \
            set (and FIREBASE_API_KEY, which the emulator takes any of, unless set already), passes Ctrl-C and SIGTERM on to it, stops (exporting, with --export-on-exit) \
            when it ends, and exits with its status. Its stdout is the command's alone: the \
            address goes to stderr.

            Examples:
              fbauth emulator --import ./emulator-data --export-on-exit
              fbauth emulator exec --port 0 -- npm test
              firebase emulators:start --only auth --import ./emulator-data
              FBAUTH_APP_CHECK_DEBUG_TOKEN=$(uuidgen) fbauth emulator --enforce-app-check
            """)

    struct Options: Equatable {
        var port: UInt16
        var tokenLifetime: Int
        var signsTokens = false
        var autoConsentEmail: String?
        var importDirectory: String?
        /// Where to export on exit; nil: nowhere.
        var exportDirectory: String?
        /// `--app-check-debug-token` values (the file's and the variable's are read in `run`).
        var debugTokens: [String] = []
        var enforceAppCheck = false
        var testPhoneNumbers: [String: String] = [:]
        /// `--hash-config FILE`'s text.
        var hashParameters: String?
        var blockingFunctions: [String: String] = [:]
        /// `exec -- COMMAND…`: the command to run against the emulator; nil: serve until stopped.
        var command: [String]?
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        let lifetime = try arguments.wholeSeconds("token-lifetime", in: 1...86_400) ?? 3600
        let importDirectory = try arguments.nonEmpty("import").map(Platform.absolutePath)
        var exportDirectory = try arguments.nonEmpty("export-on-exit").map(Platform.absolutePath)
        if arguments.flag("export-on-exit") {
            guard let importDirectory else { throw .usage("--export-on-exit needs a directory, or --import DIR to export to") }
            exportDirectory = importDirectory
        }
        let debugTokens = arguments.all("app-check-debug-token")
        for token in debugTokens { try checkDebugToken(token, from: "--app-check-debug-token") }
        let autoConsent = try arguments.nonEmpty("auto-consent")
        if let autoConsent, !(autoConsent.contains("@") && autoConsent.count <= 254 && !autoConsent.contains(where: { $0.isWhitespace || $0.isNewline })) {
            throw .usage("--auto-consent '\(TerminalText.safe(String(autoConsent.prefix(60))))' is not an email address")
        }
        return Options(port: try arguments.port("port") ?? defaultPort, tokenLifetime: lifetime, signsTokens: arguments.flag("sign-tokens"), autoConsentEmail: autoConsent,
                       importDirectory: importDirectory, exportDirectory: exportDirectory,
                       debugTokens: debugTokens, enforceAppCheck: arguments.flag("enforce-app-check"),
                       testPhoneNumbers: try testPhoneNumbers(arguments.all("test-phone-number")),
                       hashParameters: try hashParameters(arguments.nonEmpty("hash-config")),
                       blockingFunctions: try blockingFunctions(arguments.all("blocking-function")),
                       command: try command(arguments))
    }

    static let blockingEvents = ["beforeCreate", "beforeSignIn", "beforeSendEmail", "beforeSendSms"]

    /// `--blocking-function EVENT=URL`s: each event once, each URL absolute http or https.
    static func blockingFunctions(_ values: [String]) throws(FBAuthError) -> [String: String] {
        var functions: [String: String] = [:]
        for value in values {
            guard let equals = value.firstIndex(of: "="), blockingEvents.contains(String(value[..<equals])) else {
                throw .usage("--blocking-function '\(TerminalText.safe(String(value.prefix(40))))' is not EVENT=URL, EVENT one of \(blockingEvents.joined(separator: ", "))")
            }
            let event = String(value[..<equals]), address = String(value[value.index(after: equals)...])
            guard let url = URLComponents(string: address), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false else {
                throw .usage("--blocking-function \(event): '\(TerminalText.safe(String(address.prefix(60))))' is not an http or https URL")
            }
            guard functions[event] == nil else { throw .usage("--blocking-function names \(event) twice") }
            functions[event] = address
        }
        return functions
    }

    /// `--hash-config FILE`: read here, on its descriptor, so that a missing or unreadable file
    /// is said before anything is served; the emulator checks what it says.
    static func hashParameters(_ path: String?) throws(FBAuthError) -> String? {
        guard let path else { return nil }
        let data: Data?
        do throws(Platform.FileProblem) { data = try Platform.readUserFile(Platform.absolutePath(path), limit: 64 * 1024) } catch {
            throw .usage("--hash-config: \(error.description)")
        }
        guard let data else { throw .usage("--hash-config: there is no file \(TerminalText.safe(path))") }
        return String(decoding: data, as: UTF8.self)
    }

    /// `exec -- COMMAND [ARGUMENTS…]`, as `firebase emulators:exec` takes it; nil without exec.
    static func command(_ arguments: ParsedArguments) throws(FBAuthError) -> [String]? {
        guard let first = arguments.positionals.first else { return nil }
        guard first == "exec", arguments.positionalsBeforeSeparator != 0 else {
            throw .usage("unexpected argument '\(TerminalText.safe(String(first.prefix(40))))'; to run a command against the emulator: fbauth emulator exec -- COMMAND")
        }
        guard arguments.positionalsBeforeSeparator == 1 else {
            throw .usage("emulator exec needs -- before the command: fbauth emulator exec [OPTIONS] -- COMMAND [ARGUMENTS…]")
        }
        let command = Array(arguments.positionals.dropFirst())
        guard let program = command.first, !program.isEmpty else { throw .usage("emulator exec needs a command after --") }
        return command
    }

    /// `--test-phone-number NUMBER=CODE`s: E.164 numbers, each with a 6-digit code, at most 10,
    /// as production takes a project's test phone numbers.
    static func testPhoneNumbers(_ values: [String]) throws(FBAuthError) -> [String: String] {
        var numbers: [String: String] = [:]
        for value in values {
            let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, isE164(parts[0]), parts[1].count == 6, parts[1].allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw .usage("--test-phone-number '\(TerminalText.safe(String(value.prefix(40))))' is not NUMBER=CODE: an E.164 number (+15555550100) and a 6-digit code")
            }
            guard numbers[parts[0]] == nil else { throw .usage("--test-phone-number names \(parts[0]) twice") }
            numbers[parts[0]] = parts[1]
        }
        guard numbers.count <= 10 else { throw .usage("--test-phone-number: at most 10 test numbers, as production allows") }
        return numbers
    }

    /// `+` and 8 to 15 digits, as the emulator takes a phone number.
    private static func isE164(_ number: String) -> Bool {
        number.hasPrefix("+") && (8...15).contains(number.count - 1) && number.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }

    private static func checkDebugToken(_ token: String, from source: String) throws(FBAuthError) {
        guard AppCheckDebugSettings.isDebugToken(token) else {
            throw .usage("\(source): '\(TerminalText.safe(String(token.prefix(40))))' is not an App Check debug token: 1 to 200 letters, digits and -_. such as a UUID")
        }
    }

    /// App Check on the stand-in: the debug tokens of the options, the file (one per line) and
    /// FBAUTH_APP_CHECK_DEBUG_TOKEN; nil when none is given and nothing is enforced.
    static func appCheck(_ options: Options, _ context: CommandContext) throws(FBAuthError) -> LocalAppCheck? {
        var tokens = options.debugTokens
        if let file = context.globals.appCheckDebugTokenFile {
            let lines = try SecretInput.text(from: file, option: "--app-check-debug-token-file", console: context.console)
                .split(whereSeparator: \.isNewline).map { String($0).trimmed() }.filter { !$0.isEmpty }
            for token in lines { try checkDebugToken(token, from: "--app-check-debug-token-file") }
            tokens += lines
        }
        if let token = context.environment["FBAUTH_APP_CHECK_DEBUG_TOKEN"], !token.isEmpty {
            try checkDebugToken(token, from: "FBAUTH_APP_CHECK_DEBUG_TOKEN")
            tokens.append(token)
        }
        guard !tokens.isEmpty || options.enforceAppCheck else { return nil }
        return LocalAppCheck(debugTokens: tokens, enforced: options.enforceAppCheck)
    }

    /// What App Check does here, in one line; nil when it is off.
    static func appCheckLine(_ appCheck: LocalAppCheck?) -> String? {
        guard let appCheck else { return nil }
        let count = Set(appCheck.debugTokens).count
        let tokens = count == 0 ? "no debug token is registered, so every request is refused" : count == 1 ? "1 debug token is registered" : "\(count) debug tokens are registered"
        return "App Check is \(appCheck.enforced ? "enforced" : "not enforced (its header is not required)"); \(tokens)."
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        guard let standIn = context.dependencies.standIn else {
            throw .failed(.internalError, "this build of fbauth does not include the local stand-in")
        }
        // Catch Ctrl-C before anything is served, so that no change is lost before an export
        // (and, with exec, so that it goes to the command).
        let interrupt = options.exportDirectory == nil && options.command == nil ? nil : context.dependencies.interrupts.begin()
        let appCheck = try appCheck(options, context)
        // The global --project names the project clients with an API key sign in to; the Admin
        // API's projects/P/… paths serve any other too, each with users of its own.
        let project = context.globals.project ?? defaultProject
        var setup = LocalEmulatorSetup(port: options.port)
        setup.project = project
        setup.tokenLifetime = options.tokenLifetime
        setup.signsTokens = options.signsTokens
        setup.autoConsentEmail = options.autoConsentEmail
        setup.importing = options.importDirectory
        setup.appCheck = appCheck
        setup.testPhoneNumbers = options.testPhoneNumbers
        setup.hashParameters = options.hashParameters
        setup.blockingFunctions = options.blockingFunctions
        let running = try standIn.start(setup)
        if let exportDirectory = options.exportDirectory {
            do throws(FBAuthError) {
                try running.prepareExport(to: exportDirectory)
            } catch {
                running.stop()
                throw error
            }
        }
        if let command = options.command {
            try execute(command, against: running, project: project, interrupt: interrupt, options: options, context: context)
            return
        }
        context.console.writeOutput(running.hostAndPort + "\n")
        // Mail and SMS go nowhere: each is printed, as Google's emulator logs them.
        let console = context.console
        running.deliverMessages { console.say("fbauth emulator: \($0)") }
        if let directory = options.importDirectory, let line = importLine(running.imported, directory: directory, exporting: options.exportDirectory != nil) {
            context.console.say(line)
        }
        if let line = appCheckLine(appCheck) { context.console.say(line) }
        context.console.say("Serving the fbauth stand-in on http://\(running.hostAndPort). Use it with:\n  export FIREBASE_AUTH_EMULATOR_HOST=\(running.hostAndPort) FIREBASE_API_KEY=any-key\nSee and edit its users at http://\(running.hostAndPort)/ in a browser.\nSMS codes are listed at http://\(running.hostAndPort)/emulator/v1/projects/\(project)/verificationCodes, mailed links at …/oobCodes.\nPress Ctrl-C to stop" + (options.exportDirectory.map { " (the users are then exported to \($0))." } ?? "."))
        guard let exportDirectory = options.exportDirectory, let interrupt else { Platform.waitUntilTerminated() }
        Platform.waitUntilReadable(interrupt.descriptor)
        interrupt.end()
        running.stop()
        try running.export(to: exportDirectory)
        context.console.say("Exported the users and settings to \(exportDirectory).")
    }

    /// `exec`: runs `command` against the running emulator, then stops it (exporting where
    /// asked), and makes the command's status fbauth's.
    private static func execute(_ command: [String], against running: RunningStandIn, project: String, interrupt: InterruptWatch?,
                                options: Options, context: CommandContext) throws(FBAuthError) {
        let console = context.console
        running.deliverMessages { console.say("fbauth emulator: \($0)") }
        console.say("fbauth emulator: serving on http://\(running.hostAndPort) for \(TerminalText.safe(command[0]))")
        var environment = context.environment
        environment["FIREBASE_AUTH_EMULATOR_HOST"] = running.hostAndPort
        environment["GCLOUD_PROJECT"] = project
        // The emulator takes any API key; the clients under it (fbauth's own, the JS SDK's
        // tests) want one, so one is given unless the user gave their own.
        if (environment["FIREBASE_API_KEY"] ?? "").isEmpty { environment["FIREBASE_API_KEY"] = "fake-api-key" }
        let outcome = context.dependencies.runCommand(command, environment, interrupt?.descriptor)
        interrupt?.end()
        running.stop()
        if let exportDirectory = options.exportDirectory {
            try running.export(to: exportDirectory)
            console.say("Exported the users and settings to \(exportDirectory).")
        }
        switch outcome {
        case .success(let status): context.exitStatus.set(status)
        case .failure(let problem): throw .usage("cannot run \(TerminalText.safe(command[0])): \(problem.description)")
        }
    }

    /// What `--import` found, in words: a first start is no import.
    static func importLine(_ imported: ImportedUsers, directory: String, exporting: Bool) -> String? {
        let later = exporting ? " (they are exported there on exit)" : ""
        switch imported {
        case .notAsked: return nil
        case .noDirectory: return "Starting with no users: \(directory) does not exist yet\(later)."
        case .emptyDirectory: return "Starting with no users: \(directory) is empty\(later)."
        case .users(let count): return "Imported \(count == 1 ? "1 user" : "\(count) users") and the settings of \(directory)."
        }
    }
}
