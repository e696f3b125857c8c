import FBAuth
import LoopbackHTTP
import FBAuthSupport
/// `fbauth emulator`: serves the stand-in on its own, for other programs to test against.
enum EmulatorCommand: RunnableCommand {
    static let defaultPort: UInt16 = 9099

    static let spec = CommandSpec(
        name: "emulator",
        summary: "Serve the local stand-in for Firebase Auth and fake OAuth providers on loopback.",
        usage: ["[--port N] [--token-lifetime SECONDS] [--import DIR] [--export-on-exit [DIR]]"],
        options: [
            OptionSpec("port", value: "PORT", help: "Port to serve on (default \(defaultPort), the Auth emulator's; 0 picks a free port)."),
            OptionSpec("token-lifetime", value: "SECONDS", help: "How long minted ID tokens last (default 3600, as in production); shorter exercises refresh."),
            OptionSpec("import", value: "DIR", help: "Start with the users and settings of an export (this command's, or Google's Auth emulator's: firebase emulators:export DIR)."),
            OptionSpec("export-on-exit", value: "DIR", optionalValue: true,
                       help: "On Ctrl-C (or SIGTERM), write the users and settings to DIR (default: the --import directory), in the Auth emulator's layout."),
        ],
        details: """
            Unlike the official Auth emulator, which answers createAuthUri for identity providers \
            with 501, the stand-in runs the full OAuth code flow: createAuthUri returns an \
            authorization URL at a fake provider (OAuth 2 with code and state; OAuth 1.0a for \
            twitter.com), whose consent page redirects to your redirect URI, and signInWithIdp \
            exchanges the code. It also serves accounts:lookup, securetoken and multi-factor \
            authentication (TOTP, and SMS codes listed at \
            /emulator/v1/projects/fbauth-stand-in/verificationCodes, without reCAPTCHA).

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

            Examples:
              fbauth emulator --import ./emulator-data --export-on-exit
              firebase emulators:start --only auth --import ./emulator-data
            """)

    struct Options: Equatable {
        var port: UInt16
        var tokenLifetime: Int
        var importDirectory: String?
        /// Where to export on exit; nil: nowhere.
        var exportDirectory: String?
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        let lifetime = try arguments.wholeSeconds("token-lifetime", in: 1...86_400) ?? 3600
        let importDirectory = try arguments.nonEmpty("import").map(Platform.absolutePath)
        var exportDirectory = try arguments.nonEmpty("export-on-exit").map(Platform.absolutePath)
        if arguments.flag("export-on-exit") {
            guard let importDirectory else { throw .usage("--export-on-exit needs a directory, or --import DIR to export to") }
            exportDirectory = importDirectory
        }
        return Options(port: try arguments.port("port") ?? defaultPort, tokenLifetime: lifetime,
                       importDirectory: importDirectory, exportDirectory: exportDirectory)
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        guard let standIn = context.dependencies.standIn else {
            throw .failed(.internalError, "this build of fbauth does not include the local stand-in")
        }
        // Catch Ctrl-C before anything is served, so that no change is lost before an export.
        let interrupt = options.exportDirectory == nil ? nil : context.dependencies.interrupts.begin()
        let running = try standIn.start(port: options.port, tokenLifetime: options.tokenLifetime, importing: options.importDirectory)
        if let exportDirectory = options.exportDirectory {
            do throws(FBAuthError) {
                try running.prepareExport(to: exportDirectory)
            } catch {
                running.stop()
                throw error
            }
        }
        context.console.writeOutput(running.hostAndPort + "\n")
        // Mail and SMS go nowhere: each is printed, as Google's emulator logs them.
        let console = context.console
        running.deliverMessages { console.say("fbauth emulator: \($0)") }
        if let imported = options.importDirectory { context.console.say("Imported the users and settings of \(imported).") }
        context.console.say("Serving the fbauth stand-in on http://\(running.hostAndPort). Use it with:\n  export FIREBASE_AUTH_EMULATOR_HOST=\(running.hostAndPort) FIREBASE_API_KEY=any-key\nSMS codes of second factors are listed at http://\(running.hostAndPort)/emulator/v1/projects/fbauth-stand-in/verificationCodes, mailed links at …/oobCodes.\nPress Ctrl-C to stop" + (options.exportDirectory.map { " (the users are then exported to \($0))." } ?? "."))
        guard let exportDirectory = options.exportDirectory, let interrupt else { Platform.waitUntilTerminated() }
        Platform.waitUntilReadable(interrupt.descriptor)
        interrupt.end()
        running.stop()
        try running.export(to: exportDirectory)
        context.console.say("Exported the users and settings to \(exportDirectory).")
    }
}
