#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import LoopbackHTTP

extension FlowOptionSpecs {
    static let twoStep: [OptionSpec] = [
        OptionSpec("print-url", help: "Start the flow, save it, print only the authorization URL and exit (for scripts; uses --port, default \(FlowOptions.defaultPort))."),
        OptionSpec("complete", value: "URL|-", help: "Finish a flow started with --print-url, given the address the browser ended on. Use - to read it from stdin: an argument carries the code and state into the process list, where other users can read it."),
    ]
}

extension CommandContext {
    /// The address given to `--complete`, or read from stdin for `-`.
    func completionAddress(_ source: CompletionSource) throws(FBAuthError) -> String {
        if case .argument(let address) = source {
            console.say("fbauth: warning: the address given to --complete is visible to other users of this machine in the process list; next time use --complete - and paste it on stdin.")
            return address
        }
        guard let line = console.readLine(), !line.trimmed().isEmpty else {
            throw .usage("--complete -: no address on stdin")
        }
        return line
    }

    func twoStepFlow(for project: ProjectContext, secondFactor: SecondFactorHandling? = nil) throws(FBAuthError) -> TwoStepFlow {
        TwoStepFlow(flow: try browserFlow(for: project, secondFactor: secondFactor), store: sessionStore(), project: project.key, clock: clock)
    }

    /// `--print-url`: starts the flow, prints only its URL on stdout, and says on stderr how to
    /// finish it.
    func printAuthorizationURL(_ options: FlowOptions, command: String, user: SessionReference?, project: ProjectContext) throws(FBAuthError) {
        let url: String
        do throws(FBAuthError) {
            url = try twoStepFlow(for: project).start(options, command: command, user: user)
        } catch where options.port == 0 && error.code == .invalidArgument {
            throw error.hinting("--print-url needs --port N")
        } catch where error.code == .operationNotAllowed {
            throw error.hinting("run `fbauth \(command)` without --print-url")
        }
        console.writeOutput(url + "\n")
        let redirectURI = "http://\(options.redirectHost.rawValue):\(options.port)\(RedirectReceiver.callbackPath)"
        console.say("Open the URL in a browser. When it has been sent to \(redirectURI)?… (the page may not load), finish with:\n  fbauth \(command) --complete -\nand paste the address (an argument would show it to other users in the process list).")
    }
}
