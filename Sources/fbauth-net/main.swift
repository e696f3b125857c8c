import FBAuthCore
import FBAuthURLSession
import Foundation

// fbauth with the HTTP stack: `fbauth` runs this (exec) for every command that talks to
// Firebase. Builds the live dependencies, runs the command line, exits with its code.
Platform.ensureStandardStreams()
Platform.ignoreBrokenPipes()
let environment = Platform.environment()
let dependencies = Dependencies(
    transport: URLSessionTransport(),
    console: StandardConsole(),
    environment: environment,
    clock: SystemClock(),
    browser: SystemBrowserLauncher(environment: environment),
    standIn: BundledStandIn(),
    interrupts: SignalInterruptSource())
exit(CommandLineTool(dependencies: dependencies).run(Array(CommandLine.arguments.dropFirst())))
