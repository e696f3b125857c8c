#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthSupport
import LoopbackHTTP

/// `fbauth exec [--token-file FILE] -- COMMAND…`: runs a command with the current user's ID
/// token in its environment (`FIREBASE_ID_TOKEN`), as aws-vault's `exec` and 1Password's
/// `op run` hand theirs on, never in its arguments. A token lasts an hour: a command that runs
/// longer reads `FIREBASE_ID_TOKEN_FILE`, which `--token-file` keeps fresh while it runs
/// (`token --keep-fresh`). Ctrl-C and SIGTERM go on to the command; fbauth exits with its status.
enum ExecCommand: RunnableCommand {
    static let spec = CommandSpec(
        name: "exec",
        summary: "Run a command with the current user's ID token in its environment (FIREBASE_ID_TOKEN), kept fresh in a file for long runs.",
        usage: ["[--token-file FILE [--format FORMAT]] [--min-valid SECONDS] -- COMMAND [ARGUMENTS…]"],
        options: [
            OptionSpec("token-file", value: "FILE",
                       help: "Also keep the token in FILE while the command runs (its path in FIREBASE_ID_TOKEN_FILE), written again before it expires, as token --keep-fresh does; for commands that outlive an hour."),
            OptionSpec("format", value: "FORMAT", suggestions: TokenFormat.names, help: "The shape of the --token-file: \(TokenFormat.names.joined(separator: ", ")) (default raw)."),
            OptionSpec("min-valid", value: "SECONDS", help: "The token handed on has at least this long left (default 300)."),
        ],
        positionals: [PositionalSpec("COMMAND", repeats: true, help: "After --: the command to run, and its arguments.")],
        details: """
            The token is in the command's environment, not its arguments, which every user of \
            the machine can list. FIREBASE_ID_TOKEN is the token when the command starts; a \
            command that runs longer than the token lives reads FIREBASE_ID_TOKEN_FILE, kept \
            fresh by --token-file, whose file goes when the session is signed out. Ctrl-C and \
            SIGTERM are passed on to the command, and fbauth exits with its status (128 + N \
            for signal N).

            Examples:
              fbauth exec -- sh -c 'curl -H "Authorization: Bearer $FIREBASE_ID_TOKEN" https://…'
              fbauth exec --token-file /run/user/1000/fb-token -- ./long-job
            """)

    struct Options: Equatable {
        var command: [String]
        var tokenFile: String?
        var format: TokenFormat
        var minValid: Int
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        guard arguments.positionalsBeforeSeparator == 0 else {
            throw .usage("exec needs -- before the command: fbauth exec [OPTIONS] -- COMMAND [ARGUMENTS…]")
        }
        guard let program = arguments.positionals.first, !program.isEmpty else { throw .usage("exec needs a command after --") }
        let format = try TokenFormat.named(arguments.value("format"))
        let tokenFile = try arguments.nonEmpty("token-file")
        if format != nil, tokenFile == nil { throw .usage("--format is the shape of --token-file; give --token-file FILE too") }
        return Options(command: arguments.positionals, tokenFile: tokenFile, format: format ?? .raw,
                       minValid: try arguments.wholeSeconds("min-valid", in: 0...3599) ?? TokenCommand.keepFreshMargin)
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        let auth = try context.auth(for: context.project())
        let token = try Waiting.result {
            auth.idToken(of: context.globals.user, minValid: TimeInterval(options.minValid), forcingRefresh: false, completion: $0)
        }
        var environment = context.environment
        environment["FIREBASE_ID_TOKEN"] = token.idToken
        // Ctrl-C and SIGTERM go to the command, not to fbauth, from here on.
        let interrupt = context.dependencies.interrupts.begin()
        defer { interrupt?.end() }
        var keeper: KeptTokenFile?
        if let path = options.tokenFile {
            environment["FIREBASE_ID_TOKEN_FILE"] = Platform.absolutePath(path)
            keeper = try KeptTokenFile.start(path: path, options: options, auth: auth, context)
        }
        let outcome = context.dependencies.runCommand(options.command, environment, interrupt?.descriptor)
        keeper?.stop()
        switch outcome {
        case .success(let status): context.exitStatus.set(status)
        case .failure(let problem): throw .usage("cannot run \(TerminalText.safe(options.command[0])): \(problem.description)")
        }
    }
}

/// `exec --token-file`: the file written before the command starts, then kept fresh on a
/// thread of its own until the command ends.
private final class KeptTokenFile: @unchecked Sendable {
    private let stopper: WakePipe

    private init(stopper: WakePipe) { self.stopper = stopper }

    static func start(path: String, options: ExecCommand.Options, auth: AuthService, _ context: CommandContext) throws(FBAuthError) -> KeptTokenFile {
        guard let stopper = WakePipe() else { throw .failed(.internalError, "cannot make a pipe to stop the token file's refreshes") }
        let token = try Waiting.result {
            auth.idToken(of: context.globals.user, minValid: TimeInterval(options.minValid), forcingRefresh: false, completion: $0)
        }
        let first = try KeepFresh.contents(token, format: options.format, context)
        try auth.writeFile(first, to: path, forSessionOf: token.uid)
        let kept = KeptTokenFile(stopper: stopper)
        let descriptor = stopper.readDescriptor
        BackgroundThread.start {
            // Its failures are said on stderr; the command goes on with the file it has.
            do throws(FBAuthError) {
                try KeepFresh.keep(path: path, minValid: options.minValid, format: options.format, auth: auth, context, until: descriptor,
                                   announce: false, written: first)
            } catch {
                context.console.say("fbauth: \(TerminalText.safe(error.commandLineMessage)); \(TerminalText.safe(path)) is no longer kept fresh")
            }
            // The pipe it waited on lives until it is done with it (no number reused under it).
            withExtendedLifetime(kept) {}
        }
        return kept
    }

    /// Stops the refreshes (the command has ended).
    func stop() { stopper.wake() }
}
