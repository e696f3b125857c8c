#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuth
import FBAuthSupport

/// `fbauth token --keep-fresh FILE`: the ID token kept in a file for programs that read one and
/// read it again when it expires (Kubernetes' `tokenFile`, `AWS_WEB_IDENTITY_TOKEN_FILE`,
/// `AZURE_FEDERATED_TOKEN_FILE`, a workload identity `credential_source.file`, `curl -H @FILE`).
/// Each version is written whole (0600, renamed into place, so a reader never sees half of
/// one) with no trailing newline (a header read from it must not end in one), and again
/// `minValid` seconds before it expires, until SIGTERM or Ctrl-C, which stop it cleanly. The
/// file is the session's: signing out removes it. The refreshes go through the store's lock,
/// so that any number of these and of `fbauth token` make one refresh.
enum KeepFresh {
    /// A failed refresh (the network, a server's error) is tried again after this many seconds,
    /// the file keeping the last token meanwhile.
    static let retryDelay: TimeInterval = 30

    static func run(path: String, minValid: Int, format: TokenFormat, auth: AuthService, _ context: CommandContext) throws(FBAuthError) {
        let interrupt = context.dependencies.interrupts.begin()
        defer { interrupt?.end() }
        try keep(path: path, minValid: minValid, format: format, auth: auth, context, until: interrupt?.descriptor)
    }

    /// Keeps the file fresh until `stop` (a descriptor) becomes readable; nil: for ever.
    /// `announce`: say once on stderr what it does.
    /// `written`: what the file holds already (`exec --token-file` writes it before the command starts).
    static func keep(path: String, minValid: Int, format: TokenFormat, auth: AuthService, _ context: CommandContext, until stop: Int32?,
                     announce: Bool = true, written alreadyWritten: String? = nil) throws(FBAuthError) {
        var written = alreadyWritten
        while true {
            let token: FreshIDToken
            do throws(FBAuthError) {
                token = try Waiting.result {
                    auth.idToken(of: context.globals.user, minValid: TimeInterval(minValid), forcingRefresh: false, completion: $0)
                }
            } catch {
                // Nobody to refresh for (signed out, revoked): that ends it, as `token` would.
                guard error.exitCode == .network || error.exitCode == .failure, written != nil else { throw error }
                context.console.say("fbauth: \(TerminalText.safe(error.commandLineMessage)); trying again in \(Int(retryDelay)) s, \(TerminalText.safe(path)) keeps the last token")
                if stopped(within: retryDelay, stop) { return }
                continue
            }
            let output = try contents(token, format: format, context)
            if output != written {
                try auth.writeFile(output, to: path, forSessionOf: token.uid)
                if written == nil, announce {
                    context.console.say("Keeping \(TerminalText.safe(path)) fresh (rewritten \(minValid) s before each token expires); stop with Ctrl-C or SIGTERM.")
                }
                written = output
            }
            // A token that lives less than the margin (an emulator's --token-lifetime) is
            // written again halfway through its life, not in a loop.
            let remaining = token.expirationTime.timeIntervalSince(context.clock.now())
            let wait = max(1, remaining > TimeInterval(minValid) ? remaining - TimeInterval(minValid) : remaining / 2)
            if stopped(within: wait, stop) { return }
        }
    }

    /// The file's contents for `token`: the format's output without its trailing newline.
    static func contents(_ token: FreshIDToken, format: TokenFormat, _ context: CommandContext) throws(FBAuthError) -> String {
        var output = try format.render(token, environment: context.environment)
        if output.hasSuffix("\n") { output.removeLast() }
        return output
    }

    /// Whether `stop` became readable within `seconds` (Ctrl-C, SIGTERM, the end of a command;
    /// nothing to wait on: never).
    private static func stopped(within seconds: TimeInterval, _ stop: Int32?) -> Bool {
        let milliseconds = Int32(clamping: Int((seconds * 1000).rounded(.up)))
        guard let stop else {
            usleep(UInt32(clamping: Int(milliseconds) * 1000))
            return false
        }
        var entry = pollfd(fd: stop, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return true }
            if ready == 0 { return false }
            if errno != EINTR { return false }
        }
    }
}
