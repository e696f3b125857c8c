import FBAuthSupport
/// What works when the browser cannot run on this machine — over SSH, in a container, in CI —
/// said before fbauth starts waiting, with the exact commands: the SSH port forward for the
/// hosted flow's page (which needs JavaScript and this machine's port), `--loopback` and a
/// pasted address for providers that accept loopback redirects, provider tokens in CI.
internal struct HeadlessAdvice: Sendable, Equatable {
    /// `SSH_CONNECTION`: client address and port, server address and port.
    var sshConnection: String?
    /// The user name on this machine, for the `ssh` command.
    var user: String?
    /// Whether a graphical session is here (`DISPLAY`, `WAYLAND_DISPLAY`; always on macOS).
    var hasDisplay: Bool
    /// Whether the server is an Auth emulator, which takes a loopback redirect for every provider.
    internal var againstEmulator = false
    /// How the advice names the other ways to sign in.
    internal var words = AdviceWords()

    internal init(environment: [String: String], isMacOS: Bool = Platform.isMacOS) {
        sshConnection = environment["SSH_CONNECTION"].flatMap { $0.isEmpty ? nil : $0 }
        user = (environment["USER"] ?? environment["LOGNAME"]).flatMap { Self.isShellWord($0) ? $0 : nil }
        hasDisplay = isMacOS || !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
    }

    /// Gives up at once when no browser can be opened (`reason`) and no terminal can take the
    /// address a browser ends on (CI, a script): the wait would last its whole timeout, and
    /// nobody is there. A port forward still lets a browser elsewhere finish the sign-in, so
    /// with a terminal, or with `--no-browser` (the user opens the address), the wait stays.
    func requireAWayBack(_ observer: SignInObserver, noBrowser reason: String) throws(FBAuthError) {
        guard observer.pasteInput?.isTerminal != true else { return }
        let emulator = againstEmulator ? "; " + words.autoConsent : ""
        throw .flowIncomplete("no browser can be opened here (\(reason)) and no terminal can take back the address it ends on, so nobody could finish this sign-in; "
            + "use \(words.twoStep) (open the address in any browser), \(words.noBrowser), or, in CI, \(words.browserless)" + emulator)
    }

    /// Whether this looks like a machine whose browser (if any) is elsewhere.
    internal var isRemote: Bool { sshConnection != nil && !hasDisplay }

    /// `ssh -L 8977:localhost:8977 ada@198.51.100.7 -p 2222`, to run on the user's own computer.
    internal func sshForward(port: UInt16) -> String? {
        guard let parts = sshConnection?.split(separator: " "), parts.count == 4 else { return nil }
        let host = String(parts[2]), sshPort = String(parts[3])
        guard Self.isShellWord(host), sshPort.allSatisfy(\.isNumber) else { return nil }
        let target = (user.map { "\($0)@" } ?? "") + (host.contains(":") ? "[\(host)]" : host)
        return "ssh -L \(port):localhost:\(port) \(target)" + (sshPort == "22" ? "" : " -p \(sshPort)")
    }

    /// Providers whose OAuth clients accept a loopback redirect URI (README, "Using fbauth with
    /// your Firebase project").
    static let loopbackProviders: Set<String> = ["google.com", "microsoft.com", "twitter.com", "facebook.com"]

    /// The advice for the hosted flow's page (or the reCAPTCHA page) on `port`.
    internal func forLocalPage(port: UInt16, providerId: String?) -> String {
        var text: String
        if let forward = sshForward(port: port) {
            text = "You are connected over SSH: on your own computer run\n\n  \(forward)\n\nkeep it open, and open the address there."
        } else {
            text = "The page needs a browser that reaches port \(port) of this machine: forward the port (ssh -L \(port):localhost:\(port) THIS-HOST, or publish it from a container), then open the address there."
        }
        guard let providerId else { return text }
        if againstEmulator {
            text += " Or sign in with \(words.loopback): an Auth emulator accepts a loopback redirect for every provider, and you paste the address the browser ends on here."
        } else if Self.loopbackProviders.contains(providerId) {
            text += " Or sign in with \(words.loopback): \(providerId) accepts a loopback redirect, and you paste the address the browser ends on here."
        } else if !providerId.hasPrefix("oidc.") && !providerId.hasPrefix("saml.") {
            text += " (\(words.loopback) does not work with \(providerId), which takes no loopback redirect URI.)"
        }
        text += " In CI, sign in without a browser: \(words.browserless)."
        return text
    }

    private static func isShellWord(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 128 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-:%".contains($0)) }
    }
}
