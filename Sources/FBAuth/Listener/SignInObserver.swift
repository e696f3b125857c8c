/// Where a browser sign-in reports what its user should know while it runs, and where it reads
/// an address the user pastes. The library never prints: fbauth's command line shows these on
/// stderr; another program may show them as it likes, or not at all (`SilentObserver`).
package protocol SignInObserver: Sendable {
    func signIn(_ event: SignInEvent)
    /// Where the user can paste the browser's final address when the browser cannot reach this
    /// machine (a browser elsewhere, over ssh); nil when there is no such input.
    var pasteInput: PasteInput? { get }
    /// Whether this observer redraws a live line (`SignInEvent.waiting`); false: none is sent.
    var showsWaitingLine: Bool { get }
}

package enum SignInEvent: Sendable, Equatable {
    /// A sentence for the user: where to sign in, what happened, what to do next.
    case notice(String)
    /// A live "waiting" line, replaced by the next one; nil clears it. Sent only while no
    /// input is being read, so that it never draws over what the user types.
    case waiting(String?)
    /// How the flow works, for someone who asked to see it (`fbauth --verbose`): which
    /// protection is in force, and the like. Nothing the user must act on.
    case detail(String)
}

/// A line-oriented input the flow can wait on together with its listener.
package protocol PasteInput: Sendable {
    /// A descriptor that becomes readable when input arrives (for `poll`).
    var descriptor: Int32 { get }
    /// Whether a person is typing (a terminal), rather than a pipe.
    var isTerminal: Bool { get }
    /// One line without its newline; nil at the end of input.
    func readLine() -> String?
}

/// For programs that show nothing while a sign-in runs.
package struct SilentObserver: SignInObserver {
    package init() {}
    package func signIn(_ event: SignInEvent) {}
    package var pasteInput: PasteInput? { nil }
}

extension SignInObserver {
    package var showsWaitingLine: Bool { false }
    func notice(_ text: String) { signIn(.notice(text)) }
}
