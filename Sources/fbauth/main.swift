import FBAuthCore
import Foundation

// The `fbauth` command. It answers what needs no request — a token that is still fresh, help,
// the commands that only read or edit the session store — without loading the HTTP stack:
// linking FoundationNetworking alone costs milliseconds and megabytes at every start. Anything
// else runs in `fbauth-net`, the same command line with the HTTP stack, which replaces this
// process (exec): same arguments, environment and streams.
Platform.ensureStandardStreams()
Platform.ignoreBrokenPipes()
let arguments = Array(CommandLine.arguments.dropFirst())
let environment = Platform.environment()
let tool = CommandLineTool(dependencies: Dependencies(
    transport: NoTransport(),
    console: StandardConsole(),
    environment: environment,
    clock: SystemClock(),
    browser: SystemBrowserLauncher(environment: environment)))
if let status = tool.runWithoutNetwork(arguments) {
    exit(status)
}
exit(NetworkedCommand.run(arguments))
