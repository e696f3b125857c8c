#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FBAuthSupport

/// A bare `fbauth token` answered from the environment and `sessions.json` alone, in bytes
/// from end to end: no Swift String is made or freed, as each costs the runtime one-time work
/// that would be most of the command's time (docs/speed.md). Each step follows its
/// String-based counterpart on the full path, and tests hold the two to the same answers:
/// the command line's `ProjectNaming`, `FileSessionStore.directory(option:variable:)`,
/// `FreshIDTokenReader.read(_:project:minValid:now:)`.
package enum QuickTokenRead {
    /// Calls `answer` with the current session's token and returns true when it has at least
    /// `minValid` seconds left; false, with nothing called, whenever the full path must run: a
    /// bad emulator host, an untrusted directory, no file, no such session, a token to refresh.
    package static func answer(environment: RawEnvironment, minValid: TimeInterval, now: Date, _ answer: (FreshIDTokenBytes) -> Void) -> Bool {
        // A run that keeps nothing reads nothing either: FBAUTH_REFRESH_TOKEN, FBAUTH_STORE=none.
        if environment.bytes("FBAUTH_REFRESH_TOKEN")?.isEmpty == false { return false }
        if let store = environment.bytes("FBAUTH_STORE"), store.elementsEqual("none".utf8) { return false }
        guard let project = ProjectQuery(environment) else { return false }
        return withSessionPaths(environment) { directory, _ in
            // The directory is opened through its ancestors and the file through its
            // descriptor, as the full path opens them (`FileSessionStore`).
            TrustedDirectory.withDescriptor(directory) { opened in
                Platform.withOwnFileBytes(in: opened, sessionsFileName) { bytes in
                    guard let token = FreshIDTokenReader.read(bytes, project: project, minValid: minValid, now: now) else { return false }
                    answer(token)
                    return true
                } ?? false
            } ?? false
        }
    }

    /// `sessions.json`, as a C string.
    private static var sessionsFileName: UnsafePointer<CChar> {
        UnsafeRawPointer(("sessions.json" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// The config directory and its `sessions.json` as C strings, chosen as
    /// `FileSessionStore.directory(option: nil, variable:)` chooses: `FBAUTH_CONFIG_DIR`, else
    /// `$XDG_CONFIG_HOME/fbauth` when absolute, else `$HOME/.config/fbauth` (the password
    /// database's home when `HOME` is unset or empty).
    static func withSessionPaths<T>(_ environment: RawEnvironment, _ body: (_ directory: UnsafePointer<CChar>, _ file: UnsafePointer<CChar>) -> T) -> T {
        let base: UnsafeRawBufferPointer, suffix: StaticString
        if let explicit = environment.bytes("FBAUTH_CONFIG_DIR"), !explicit.isEmpty {
            (base, suffix) = (explicit, "")
        } else if let xdg = environment.bytes("XDG_CONFIG_HOME"), xdg.first == UInt8(ascii: "/") {
            (base, suffix) = (xdg, "/fbauth")
        } else if let home = environment.bytes("HOME"), !home.isEmpty {
            (base, suffix) = (home, "/.config/fbauth")
        } else {
            (base, suffix) = (Platform.homeDirectoryBytes(), "/.config/fbauth")
        }
        let fileName: StaticString = "/sessions.json"
        let directoryLength = base.count + suffix.utf8CodeUnitCount
        // "DIRECTORY\0DIRECTORY/sessions.json\0"
        return withUnsafeTemporaryAllocation(byteCount: 2 * directoryLength + fileName.utf8CodeUnitCount + 2, alignment: 1) { buffer in
            var offset = 0
            func append(_ bytes: UnsafeRawBufferPointer) {
                UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<offset + bytes.count]).copyMemory(from: bytes)
                offset += bytes.count
            }
            func append(_ text: StaticString) { append(text.bytes) }
            append(base)
            append(suffix)
            buffer[offset] = 0
            offset += 1
            append(UnsafeRawBufferPointer(rebasing: buffer[0..<directoryLength]))
            append(fileName)
            buffer[offset] = 0
            let start = buffer.baseAddress!.assumingMemoryBound(to: CChar.self)
            return body(start, start + directoryLength + 1)
        }
    }
}

extension ProjectQuery {
    /// The project a bare `fbauth token` asks for, as the command line's
    /// `ProjectNaming.apiKey(option: nil, variable:)` chooses it: `FIREBASE_API_KEY` when set, else the remembered project, either
    /// on the emulator of `FIREBASE_AUTH_EMULATOR_HOST`. Nil when that is not a `host:port`
    /// (the full path then reports it).
    init?(_ environment: RawEnvironment) {
        var emulatorHost = environment.bytes("FIREBASE_AUTH_EMULATOR_HOST")
        if emulatorHost?.isEmpty == true { emulatorHost = nil }
        if let emulatorHost, !FirebaseEndpoints.isHostAndPort(emulatorHost) { return nil }
        let apiKey = environment.bytes("FIREBASE_API_KEY")
        self.init(apiKey: apiKey?.isEmpty == false ? apiKey : nil, emulatorHost: emulatorHost)
    }
}
