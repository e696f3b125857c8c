import Foundation

/// Waits for the provider's redirect, whichever way it comes, and keeps the user informed:
/// - at the loopback listener (the normal case, also over SSH port forwarding);
/// - pasted into the terminal: the address the browser ended on, when it could not reach the
///   listener (another machine, a container) — accepted whenever stdin is a terminal;
/// - Ctrl-C cancels (exit 4) with the listener closed and the store untouched;
/// - once, after `hintAfter` without a callback, the URL is shown again with the other ways;
/// - a browser launcher that fails is reported, and the wait goes on as with `--no-browser`.
struct CallbackWaiter {
    let receiver: RedirectReceiver
    let matcher: CallbackMatcher
    let authorizationURL: String
    let console: Console
    let interrupts: InterruptSource
    var hintAfter: Duration = .seconds(30)
    var launched: LaunchedBrowser?
    /// Show "Waiting for the browser… 12 s" on one line that updates every second.
    var showsStatusLine = false

    func wait(timeout: Duration) throws(FBAuthError) -> ReceivedCallback {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start.advanced(by: timeout)
        var hintDue: ContinuousClock.Instant? = start.advanced(by: hintAfter)
        var launched = self.launched
        var readsTerminal = console.isInputTerminal
        let interrupt = interrupts.begin()
        let status = StatusLine(console: console, isShown: showsStatusLine)
        defer {
            interrupt?.end()
            status.clear()
        }

        while true {
            status.show("Waiting for the browser… \((clock.now - start).components.seconds) s (Ctrl-C cancels)")
            // Wake up for the hint, every second for the status line, and every 200 ms while a
            // launcher runs, to notice it failing.
            var wake = deadline
            if let hintDue { wake = min(wake, hintDue) }
            if showsStatusLine { wake = min(wake, clock.now.advanced(by: .seconds(1))) }
            if launched != nil { wake = min(wake, clock.now.advanced(by: .milliseconds(200))) }
            var watching = interrupt.map { [$0.descriptor] } ?? []
            if readsTerminal { watching.append(console.inputDescriptor) }

            switch receiver.wait(for: matcher, until: wake, watching: watching) {
            case .callback(let callback):
                return callback
            case .readable(let fd) where fd == interrupt?.descriptor:
                status.clear()
                console.say("cancelled")
                throw .flowIncomplete("sign-in cancelled")
            case .readable:
                guard let line = console.readLine() else {
                    readsTerminal = false  // the terminal closed; keep waiting for the listener
                    continue
                }
                if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
                switch PastedRedirect.callback(from: line, redirectURI: receiver.redirectURI, matcher: matcher) {
                case .success(let callback):
                    return callback
                case .failure(let problem):
                    status.clear()
                    console.say("That is not the redirect for this sign-in (\(problem.reason)). Paste the whole address from the browser's address bar.")
                }
            case .deadlineReached:
                if clock.now >= deadline {
                    throw .flowIncomplete("no answer from the browser within \(timeout.wholeSeconds) s; run the command again (or raise --timeout)")
                }
                if let failure = launched?.failure() {
                    status.clear()
                    console.say("fbauth: the browser could not be opened (\(failure)).")
                    console.say(Self.manualInstructions(url: authorizationURL, readsTerminal: readsTerminal))
                    launched = nil
                }
                if let due = hintDue, clock.now >= due {
                    status.clear()
                    console.say("Still waiting for the browser. If it did not open, visit:\n\n  \(authorizationURL)\n")
                    console.say(Self.manualInstructions(url: nil, readsTerminal: readsTerminal))
                    hintDue = nil
                }
            }
        }
    }

    /// What to do when the browser cannot reach this machine.
    static func manualInstructions(url: String?, readsTerminal: Bool) -> String {
        var text = url.map { "Open this address in a browser on any machine:\n\n  \($0)\n\n" } ?? ""
        text += "If that browser cannot reach this machine's loopback address (SSH, a container), forward the port (ssh -L) "
        text += readsTerminal
            ? "or paste here the address it ends on (the page that does not load)."
            : "or use --print-url and then --complete with the address it ends on."
        return text
    }
}

/// A line on stderr that is rewritten in place (a terminal only).
private struct StatusLine {
    let console: Console
    let isShown: Bool

    func show(_ text: String) {
        if isShown { console.writeError(TerminalStyle.clearLine + text) }
    }

    func clear() {
        if isShown { console.writeError(TerminalStyle.clearLine) }
    }
}
