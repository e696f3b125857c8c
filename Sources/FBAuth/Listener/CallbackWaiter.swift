#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP
import FBAuthSupport

/// Waits for the provider's redirect at the loopback listener (`--loopback`), or for an
/// address the user pastes, with everything `BrowserWait` does around it.
struct CallbackWaiter {
    let receiver: RedirectReceiver
    let matcher: CallbackMatcher
    let authorizationURL: String
    let observer: SignInObserver
    let interrupts: InterruptSource
    var hintAfter: Duration = .seconds(30)
    var launched: LaunchedBrowser?
    /// Show "Waiting for the browser… 12 s" on one line that updates every second.
    var showsStatusLine = false
    /// How the instructions name the other ways to sign in.
    var words = AdviceWords()
    /// When fbauth opened the browser itself: the one-time address it was given, whose cookie
    /// the redirect must carry.
    var gate: StartGate?
    /// The page the launched browser was given (shown again if nothing arrives).
    var launchPage: LaunchPage?

    func wait(timeout: Duration) throws(FBAuthError) -> ReceivedCallback {
        let gate = GateBox(gate, observer: observer, words: words)
        let wait = BrowserWait<ReceivedCallback>(
            observer: observer, interrupts: interrupts, hintAfter: hintAfter, launched: launched,
            showsStatusLine: showsStatusLine, address: launchPage?.url ?? authorizationURL, instructions: { [words] in Self.manualInstructions(url: $0, readsTerminal: $1, words: words) },
            serve: { [receiver, matcher, observer, authorizationURL] (deadline, watching) throws(FBAuthError) -> ListenerEvent<ReceivedCallback> in
                let screen = { (request: HTTPRequest) -> RedirectReceiver.Screening in
                    gate.screen(request, redirectPath: matcher.redirectPath, authorizationURL: authorizationURL)
                }
                switch receiver.wait(for: matcher, until: deadline, watching: watching, screen: screen) {
                case .stopped: throw StartGate.replayError(observer)
                case .callback(let callback): return .delivered(callback)
                case .deadlineReached: return .deadlineReached
                case .readable(let fd): return .readable(fd)
                }
            },
            paste: { [receiver, matcher] line in
                PastedRedirect.callback(from: line, redirectURI: receiver.redirectURI, matcher: matcher)
            })
        return try wait.wait(timeout: timeout)
    }

    /// What to do when the browser cannot reach this machine.
    static func manualInstructions(url: String?, readsTerminal: Bool, words: AdviceWords) -> String {
        var text = url.map { "Open this address in a browser on any machine:\n\n  \($0)\n\n" } ?? ""
        text += "If that browser cannot reach this machine's loopback address (SSH, a container), forward the port (ssh -L) "
        text += readsTerminal
            ? "or paste here the address it ends on (the page that does not load)."
            : "or use \(words.twoStep)."
        return text
    }
}

/// The loopback flow's `StartGate`, shared by the rounds of the wait.
private final class GateBox {
    var value: StartGate?
    private let observer: SignInObserver
    private let words: AdviceWords
    /// Whether the terminal was told of a refused redirect (once is enough).
    private var toldRefusal = false

    init(_ value: StartGate?, observer: SignInObserver, words: AdviceWords) {
        self.value = value
        self.observer = observer
        self.words = words
    }

    /// Answers `/start`, and refuses a redirect that does not carry the gate's cookie. Only a
    /// top-level GET redirect carries it (SameSite=Lax); a provider that answers with a
    /// cross-site form POST (`response_mode=form_post`) cannot send it, so such a callback is
    /// checked by its `state` alone, as without the gate.
    func screen(_ request: HTTPRequest, redirectPath: String, authorizationURL: String) -> RedirectReceiver.Screening {
        guard var gate = value else { return .pass }
        defer { value = gate }
        switch gate.start(request, then: authorizationURL) {
        case .respond(let response)?: return .answer(response)
        case .refuseReplay(let response)?: return .stop(response)
        case nil: break
        }
        if request.method == "GET", request.path == redirectPath, !gate.hasCookie(request) {
            // Said at once, not left to the wait's end: a browser program that keeps no
            // cookies (a BROWSER script, curl) can never finish this way.
            if !toldRefusal {
                toldRefusal = true
                observer.notice("The provider's redirect reached the listener without the cookie of the page the browser was sent to, so it was refused (403): "
                    + "the browser keeps no cookies, or is not the one that was opened. Press Ctrl-C: \(words.noBrowser), or use \(words.twoStep).")
            }
            return .answer(ResultPage.rejected(status: 403, reason: "this redirect did not come from the browser this sign-in was opened in"))
        }
        return .pass
    }
}

/// One round of serving the listener.
enum ListenerEvent<Delivery> {
    case delivered(Delivery)
    case deadlineReached
    case readable(Int32)
}

