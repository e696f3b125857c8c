#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth

extension FlowOptionSpecs {
    static let twoStep: [OptionSpec] = [
        OptionSpec("print-url", help: "Start the flow, save it, print only the authorization URL and exit (for scripts; uses --port, default \(BrowserFlowRequest.defaultPort))."),
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
}
