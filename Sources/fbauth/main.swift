import FBAuth
import FBAuthCLI
#if os(macOS)
import FBAuthURLSession
#endif
import FBAuthSupport
import CProcessArguments

// The `fbauth` command: builds the live dependencies, runs the command line, exits with its
// code. One executable: on Linux it links FoundationEssentials rather than Foundation (no ICU
// data) and talks HTTP through the system's libcurl, loaded only when a command makes a
// request; a bare `fbauth token` with a fresh token is answered first, by TokenShortcut, so it
// starts in about a millisecond.
Platform.ensureStandardStreams()
Platform.ignoreBrokenPipes()
Platform.disableCoreDumps()
// Tested on C's argv, without building `CommandLine.arguments`: its array of strings is the
// first generic value the runtime would have to set up (docs/speed.md).
if TokenShortcut.handles(CommandLine.unsafeArgv, count: CommandLine.argc),
    let code = TokenShortcut(environment: .live, clock: SystemClock(), console: StandardConsole()).answer() {
    Platform.exit(code)
}
let environment = Platform.environment()
let commit = String(cString: fbauth_build_commit())
FBAuthVersion.commit = commit.isEmpty ? nil : commit
#if os(macOS)
let transport: HTTPTransport = URLSessionTransport()
#else
let transport: HTTPTransport = CurlTransport()
#endif
let dependencies = Dependencies(
    transport: transport,
    console: StandardConsole(),
    environment: environment,
    clock: SystemClock(),
    browser: SystemBrowserLauncher(environment: environment, withholding: { EnvironmentVariables.fbauthSettings }),
    standIn: BundledStandIn(),
    interrupts: SignalInterruptSource())
Platform.exit(CommandLineTool(dependencies: dependencies).run(Array(CommandLine.arguments.dropFirst())))
