import FBAuth
import LoopbackHTTP
/// `fbauth emulator`: serves the stand-in on its own, for other programs to test against.
enum EmulatorCommand: RunnableCommand {
    static let defaultPort: UInt16 = 9099

    static let spec = CommandSpec(
        name: "emulator",
        summary: "Serve the local stand-in for Firebase Auth and fake OAuth providers on loopback.",
        usage: ["[--port N] [--token-lifetime SECONDS]"],
        options: [
            OptionSpec("port", value: "PORT", help: "Port to serve on (default \(defaultPort), the Auth emulator's; 0 picks a free port)."),
            OptionSpec("token-lifetime", value: "SECONDS", help: "How long minted ID tokens last (default 3600, as in production); shorter exercises refresh."),
        ],
        details: """
            Unlike the official Auth emulator, which answers createAuthUri for identity providers \
            with 501, the stand-in runs the full OAuth code flow: createAuthUri returns an \
            authorization URL at a fake provider (OAuth 2 with code and state; OAuth 1.0a for \
            twitter.com), whose consent page redirects to your redirect URI, and signInWithIdp \
            exchanges the code. It also serves accounts:lookup, securetoken and multi-factor \
            authentication (TOTP, and SMS codes listed at \
            /emulator/v1/projects/fbauth-stand-in/verificationCodes, without reCAPTCHA).

            Prints HOST:PORT on stdout, then serves until interrupted (Ctrl-C). Point clients at it \
            with FIREBASE_AUTH_EMULATOR_HOST=HOST:PORT and any API key.
            """)

    struct Options: Equatable {
        var port: UInt16
        var tokenLifetime: Int
    }

    static func options(_ arguments: ParsedArguments) throws(FBAuthError) -> Options {
        let lifetime = try arguments.wholeSeconds("token-lifetime", in: 1...86_400) ?? 3600
        return Options(port: try arguments.port("port") ?? defaultPort, tokenLifetime: lifetime)
    }

    static func run(_ options: Options, _ context: CommandContext) throws(FBAuthError) {
        guard let standIn = context.dependencies.standIn else {
            throw .failed(.internalError, "this build of fbauth does not include the local stand-in")
        }
        let running = try standIn.start(port: options.port, tokenLifetime: options.tokenLifetime)
        context.console.writeOutput(running.hostAndPort + "\n")
        context.console.say("Serving the fbauth stand-in on http://\(running.hostAndPort). Use it with:\n  export FIREBASE_AUTH_EMULATOR_HOST=\(running.hostAndPort) FIREBASE_API_KEY=any-key\nSMS codes of second factors are listed at http://\(running.hostAndPort)/emulator/v1/projects/fbauth-stand-in/verificationCodes.\nPress Ctrl-C to stop.")
        Platform.waitUntilTerminated()
    }
}