/// Waits for what the browser brings back to the listener, whichever flow it is, and keeps the
/// user informed:
/// - an address pasted into the terminal, where the flow allows it (the loopback redirect,
///   when the browser could not reach the listener) — accepted whenever stdin is a terminal;
/// - Ctrl-C cancels (exit 4) with the listener closed and the store untouched;
/// - once, after `hintAfter` with nothing delivered, the address is shown again;
/// - a browser launcher that fails is reported, and the wait goes on as with `--no-browser`.
struct BrowserWait<Delivery> {
    let observer: SignInObserver
    let interrupts: InterruptSource
    var hintAfter: Duration
    var launched: LaunchedBrowser?
    var showsStatusLine: Bool
    /// The address to show again in the hint.
    let address: String
    /// What to do when the browser cannot reach this machine (`url` to open, if any).
    let instructions: (_ url: String?, _ readsTerminal: Bool) -> String
    /// Serves the listener until `deadline` or until one of `watching` is readable.
    let serve: (_ deadline: ContinuousClock.Instant, _ watching: [Int32]) throws(FBAuthError) -> ListenerEvent<Delivery>
    /// Turns a pasted line into a delivery; nil where this flow takes no pasted address.
    let paste: ((String) -> Result<Delivery, PastedRedirect.PasteProblem>)?
    /// Elapsed time: the timeout, the hint, the status line.
    var clock: MonotonicClock = SystemMonotonicClock()

    /// What the terminal asks for, when it reads a pasted address.
    var pastePrompt = "Paste the address your browser ended on:"
    /// Keep the live status line while the terminal is read (the email link's wait, whose
    /// notice already says to paste): a paste comes whole, with its newline.
    var showsStatusWhileReading = false
    /// What the wait is for, in the status line and the timeout's message.
    var awaited = "the browser"

    func wait(timeout: Duration) throws(FBAuthError) -> Delivery {
        let start = clock.now
        let deadline = start.advanced(by: timeout)
        var hintDue: ContinuousClock.Instant? = start.advanced(by: hintAfter)
        var launched = self.launched
        var readsTerminal = paste != nil && (observer.pasteInput?.isTerminal ?? false)
        let interrupt = interrupts.begin()
        // While the user may type, nothing is redrawn over the line they type on.
        let status = StatusLine(observer: observer, isShown: showsStatusLine && (!readsTerminal || showsStatusWhileReading))
        // While a browser fbauth opened does the work, nobody is asked to paste anything; the
        // prompt comes with the hint, or when the browser fails.
        if readsTerminal, launched == nil, !showsStatusWhileReading { observer.notice(pastePrompt) }
        defer {
            interrupt?.end()
            status.clear()
        }

        while true {
            status.show("Waiting for \(awaited)… \((clock.now - start).components.seconds) s (Ctrl-C cancels)")
            // Wake up for the hint, every second for the status line, and every 200 ms while a
            // launcher runs, to notice it failing.
            var wake = deadline
            if let hintDue { wake = min(wake, hintDue) }
            if showsStatusLine { wake = min(wake, clock.now.advanced(by: .seconds(1))) }
            if launched != nil { wake = min(wake, clock.now.advanced(by: .milliseconds(200))) }
            var watching = interrupt.map { [$0.descriptor] } ?? []
            if readsTerminal, let input = observer.pasteInput { watching.append(input.descriptor) }

            let event: ListenerEvent<Delivery>
            do throws(FBAuthError) {
                event = try serve(wake, watching)
            } catch {
                status.clear()
                throw error
            }
            switch event {
            case .delivered(let delivery):
                return delivery
            case .readable(let fd) where fd == interrupt?.descriptor:
                status.clear()
                throw .flowIncomplete("cancelled; nothing was saved")
            case .readable:
                guard let line = observer.pasteInput?.readLine() else {
                    readsTerminal = false  // the terminal closed; keep waiting for the listener
                    continue
                }
                if line.trimmed().isEmpty { continue }
                switch paste?(line) {
                case .success(let delivery):
                    return delivery
                case .failure(let problem):
                    status.clear()
                    observer.notice("That is not the redirect for this sign-in (\(problem.reason)). Paste the whole address from the browser's address bar.")
                    observer.notice(pastePrompt)
                case nil:
                    continue
                }
            case .deadlineReached:
                if clock.now >= deadline {
                    throw .flowIncomplete("no answer from \(awaited) within \(timeout.wholeSeconds) s; try again, or wait longer", remedy: .waitLonger)
                }
                if let failure = launched?.failure() {
                    if launched?.failureEndsTheWait == true { throw .flowIncomplete(failure) }
                    status.clear()
                    observer.notice("fbauth: the browser could not be opened (\(failure)).")
                    observer.notice(instructions(address, readsTerminal))
                    if readsTerminal { observer.notice(pastePrompt) }
                    launched = nil
                }
                if let due = hintDue, clock.now >= due {
                    status.clear()
                    observer.notice("Still waiting for the browser. If it did not open, visit:\n\n  \(address)\n")
                    observer.notice(instructions(nil, readsTerminal))
                    if readsTerminal { observer.notice(pastePrompt) }
                    hintDue = nil
                }
            }
        }
    }
}

/// A line that is rewritten in place (where the observer can: a terminal).
struct StatusLine {
    let observer: SignInObserver
    let isShown: Bool

    func show(_ text: String) {
        if isShown { observer.signIn(.waiting(text)) }
    }

    func clear() {
        if isShown { observer.signIn(.waiting(nil)) }
    }
}
