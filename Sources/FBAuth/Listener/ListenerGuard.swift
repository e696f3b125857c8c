import LoopbackHTTP

/// Who may connect to a sign-in's listener. Another user of the machine can read a browser's
/// command line and reach `http://localhost:PORT` before the browser does (the first visitor of
/// the one-time start address wins the sign-in). Where the kernel says who owns the other end
/// of a loopback connection (Linux, `PeerOwner`), every connection that is not the user's own is
/// closed before a byte of it is read, and the browser can be given the start address itself.
/// Elsewhere (macOS), or when the check is turned off, the browser is given a `LaunchPage`, a
/// file only this user can read, instead.
package enum ListenerGuard: Sendable, Equatable {
    /// Refuse other users' connections where that can be checked (the default).
    case ownConnectionsOnly
    /// Serve every connection; the launch page protects the start address
    /// (`FBAUTH_CONNECTION_CHECK=off`, for a browser that reaches the listener through another
    /// user's program, such as a port forwarder running as root).
    case off

    /// The check for `LoopbackServer.Options.admits`; nil when none is in force here.
    var admits: (@Sendable (Int32) -> Bool)? {
        guard self == .ownConnectionsOnly, Self.worksHere else { return nil }
        return { PeerOwner.isThisUser(peerOf: $0) }
    }

    /// Tried once per process, when the first listener is made (a connection to itself).
    private static let worksHere = PeerOwner.worksHere()
}
