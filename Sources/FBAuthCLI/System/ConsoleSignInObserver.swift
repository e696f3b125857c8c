import FBAuth

/// Shows a sign-in's progress on stderr: notices as lines, the waiting line redrawn in place
/// (only on a terminal that can, see `TerminalStyle.isRich`); pasted addresses come from stdin.
struct ConsoleSignInObserver: SignInObserver {
    let console: Console
    let style: TerminalStyle
    var showsWaitingLine: Bool { style.isRich }
    /// `--verbose`: details are shown too.
    var verbose = false

    func signIn(_ event: SignInEvent) {
        switch event {
        case .notice(let text): console.say(text)
        case .waiting(let line?): if style.isRich { console.writeError(TerminalStyle.clearLine + line) }
        case .waiting(nil): if style.isRich { console.writeError(TerminalStyle.clearLine) }
        case .detail(let text): if verbose { console.say(text) }
        }
    }

    var pasteInput: PasteInput? { StandardInput(console: console) }

    private struct StandardInput: PasteInput {
        let console: Console
        var descriptor: Int32 { console.inputDescriptor }
        var isTerminal: Bool { console.isInputTerminal }
        func readLine() -> String? { console.readLine() }
    }
}
