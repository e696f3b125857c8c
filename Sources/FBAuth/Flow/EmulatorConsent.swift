import FBAuthSupport
import LoopbackHTTP

/// Against an Auth emulator on this machine whose fake provider consents at once (`fbauth
/// emulator --auto-consent`), no browser is needed: the provider's page answers with the
/// redirect to fbauth's own listener, and fbauth follows it there itself, as a browser would.
/// Only loopback addresses are followed, only a redirect to the listener's own callback is
/// taken, and the listener still checks the redirect's `state` as for any browser. A consent
/// page that waits for a click (an emulator without `--auto-consent`) is left alone.
internal enum EmulatorConsent {
    /// Fetches `authorizationURL` (an emulator's fake provider on loopback); when it redirects
    /// to `redirectURI`, delivers that redirect to the listener from a thread of its own and
    /// returns true. False when anything else comes back, or the page is not on loopback.
    static func follow(_ authorizationURL: String, to redirectURI: String) -> Bool {
        guard let page = LoopbackTarget(authorizationURL), let answer = page.get(), (301...303).contains(answer.status) || answer.status == 307,
              let location = answer.header("Location"), location.hasPrefix(redirectURI + "?"), let callback = LoopbackTarget(location)
        else { return false }
        BackgroundThread.start { _ = callback.get() }
        return true
    }
}

/// An `http://127.0.0.1:PORT/…` (or `localhost`, `[::1]`) address, fetched with one GET.
private struct LoopbackTarget {
    let address: LoopbackAddress
    let port: UInt16
    let hostHeader: String
    let target: String

    init?(_ url: String) {
        guard url.hasPrefix("http://") else { return nil }
        let rest = url.dropFirst("http://".count)
        let authority = String(rest.prefix { $0 != "/" && $0 != "?" })
        let path = String(rest.dropFirst(authority.count))
        let host: String, portText: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            portText = authority[authority.index(after: close)...].dropFirst()
        } else {
            let parts = authority.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            host = String(parts[0])
            portText = parts[1]
        }
        guard let port = UInt16(portText), port != 0, path.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "\r" && $0 != "\n" }) else { return nil }
        switch host.lowercased() {
        case "127.0.0.1", "localhost": address = .ipv4
        case "::1": address = .ipv6
        default: return nil
        }
        self.port = port
        hostHeader = authority
        target = path.isEmpty ? "/" : (path.hasPrefix("/") ? path : "/" + path)
    }

    func get() -> ReceivedResponse? {
        guard let connection = try? LoopbackConnection(address: address, port: port, timeoutSeconds: 10) else { return nil }
        defer { connection.close() }
        guard connection.send("GET \(target) HTTP/1.1\r\nHost: \(hostHeader)\r\nUser-Agent: fbauth\r\nConnection: close\r\n\r\n") else { return nil }
        return ReceivedResponse(parsing: connection.readToEnd())
    }
}
