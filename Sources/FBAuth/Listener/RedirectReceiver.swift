#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// The loopback listener of a browser flow: binds before the flow starts (so the redirect URI
/// can be registered with Firebase), then waits for the one request `CallbackMatcher` accepts.
internal final class RedirectReceiver {
    /// Where the provider sends the browser back. Firebase's hosted handler uses the same path.
    internal static let callbackPath = "/__/auth/handler"

    internal let port: UInt16
    internal let redirectURI: String
    /// Whether connections of other users are closed unread (`ListenerGuard`): the browser may
    /// then be given the start address itself.
    internal let refusesOtherUsers: Bool
    private let server: LoopbackServer

    internal init(port: UInt16, host: RedirectHost, guard listenerGuard: ListenerGuard = .ownConnectionsOnly) throws(FBAuthError) {
        let admits = listenerGuard.admits
        refusesOtherUsers = admits != nil
        do {
            server = try LoopbackServer(port: port, primary: host.primaryAddress, options: LoopbackServer.Options(admits: admits))
        } catch {
            switch error {
            case .portInUse(let port):
                throw .failed(.listenerUnavailable, "port \(port) is already in use on this machine, probably by another sign-in that is still waiting (find it with: ss -ltnp 'sport = :\(port)'); finish or cancel it, or choose another port (0 picks a free one); with a loopback redirect the provider accepts only the redirect URI registered for that port", remedy: .otherPort)
            case .addressUnavailable(let address):
                throw .failed(.listenerUnavailable, "this machine has no \(address.rawValue) loopback address; choose another redirect host", remedy: .otherRedirectHost)
            case .failed(let socketError):
                throw .failed(.listenerUnavailable, "cannot listen on port \(port): \(socketError.description)", remedy: .otherRedirectHost)
            }
        }
        self.port = server.port
        redirectURI = "http://\(host.rawValue):\(server.port)\(Self.callbackPath)"
    }

    deinit { close() }

    internal enum WaitEvent {
        case callback(ReceivedCallback)
        case deadlineReached
        case readable(Int32)
        /// `screen` stopped the wait (after answering that request).
        case stopped
    }

    /// What `screen` makes of a request before the callback matcher sees it.
    internal enum Screening {
        case pass
        /// Answer it and keep waiting.
        case answer(HTTPResponse)
        /// Answer it and end the wait.
        case stop(HTTPResponse)
    }

    /// Serves requests until the matching callback arrives, the deadline passes, or one of
    /// `watching` becomes readable. Stray requests get a 4xx page meanwhile.
    /// `screen` sees each request first and may answer it instead, or end the wait.
    internal func wait(for matcher: CallbackMatcher, until deadline: ContinuousClock.Instant, watching: [Int32] = [],
                     screen: (HTTPRequest) -> Screening = { _ in .pass }) -> WaitEvent {
        var stopAnswer: HTTPResponse?
        let event = serve(until: deadline, watching: watching) { (request: HTTPRequest) -> Route<CallbackMatcher.Verdict> in
            switch screen(request) {
            case .answer(let response): return .respond(response)
            case .stop(let response):
                stopAnswer = response
                return .take(.rejected(status: response.status, reason: "stopped"))
            case .pass: break
            }
            switch matcher.classify(request) {
            case .rejected(let status, let reason): return .respond(ResultPage.rejected(status: status, reason: reason))
            case let accepted: return .take(accepted)
            }
        }
        if case .taken(_, let held) = event, let stopAnswer {
            held.respond(stopAnswer)
            return .stopped
        }
        switch event {
        case .taken(let verdict, let held):
            let request = held.request
            let host = request.header("Host") ?? "localhost:\(port)"
            let postBody = request.method == "POST" ? String(decoding: request.body, as: UTF8.self) : nil
            return .callback(ReceivedCallback(verdict: verdict, requestURI: "http://\(host)\(request.originForm)", postBody: postBody, held: held))
        case .deadlineReached:
            return .deadlineReached
        case .readable(let fd):
            return .readable(fd)
        }
    }

    /// What to do with one request: answer it now, or take it (and its connection, to be
    /// answered later) out of the loop.
    internal enum Route<Taken> {
        case respond(HTTPResponse)
        case take(Taken)
    }

    internal enum ServeEvent<Taken> {
        case taken(Taken, HeldRequest)
        case deadlineReached
        case readable(Int32)
    }

    /// Serves requests with `route` until it takes one, the deadline passes, or one of
    /// `watching` becomes readable.
    internal func serve<Taken>(until deadline: ContinuousClock.Instant, watching: [Int32] = [],
                             route: (HTTPRequest) -> Route<Taken>) -> ServeEvent<Taken> {
        var taken: Taken?
        let event = server.next(until: deadline, watching: watching) { request in
            switch route(request) {
            case .respond(let response):
                return .respond(response)
            case .take(let value):
                taken = value
                return .hold
            }
        }
        switch event {
        case .held(let held):
            // `.hold` is only returned together with a value.
            guard let taken else { held.close(); return .deadlineReached }
            return .taken(taken, held)
        case .deadlineReached: return .deadlineReached
        case .readable(let fd): return .readable(fd)
        }
    }

    /// Closes every open connection and frees the port.
    internal func close() { server.close() }
}

/// The host name in the redirect URI. The listener always binds loopback addresses only.
package enum RedirectHost: String, Sendable, CaseIterable {
    case localhost
    case ipv4 = "127.0.0.1"
    case ipv6 = "[::1]"

    var primaryAddress: LoopbackAddress { self == .ipv6 ? .ipv6 : .ipv4 }
}
