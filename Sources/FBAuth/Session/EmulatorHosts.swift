#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LoopbackHTTP

/// Emulator hosts as the store compares them (issue 41, item 5): a session belongs to the
/// project, not to the emulator's `host:port`. `localhost:P`, `127.0.0.1:P` and `[::1]:P` are
/// one emulator; an emulator that has stopped leaves its sessions to the next one started with
/// the same API key (`--import` keeps the users, so they still refresh there).
internal enum EmulatorHosts {
    /// The port of a `host:port` whose host is a name of this machine's loopback; nil for
    /// another host.
    static func loopbackPort(_ hostAndPort: String) -> UInt16? {
        guard let colon = hostAndPort.lastIndex(of: ":"), let port = UInt16(hostAndPort[hostAndPort.index(after: colon)...]) else { return nil }
        return ["localhost", "127.0.0.1", "[::1]"].contains(hostAndPort[..<colon].lowercased()) ? port : nil
    }

    /// Whether two `host:port`s name one emulator.
    static func same(_ a: String, _ b: String) -> Bool {
        a == b || (loopbackPort(a).map { $0 == loopbackPort(b) } ?? false)
    }

    /// Whether something accepts connections at a loopback `host:port` (IPv4, then IPv6); another
    /// host, which fbauth does not probe, counts as running.
    @Sendable static func isRunning(_ hostAndPort: String) -> Bool {
        guard let port = loopbackPort(hostAndPort) else { return true }
        return LoopbackAddress.allCases.contains { address in (try? LoopbackConnection(address: address, port: port, timeoutSeconds: 1)) != nil }
    }
}

extension StoreContents {
    /// The project `key` names, as stored: itself when saved under its own key or new;
    /// else the same API key's project on the same emulator under another name, else on an
    /// emulator that is no longer running (the most recently used), whose `storageKey` it then
    /// carries. The emulator the requests go to stays `key`'s.
    internal func resolve(_ key: ProjectKey, isRunning: (String) -> Bool) -> ProjectKey {
        guard let host = key.emulatorHost, projects[key.storageKey] == nil else { return key }
        let others = projects.values.filter { $0.apiKey == key.apiKey && $0.emulatorHost != nil }
        if let alias = others.first(where: { EmulatorHosts.same($0.emulatorHost!, host) }) { return key.stored(as: alias) }
        let gone = others.filter { !isRunning($0.emulatorHost!) }
        guard let latest = gone.max(by: { $0.lastUsed < $1.lastUsed }) else { return key }
        return key.stored(as: latest)
    }
}

extension ProjectState {
    /// The last sign-in of any of its sessions.
    var lastUsed: Date { sessions.map(\.lastSignInTime).max() ?? .distantPast }
}

extension ProjectKey {
    /// This key, stored as `state`'s project.
    func stored(as state: ProjectState) -> ProjectKey {
        var key = self
        key.storedAs = ProjectKey(apiKey: state.apiKey, emulatorHost: state.emulatorHost).storageKey
        return key
    }
}
