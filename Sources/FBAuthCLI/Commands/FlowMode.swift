#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth

/// What `signin`, `link` or `reauth` is asked to do with a browser flow.
enum FlowMode: Equatable {
    /// Run the whole flow now, through the browser.
    case run(BrowserFlowRequest)
    /// `--print-url`: start the flow, save it, print its authorization URL.
    case printURL(BrowserFlowRequest)
    /// `--complete URL|-`: finish a flow `--print-url` saved.
    case complete(CompletionSource)

    /// Reads the flow options, or `--complete` and nothing else that would be ignored.
    init(_ arguments: ParsedArguments) throws(FBAuthError) {
        if let address = arguments.value("complete") {
            try arguments.allowOnly(["complete", "loopback"], with: "--complete")
            guard arguments.value("provider") == nil else {
                throw .usage("--complete finishes the flow --print-url started; leave out --provider")
            }
            if address == "-" {
                self = .complete(.standardInput)
            } else {
                guard !address.trimmed().isEmpty else { throw .usage("--complete needs the address the browser ended on, or - to read it from stdin") }
                self = .complete(.argument(address))
            }
            return
        }
        let options = try BrowserFlowRequest(arguments: arguments)
        self = arguments.flag("print-url") ? .printURL(options) : .run(options)
    }

    /// Whether the flow runs whole in this process (not `--print-url` or `--complete`).
    var runsNow: Bool {
        if case .run = self { return true }
        return false
    }

    /// The options of a flow this command starts; nil for `--complete`.
    var startOptions: BrowserFlowRequest? {
        switch self {
        case .run(let options), .printURL(let options): options
        case .complete: nil
        }
    }
}

/// Where `--complete` takes the address from.
enum CompletionSource: Equatable {
    case argument(String)
    /// `--complete -`, which keeps the code and state out of the process list.
    case standardInput
}
